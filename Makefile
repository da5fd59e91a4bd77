# Fast matrix multiplication on a GPU with shared memory: the lab kit.
# `make help` lists the targets.

ROOT := $(CURDIR)
# make splits every path at its spaces: a kit in such a folder would fail
# later, in ways that say nothing of the cause.
ifneq ($(word 2,$(ROOT)),)
$(error the kit's folder, "$(ROOT)", has a space in its path, and make cannot build in such a folder: move the kit (or rename the folder) to a path without spaces, such as ~/matmul-kit)
endif
include common/backend.mk
include grader/grader.mk
include grader/instructor.mk

SUBMISSION ?= $(ROOT)/labs
LAB ?=
GRADE_OUT ?= $(ROOT)/build/grade
export BACKEND

.PHONY: help deps grade test test-unit test-grading bench-sim clean
help:
	@echo "A student's commands, in the order the lessons meet them:"
	@echo "make -C labs/01-naive run N=1000           build one lab, check it against the CPU reference, time it"
	@echo "make grade [LAB=NN-name] [SUBMISSION=dir]  grade labs/ (or a folder shaped like it, or holding one); V=1 lists every test"
	@echo "                                           exit status 0 when graded (whatever the score), 2 on a kit error"
	@echo "make query                                 the device's limits: threads, blocks, registers, shared memory per SM"
	@echo "make -C labs/04-tiled occupancy            how many blocks of your kernel one SM holds, and what limits it (needs nvcc)"
	@echo "make -C labs/04-tiled sass                 the same, then your hot loop's instructions in machine code (needs nvcc)"
	@echo "make sass LAB=04 [SUBMISSION=solutions]    the same for one lab of any folder shaped like labs/"
	@echo "make -C labs/04-tiled check N=256          the simulator's counts: loads, hazards, bank conflicts (needs clang)"
	@echo "make -C labs/04-tiled profile|sanitize     the same from a GPU (ncu, compute-sanitizer)"
	@echo "make report [SUBMISSION=dir]               timing report: GFLOP/s beside cuBLAS (GPU), counts (simulator)"
	@echo "make deps                                  install what is missing (apt-get)"
	@echo "make clean                                 remove build/"
	@echo "The kit's own:"
	@[ ! -d grader/tests ] || echo "make test                                  the kit's own tests"
	@[ ! -d grader/tests ] || echo "make test-quick                            a few minutes' subset: the simulator's units, the quiz, stage 04 graded and its mutants"
	@[ ! -d grader/tests ] || echo "make test-platforms                        (as root) the kit on Debian testing (gcc 16, clang 21), clang with ucontext, aarch64; PLATFORMS=all adds Debian 13 (gcc 14, clang 19; g++ 13 and clang 18, as Ubuntu 24.04) and g++ 11"
	@echo "make lessons                               refill the lessons' numbers from reports/"
	@[ ! -d slides ] || echo "make slides [DECK=NN-name]                 the decks, one per stage, to build/slides/*.pdf"
	@[ ! -d common/sim/bench ] || echo "make bench-sim                             time the CPU simulator"
	@[ ! -d grader/answers ] || $(MAKE) --no-print-directory -s instructor-help
	@echo "Settings: BACKEND=gpu|sim (now: $(BACKEND))  ARCH=90  DEBUG=1 (-G)  GRADE_SEED=n  V=1"
	@echo "          LAB_DEFINES=-DTILE=16 (a lab built with other settings: make -C labs/04-tiled run LAB_DEFINES=-DTILE=16)"
	@echo "          CXX_SIM=g++|clang++  CC=cc|clang  (the simulator's compilers)  SIM_FIBERS=ucontext  WERROR=1"
	@echo "          NVCC_CHECK=0|1 (now: $(NVCC_CHECK); 1: with BACKEND=sim, nvcc compiles each lab file first, as a GPU build would)"

deps:
	@common/deps.sh base

# Exit status: 0 when grading finished (whatever the score), 2 when no grade
# could be given (a kit error: grader/kit_check.sh).
grade: deps
	@$(MAKE) --no-print-directory -s $(GRADE_SUITE) || { echo "kit error: the grader's own program does not build" \
	    "(this is not the student's code); no score was given" >&2; exit 2; }
	@$(MAKE) --no-print-directory -s grade-submission

# A make of its own, after deps, so that what make deps just unpacked
# (build/tools/deps, for a user without root) is on its PATH (backend.mk).
.PHONY: grade-submission
grade-submission:
	@SUBMISSION='$(SUBMISSION)' LAB='$(LAB)' GRADE_OUT='$(GRADE_OUT)' GRADE_SUITE=$(GRADE_SUITE) grader/grade.sh

# The device's limits: a GPU's own, or those the CPU simulator presents.
.PHONY: query
query:
	@$(MAKE) --no-print-directory -s -f common/build.mk BACKEND=$(BACKEND) LAB_SRC=/dev/null LAB_NAME=query \
	    $(ROOT)/build/$(BACKEND)/common/device_query
	@$(ROOT)/build/$(BACKEND)/common/device_query

# make sass LAB=04 (or 04-tiled) [SUBMISSION=solutions]: one lab's machine
# code, as make -C labs/04-tiled sass prints it, for any folder shaped like labs/.
.PHONY: sass
sass:
	@[ -n "$(LAB)" ] || { echo "make sass: which lab? make sass LAB=04-tiled [SUBMISSION=solutions]"; exit 2; }
	@dir=$$(ls -d $(SUBMISSION)/$(LAB)*/ 2>/dev/null | head -n 1); \
	[ -n "$$dir" ] && [ -f "$$dir/matmul.cu" ] || { echo "make sass: no $(LAB)*/matmul.cu in $(SUBMISSION)"; exit 2; }; \
	$(MAKE) --no-print-directory -C "$$dir" -f $(ROOT)/common/lab.mk sass

# One deck per stage (slides/NN-name.md), built to PDF from the solutions
# and the committed reports; slides/README.md says how.
.PHONY: slides
slides:
	@[ -x slides/tools/build.sh ] || { echo "slides: not here (the student handout leaves the decks out)"; exit 1; }
	@common/deps.sh slides
	@slides/tools/build.sh $(DECK)

include tests.mk

clean:
	rm -rf build
