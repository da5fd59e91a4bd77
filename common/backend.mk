# Which backend builds and runs the labs, and how each one compiles.
#
#   BACKEND=gpu  nvcc, for the GPU present (ARCH=90 to choose) or, with no
#                GPU, for every common architecture plus PTX
#   BACKEND=sim  g++ and the kit's CPU simulator (no CUDA toolkit needed)
# Default: gpu when a GPU and nvcc are both there, else sim.

ROOT ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)

# The kit writes numbers with a '.' and reads them back (awk, bash's printf,
# gnuplot), and reads compilers' messages: under a user's locale that writes
# 1,5 (de_DE, fr_FR, ...) mawk reads "1.5" as 1 and the reports fill with
# commas.  So every command make runs gets C's numbers, as chosen by
# common/c_numbers.sh, which the scripts run on their own source too.  A
# caller's C is kept: grade.sh builds under LC_ALL=C, for compilers'
# messages in plain ASCII.
export LC_ALL := $(shell . '$(ROOT)/common/c_numbers.sh' && echo "$$LC_ALL")
# The kit's scripts find their folders with $(cd dir && pwd); a CDPATH the
# user exported makes that cd print the folder a second time.
unexport CDPATH

# Looked for once (`?=` alone would ask the shell again at every use).
ifeq ($(origin NVCC),undefined)
NVCC := $(firstword $(shell command -v nvcc 2>/dev/null) $(wildcard /usr/local/cuda/bin/nvcc))
endif
GPU_COUNT := $(shell nvidia-smi -L 2>/dev/null | grep -c '^GPU')
BACKEND ?= $(if $(and $(NVCC),$(filter-out 0,$(GPU_COUNT))),gpu,sim)

ifeq ($(filter $(BACKEND),gpu sim),)
$(error BACKEND=$(BACKEND): choose gpu or sim)
endif
ifeq ($(BACKEND)$(NVCC),gpu)
$(error BACKEND=gpu needs the CUDA toolkit: no nvcc on PATH or in /usr/local/cuda/bin)
endif

comma := ,
# nvidia-smi prints compute capability as 9.0; nvcc wants 90.
ifeq ($(origin ARCH),undefined)
ARCH := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
endif
PORTABLE_ARCHS := 75 80 86 89 90
NVCC_ARCH_FLAGS := $(if $(ARCH),-gencode arch=compute_$(ARCH)$(comma)code=sm_$(ARCH),\
    $(foreach a,$(PORTABLE_ARCHS),-gencode arch=compute_$(a)$(comma)code=sm_$(a)) \
    -gencode arch=compute_90$(comma)code=compute_90)

# The simulator's compilers are settings: CXX_SIM=clang++ works as well as
# g++ (CC=clang for the C parts).  Exported, so the grading scripts name and
# check the same ones.
CC ?= cc
CXX_SIM ?= g++
# The launch rewriter runs during the build, so it is built for this machine
# even when CC and CXX_SIM build for another (CC=aarch64-linux-gnu-gcc).
BUILD_CC ?= $(CC)
CFLAGS_COMMON := -O2 -g -Wall -Wextra -std=c11
# -lineinfo lets ncu and compute-sanitizer name source lines; DEBUG=1
# builds device code with -G for cuda-gdb.
NVCC_FLAGS := -O3 -std=c++17 $(if $(DEBUG),-G -g,-lineinfo) $(NVCC_ARCH_FLAGS)
# NVCC_CHECK=1 (the default wherever nvcc is found): a simulator build of a
# lab file first has nvcc compile it for the GPU (sm_90, or ARCH), so that
# what nvcc rejects fails here as it would on a GPU.  g++ compiles a kernel
# as plain C++ and accepts, for one, a kernel that calls a function not
# marked __device__, or more static shared memory than a block may have.
# NVCC_CHECK=0 builds for the simulator alone.
NVCC_CHECK ?= $(if $(NVCC),1,0)
ifeq ($(NVCC_CHECK)$(NVCC),1)
$(error NVCC_CHECK=1 needs the CUDA toolkit: no nvcc on PATH or in /usr/local/cuda/bin)
endif
export NVCC_CHECK
# The toolkit's occupancy calculator, a header beside nvcc's others: with
# nvcc's numbers for each kernel it answers the occupancy API on the
# simulator (sim/nvcc_checked/occupancy_api.cpp).
CUDA_OCCUPANCY_H := $(if $(NVCC),$(firstword $(wildcard $(dir $(realpath $(NVCC)))../include/cuda_occupancy.h \
    $(dir $(NVCC))../include/cuda_occupancy.h /usr/local/cuda/include/cuda_occupancy.h /usr/include/cuda_occupancy.h)))
