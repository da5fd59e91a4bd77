# The grader's program around a lab file, lab_exec (grader/lab_exec.cu: it
# runs the grade suite's cases, and on a GPU keeps the ledger of where C
# came from), built as common/build.mk builds run_lab, which it includes:
#
#   make -f grader/lab_exec.mk LAB_SRC=path/matmul.cu LAB_NAME=01-naive OUT=dir [BACKEND=..] [LAB_DEFINES=..] dir/lab_exec
#
# dir/check/lab_exec is the simulator's check build of it.  Called by
# grader/grade.sh and grader/prepare_programs.sh.  The grader's headers are
# on this program's include path alone, not on the lab file's.
include $(dir $(lastword $(MAKEFILE_LIST)))../common/build.mk

GRADER_DIR := $(ROOT)/grader
GRADER_INCLUDES := $(INCLUDES) -I$(GRADER_DIR)
GRADER_HEADERS := $(wildcard $(GRADER_DIR)/*.h)

ifeq ($(BACKEND),sim)
$(OUT)/lab_exec.o: $(GRADER_DIR)/lab_exec.cu $(SIM_HEADERS) $(PROGRAM_HEADERS) $(GRADER_HEADERS) $(OUT)/built-with
	$(call program_object,$(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_INCLUDES) -I$(GRADER_DIR) $(DEFS) -x c++)

$(OUT)/lab_exec: $(OUT)/lab_exec.o $(OUT)/matmul.o $(KERNEL_RESOURCES) $(COMMON_OUT)/harness.o $(COMMON_OUT)/libsim.a
	$(SIM_PROGRAM_LINK)

$(OUT)/check/lab_exec: $(OUT)/lab_exec.o $(OUT)/check/matmul.o $(KERNEL_RESOURCES) $(COMMON_OUT)/harness.o $(COMMON_OUT)/libsim.a
	$(SIM_PROGRAM_LINK)

else
$(OUT)/lab_exec.o: $(GRADER_DIR)/lab_exec.cu $(PROGRAM_HEADERS) $(GRADER_HEADERS) $(OUT)/built-with
	$(call program_object,$(NVCC) $(NVCC_FLAGS) $(GRADER_INCLUDES) $(DEFS))

# What the grader runs keeps a ledger of where C came from: every runtime
# call grader/gpu_ledger.cpp defines a __wrap_ for goes through it first
# (ld --wrap), the list read from the object itself so it cannot drift.
# The runtime library is found where nvcc itself links from (its -dryrun
# prints the -L folders), not beside the nvcc on PATH: that may be a wrapper
# script in another folder.  Evaluated only when the ledger is built.
CUDA_LIBRARY_DIRS = $(patsubst -L%,%,$(filter -L%,$(subst ",,$(shell \
    $(NVCC) -dryrun -x cu -c /dev/null -o /dev/null 2>&1 | sed -n 's/^\#\$$ LIBRARIES=//p'))))
CUDART_STATIC = $(firstword $(wildcard $(addsuffix /libcudart_static.a,$(CUDA_LIBRARY_DIRS))))
$(COMMON_OUT)/gpu_ledger.o: $(GRADER_DIR)/gpu_ledger.cpp $(GRADER_DIR)/gpu_ledger.h $(GRADER_DIR)/lab_exec_protocol.h
	@mkdir -p $(@D)
	$(NVCC) -O2 -std=c++17 $(GRADER_INCLUDES) \
	    $$(nm -g $(CUDART_STATIC) 2>/dev/null | grep -q ' T __cudaLaunchKernel$$' && echo -DGPU_LEDGER_INTERNAL_LAUNCH) \
	    -c $< -o $@

# A smaller GPU where the grader's small-device test asks for one
# (grader/gpu_device_offer.cpp), its calls wrapped as the ledger's are.
$(COMMON_OUT)/gpu_device_offer.o: $(GRADER_DIR)/gpu_device_offer.cpp
	@mkdir -p $(@D)
	$(NVCC) -O2 -std=c++17 -c $< -o $@

# Each __wrap_ the two define, as ld's --wrap for the call it takes first.
GPU_WRAPPERS := $(COMMON_OUT)/gpu_ledger.o $(COMMON_OUT)/gpu_device_offer.o
wrap_flags = $$(nm $(GPU_WRAPPERS) | awk '$$2 == "T" && sub(/^__wrap_/, "", $$3) { printf " -Xlinker --wrap=%s", $$3 }')

# A launch the ledger cannot see would let a product made on the host pass
# as the kernel's, so a kernel launch that bypasses it stops the build.
# (When nvcc's own <<<...>>> code is what bypasses it, the grader's canary
# fails to build too, and that is a kit error.)
$(OUT)/lab_exec: $(OUT)/lab_exec.o $(OUT)/matmul.o $(COMMON_OUT)/harness.o $(GPU_WRAPPERS)
	@for launch in $$(nm -u $(OUT)/matmul.o | awk '$$2 ~ /^(__)?cudaLaunch(Cooperative)?Kernel/ { print $$2 }' | sort -u); do \
	    nm $(COMMON_OUT)/gpu_ledger.o | grep -q " T __wrap_$$launch$$" || { \
	        echo "error: kernels launched through $$launch cannot be graded on a GPU: the grader's ledger" \
	             "(grader/gpu_ledger.cpp) has no wrapper for it in this CUDA runtime ($(CUDART_STATIC))" >&2; \
	        exit 1; }; done
	$(NVCC) $(NVCC_ARCH_FLAGS) $^ $(wrap_flags) -o $@
endif
