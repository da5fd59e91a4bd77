# Fast matrix multiplication on a GPU with shared memory: the lab kit.
# `make help` lists the targets.

ROOT := $(CURDIR)
include common/backend.mk
include grader/grader.mk
include grader/instructor.mk

SUBMISSION ?= $(ROOT)/labs
LAB ?=
GRADE_OUT ?= $(ROOT)/build/grade
export BACKEND

.PHONY: help deps grade test test-unit test-grading bench-sim clean
help:
	@echo "make grade [SUBMISSION=dir] [LAB=NN-name]  grade labs/ (or dir shaped like it); exit 0 when graded, 2 on a kit error"
	@[ ! -d grader/tests ] || echo "make test                                  the kit's own tests"
	@echo "make report [SUBMISSION=dir]               timing report: GFLOP/s beside cuBLAS (GPU), counts (simulator)"
	@echo "make lessons                               refill the lessons' numbers from reports/"
	@[ ! -d slides ] || echo "make slides [DECK=NN-name]                 the decks, one per stage, to build/slides/*.pdf"
	@echo "make bench-sim                             time the CPU simulator"
	@echo "make -C labs/01-naive run N=1000           build, check and time one lab"
	@echo "make deps                                  install what is missing (apt-get)"
	@[ ! -d grader/tests ] || echo "make test-platforms                        (as root) the kit on Debian 13 (gcc 14, clang 19, g++ 13), clang, ucontext, aarch64"
	@echo "make clean                                 remove build/"
	@echo "Settings: BACKEND=gpu|sim (now: $(BACKEND))  ARCH=90  DEBUG=1  GRADE_SEED=n  V=1 (every test's line)"
	@echo "          CXX_SIM=g++|clang++  CC=cc|clang  (the simulator's compilers)  SIM_FIBERS=ucontext  WERROR=1"

deps:
	@common/deps.sh base

# Exit status: 0 when grading finished (whatever the score), 2 when no grade
# could be given (a kit error: grader/kit_check.sh).
grade: deps
	@$(MAKE) --no-print-directory -s $(GRADE_SUITE) || { echo "kit error: the grader's own program does not build" \
	    "(this is not the student's code); no score was given" >&2; exit 2; }
	@SUBMISSION=$(SUBMISSION) LAB=$(LAB) GRADE_OUT=$(GRADE_OUT) GRADE_SUITE=$(GRADE_SUITE) grader/grade.sh

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