# Device code only (a cubin): the host compiler just preprocesses, so one
# newer than the CUDA release supports (a distribution's gcc beside an
# older toolkit) need not stop the check.
NVCC_CHECK_FLAGS := -std=c++17 -w -cubin -arch=sm_$(or $(ARCH),90) -allow-unsupported-compiler
# -fno-strict-aliasing: lab files read float arrays as float4, as CUDA code
# does everywhere; nvcc allows it, and g++ must not reorder around it.
# -Wno-unknown-pragmas: g++ does not know nvcc's #pragma unroll.
SIM_CXXFLAGS := -O2 -g -std=c++17 -fno-strict-aliasing -pthread -Wall -Wno-unused-variable -Wno-unknown-pragmas -DLAB_SIMULATOR
# SIM_FIBERS=ucontext: the portable context switch every machine but x86-64 and aarch64
# uses, on x86-64 too (make test-platforms runs the tests with it).
SIM_CXXFLAGS += $(if $(filter ucontext,$(SIM_FIBERS)),-DSIM_FIBER_UCONTEXT)
# A kernel's local arrays live on its CUDA thread's stack, which grows on
# demand to 576 KiB (sim/launch.cpp): a frame larger than a page is touched
# a page at a time from the top, so that it grows the stack, or meets the
# guard page below it, rather than leaping into the stack of another thread.
# A compiler that cannot probe on its target (for aarch64, the clang 14 of
# Debian 12 and Ubuntu 22.04) builds without them rather than warn at every
# build: there only a frame larger than all the room a thread has (512 KiB
# of local arrays, more than nvcc lets a thread have) misses the guard page.
# Asked only when a build needs it, and kept under build/probes/ in a file
# named by the compiler's command and the program its name resolves to
# (another version installed under that name is another program), so that
# a make after the first reads the answer instead of starting the compiler
# (a tenth to a quarter of a second a build; the grader builds hundreds).
# Where build/ cannot be written, each make asks.
stack_probes_of = $(shell key=$$(printf '%s %s\n' '$(1)' "$$(readlink -f "$$(command -v $(firstword $(1)))")" | cksum | cut -d' ' -f1); \
    kept='$(ROOT)/build/probes/stack-clash-'$$key; \
    if [ -f "$$kept" ]; then cat "$$kept"; else \
        answer=$$($(1) -fstack-clash-protection -Werror -x c++ -c /dev/null -o /dev/null 2>/dev/null && echo -fstack-clash-protection); \
        { mkdir -p "$${kept%/*}" && echo "$$answer" > "$$kept.$$$$" && mv -f "$$kept.$$$$" "$$kept"; } 2>/dev/null; \
        echo "$$answer"; fi)
