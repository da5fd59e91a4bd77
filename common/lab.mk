# Included by every labs/NN-name/Makefile (and solutions/NN-name/Makefile):
#
#   make run  [N=1000] [SEED=1] [REPS=]   build, check against the CPU reference, time
#   make check [N=256]                    the simulator's check report
#   make occupancy [THREADS=n] [DYNAMIC_SHARED=bytes]   blocks per SM and what limits them (nvcc)
#   make sass                             the hot loop in machine code (nvcc, nvdisasm)
#   make grade                            grade this stage (from the top-level grader)
#   make clean
# BACKEND=gpu|sim and ARCH= work as at the top level.

# make splits every path at its spaces (see the top-level Makefile).
ifneq ($(word 2,$(CURDIR)),)
$(error this lab's folder, "$(CURDIR)", has a space in its path, and make cannot build in such a folder: move the kit (or rename the folder) to a path without spaces, such as ~/matmul-kit)
endif
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
LAB_DIR := $(CURDIR)
LAB_NAME := $(notdir $(LAB_DIR))
LAB_KIND := $(notdir $(abspath $(LAB_DIR)/..))
include $(ROOT)/common/backend.mk
# A build with other settings (LAB_DEFINES=-DTILE=16) gets a folder of its
# own, so no object built with other settings is reused.
empty :=
space := $(empty) $(empty)
DEFINES_DIR := $(subst =,_,$(subst $(space),_,$(subst -D,,$(strip $(LAB_DEFINES)))))
LAB_OUT_NAME := $(LAB_KIND)/$(LAB_NAME)$(if $(DEFINES_DIR),/$(DEFINES_DIR))
OUT := $(ROOT)/build/$(BACKEND)/$(LAB_OUT_NAME)
BUILD_ARGS := -f $(ROOT)/common/build.mk LAB_SRC=$(LAB_DIR)/matmul.cu LAB_NAME=$(LAB_NAME) OUT=$(OUT) BACKEND=$(BACKEND)

N ?= $(if $(filter check profile sanitize,$(MAKECMDGOALS)),256,1000)
SEED ?= 1
REPS ?=

.PHONY: all run check occupancy sass profile sanitize grade clean help
# A header of the student's own beside matmul.cu: make grade takes matmul.cu
# alone, so say so under every build, not first at grading
# (common/own_includes.sh).  A shell command, for the recipes below.
own_includes_note = $(ROOT)/common/own_includes.sh $(LAB_DIR)/matmul.cu | while IFS= read -r header; do \
    echo "note: matmul.cu includes $$header from its own folder, but a lab is one file: make grade takes" \
        "matmul.cu alone (and the simulator's build rewrites matmul.cu alone), so move what $$header holds into matmul.cu"; \
    done

# On the simulator a build that fails for a name or header CUDA has and the
# simulator lacks, or after nvcc compiled the same file, says so under the
# compiler's messages (common/sim/names_not_simulated.sh, nvcc_accepted.sh),
# unless the file calls a library no lab links (common/libraries_called.sh),
# which a GPU refuses as well.
all:
ifeq ($(BACKEND),sim)
	@mkdir -p $(OUT); \
	if $(MAKE) --no-print-directory $(BUILD_ARGS) $(OUT)/run_lab > $(OUT)/build.log 2>&1; then \
	    cat $(OUT)/build.log; $(own_includes_note); \
	else \
	    cat $(OUT)/build.log; $(own_includes_note); \
	    libraries=$$($(ROOT)/common/libraries_called.sh $(LAB_DIR)/matmul.cu | paste -sd';' -); \
	    missing=$$($(ROOT)/common/sim/names_not_simulated.sh $(OUT)/build.log); \
	    if [ -n "$$libraries" ]; then echo "note: matmul.cu calls a library ($$libraries): a lab links the CUDA runtime" \
	        "and no library besides, on a GPU too; the lab's product must come from your own kernels"; \
	    elif [ -n "$$missing" ]; then echo "note: $$missing: CUDA has it and the CPU simulator does not, a limit of the kit," \
	        "not a mistake in your code; this file needs a GPU (BACKEND=gpu)"; \
	    else verdict=0; $(ROOT)/common/sim/nvcc_accepted.sh $(OUT) $(OUT)/build.log $(BUILD_ARGS) || verdict=$$?; \
	        if [ $$verdict = 0 ]; then echo "note: nvcc, the CUDA compiler, builds this file, so it is CUDA a GPU builds:" \
	            "the simulator's failure is a limit of the kit, not a mistake in your code; this file needs a GPU (BACKEND=gpu)"; \
	        elif [ $$verdict = 2 ]; then echo "note: nvcc, the CUDA compiler, does not build this file either:"; \
	            grep -E 'error' $(OUT)/nvcc-full-check.log; fi; \
	    fi; \
	    exit 1; \
	fi
else
	@$(MAKE) --no-print-directory $(BUILD_ARGS) $(OUT)/run_lab || { $(own_includes_note); exit 1; }; $(own_includes_note)
endif

help:
	@echo "make run [N=1000] [SEED=1] [REPS=n]  build $(LAB_NAME), check it, time it ($(BACKEND) backend)"
	@echo "make check [N=256]                   the simulator's counts and findings (needs clang)"
	@echo "make occupancy [THREADS=n]           blocks of your kernel per SM, and the resource that limits them (needs nvcc);"
	@echo "                                     DYNAMIC_SHARED=bytes counts the dynamic shared memory a launch asks for"
	@echo "make sass                            registers and occupancy, then the hot loop's instructions in machine code (nvcc, nvdisasm)"
	@echo "make profile [N=256]                 the same counts from a GPU (ncu)"
	@echo "make sanitize [N=256]                compute-sanitizer memcheck, racecheck, synccheck (GPU)"
	@echo "make grade                           grade $(LAB_NAME)"
	@echo "BACKEND=gpu|sim  ARCH=90  DEBUG=1 (device code built with -G)"

# N and SEED quoted: an empty one (make run N=) is then refused by name
# instead of shifting the next argument into its place.
run: all
	$(OUT)/run_lab '$(N)' '$(SEED)' $(REPS)

# The simulator's check mode: load and store counts, coalescing, bank
# conflicts, hazards, out-of-bounds and host-memory accesses, per launch,
# and SVG pictures of the worst shared access (shared-access.svg) and of
# the first hazard, if there is one (hazard.svg).
CHECK_OUT := $(ROOT)/build/sim/$(LAB_OUT_NAME)/check
check:
	@command -v $(CHECK_CXX) >/dev/null || { echo "check: needs clang ($(CHECK_CXX) is not installed): sudo apt-get install -y clang;" \
	    "make run works without it"; exit 1; }
	@$(MAKE) --no-print-directory $(BUILD_ARGS) BACKEND=sim OUT=$(ROOT)/build/sim/$(LAB_OUT_NAME) $(CHECK_OUT)/run_lab
	@rm -f $(CHECK_OUT)/shared-access.svg $(CHECK_OUT)/hazard.svg
	SIM_CHECK_PICTURE=$(CHECK_OUT)/shared-access.svg SIM_CHECK_HAZARD_PICTURE=$(CHECK_OUT)/hazard.svg \
	    $(CHECK_OUT)/run_lab '$(N)' '$(SEED)' 1

# How many blocks of this kernel one SM holds, from the compiler's register
# and shared-memory counts and the device's limits (make query's).
THREADS ?=
occupancy:
	@$(MAKE) --no-print-directory -s -f $(ROOT)/common/build.mk BACKEND=$(BACKEND) LAB_SRC=/dev/null LAB_NAME=query \
	    $(ROOT)/build/$(BACKEND)/common/device_query
	@mkdir -p $(OUT) && $(ROOT)/build/$(BACKEND)/common/device_query --tsv > $(OUT)/device_limits.tsv
	@LAB_DEFINES='$(LAB_DEFINES)' ARCH='$(ARCH)' $(ROOT)/common/occupancy/occupancy.sh $(LAB_DIR)/matmul.cu $(LAB_NAME) \
	    '$(THREADS)' $(OUT)/device_limits.tsv

# What the compiler made of this kernel: its registers and occupancy, then
# the shared and global memory instructions of its hot loop (no GPU needed).
sass: occupancy
	@LAB_DEFINES='$(LAB_DEFINES)' ARCH='$(ARCH)' $(ROOT)/common/sass/sass.sh $(LAB_DIR)/matmul.cu $(LAB_NAME) $(OUT)/sass

# The same counts and findings from a GPU: Nsight Compute's counters and
# compute-sanitizer's memcheck, racecheck and synccheck.
profile: all
	$(ROOT)/common/gpu/profile.sh $(OUT)/run_lab '$(N)'

sanitize: all
	$(ROOT)/common/gpu/sanitize.sh $(OUT)/run_lab '$(N)'

grade:
	@$(MAKE) --no-print-directory -C $(ROOT) grade LAB=$(LAB_NAME) SUBMISSION=$(abspath $(LAB_DIR)/..) BACKEND=$(BACKEND)

clean:
	rm -rf $(OUT)