SIM_STACK_PROBES = $(eval SIM_STACK_PROBES := $(call stack_probes_of,$(CXX_SIM)))$(SIM_STACK_PROBES)
CHECK_STACK_PROBES = $(eval CHECK_STACK_PROBES := $(call stack_probes_of,$(CHECK_CXX)))$(CHECK_STACK_PROBES)
# The student's file only: every access through a pointer not aligned for
# its type calls the simulator, which stops the kernel as a GPU's
# misaligned-address fault does (sim/misaligned_access.cpp); and the probes.
LAB_SIM_CHECKS = -fsanitize=alignment $(SIM_STACK_PROBES)
LAB_CHECK_CHECKS = -fsanitize=alignment $(CHECK_STACK_PROBES)
export SIM_FIBERS
# Check builds count the accesses the source asks for: no vectorizer merging
# four adjacent float reads into one 16-byte read behind the student's back,
# and no loop of loads and stores turned into a memcpy or memset call, whose
# accesses no hook sees (a thread that copies a row of A into shared memory
# in a loop would seem to copy nothing, and every read of it to read memory
# nothing wrote).  Nor may the count depend on the machine clang builds
# for, which decides by its own costs whether to unroll a loop (a rolled
# loop whose guard some lanes fail lines up their accesses otherwise) and
# whether a float4 read of which only the components are used becomes four
# 4-byte reads (aarch64's costs say so): loops stay as written unless the
# source asks (#pragma unroll), and the pass that splits or widens vector
# accesses (vector-combine) does not run, so an aarch64 build (a Grace
# Hopper node's) reports what an x86-64 one does (make test-platforms).
# A warp's accesses make one request where they come from one instruction
# (sim/check_requests.cpp), so the instructions must not depend on the
# machine's costs either.  nvcc inlines device functions; so, near enough,
# does a check build (thresholds far above clang's 225 and 45): stage 10's
# store_pair, called at 128 places, stayed out of line on x86-64 by a cost
# aarch64's inliner weighed otherwise, and there lanes that skip some calls
# paired one call's store with another's.  Nor does code generation merge
# the hook calls of two stores into one (tail merging).
CHECK_CXX ?= clang++
export CC CXX_SIM CHECK_CXX BUILD_CC
CHECK_CXXFLAGS := -O2 -gdwarf-4 -std=c++17 -fno-strict-aliasing -pthread -Wall -Wno-unused-variable -DLAB_SIMULATOR -DLAB_CHECK_MODE \
    -fno-vectorize -fno-slp-vectorize -fsanitize-coverage=func,trace-loads,trace-stores \
    -fno-builtin-memcpy -fno-builtin-memset -fno-builtin-memmove -fno-unroll-loops -mllvm -disable-vector-combine \
    -mllvm -inline-threshold=1000 -mllvm -inline-cold-callsite-threshold=1000 \
    -mllvm -enable-tail-merge=false

# WERROR=1: every warning is an error (make test-platforms builds the kit
# and the solutions so on each toolchain: they must build without one).
ifneq ($(WERROR),)
CFLAGS_COMMON += -Werror
SIM_CXXFLAGS += -Werror
CHECK_CXXFLAGS += -Werror
endif
export WERROR

# What common/fetch_deps.sh unpacked for a user without root (make deps
# does it there): its clang first on PATH, its Check as CHECK_PREFIX.
KIT_TOOLS := $(ROOT)/build/tools/deps
ifneq ($(wildcard $(KIT_TOOLS)/bin/clang++),)
export PATH := $(KIT_TOOLS)/bin:$(PATH)
endif
ifndef CHECK_PREFIX
ifneq ($(wildcard $(KIT_TOOLS)/root/usr/include/check.h),)
CHECK_PREFIX := $(KIT_TOOLS)/root/usr
endif
endif

# Check, from pkg-config; CHECK_PREFIX=dir/usr points at an unpacked copy
# instead (for machines without a package registry).
ifdef CHECK_PREFIX
export CHECK_PREFIX
CHECK_CFLAGS = -I$(CHECK_PREFIX)/include
CHECK_LIBS = $(CHECK_PREFIX)/lib/x86_64-linux-gnu/libcheck.a $(wildcard $(CHECK_PREFIX)/lib/x86_64-linux-gnu/libsubunit.a) -lm -lrt -pthread
else
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
endif
