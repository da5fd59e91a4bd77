# Builds one lab file into the programs that run it.
#
#   make -f common/build.mk LAB_SRC=path/matmul.cu LAB_NAME=01-naive OUT=dir [BACKEND=..] [LAB_DEFINES=-DTILE=16]
#
# produces $(OUT)/run_lab (check and time).  The shared pieces are built
# once per backend under build/<backend>/common.  Called by common/lab.mk,
# the report and the kit's tools; the grader's own program around a lab
# file, lab_exec, is grader/lab_exec.mk's, which includes this file.

include $(dir $(lastword $(MAKEFILE_LIST)))backend.mk

LAB_SRC ?= $(error LAB_SRC is not set)
LAB_NAME ?= $(notdir $(patsubst %/,%,$(dir $(LAB_SRC))))
OUT ?= $(ROOT)/build/$(BACKEND)/lab/$(LAB_NAME)
COMMON_OUT := $(ROOT)/build/$(BACKEND)/common
LAB_DEFINES ?=
DEFS := -DLAB_NAME='"$(LAB_NAME)"' -DLAB_BUILT_WITH='"$(strip $(LAB_DEFINES))"' $(LAB_DEFINES)
# The lab file alone: a main() of its own (a test the student left in) would
# clash with the harness's; renamed, it is compiled and never called.  (The
# C, C++ and CUDA headers name main in comments alone.)
LAB_FILE_DEFS := $(DEFS) -Dmain=lab_file_own_main
INCLUDES := -I$(ROOT)/common
# The kit's headers a lab file may include: a change to one rebuilds it.
LAB_HEADERS := $(ROOT)/common/lab.h $(ROOT)/common/mma_tf32.h

.PHONY: lab-programs
lab-programs: $(OUT)/run_lab

# record_if_changed FILE,TEXT: writes TEXT to FILE when FILE holds something
# else, so FILE is newer than what was built with other settings.  A rule
# for FILE with the phony prerequisite always-compare runs it on every make;
# FILE keeps its time when nothing changed, and nothing is rebuilt.
# -Werror changes no object, so no record holds it.  (The shell compares:
# make 4.3 was seen to call identical records different when it compared
# them itself, which rebuilt every object on every make.)
single_quoted = '$(subst ','\'',$1)'
record_if_changed = $(shell mkdir -p $(dir $1) && printf '%s\n' $(call single_quoted,$(strip $2)) | cmp -s - $1 || \
    printf '%s\n' $(call single_quoted,$(strip $2)) > $1)
.PHONY: always-compare
always-compare:

# What this folder's objects were built with: DEBUG=1, ARCH=, another
# compiler or a kit whose flags changed rebuilds them, as a change of their
# sources does (a check build made before the kit stopped turning copy
# loops into memcpy must not be reused).
LAB_BUILT_WITH = $(LAB_FILE_DEFS) $(if $(filter sim,$(BACKEND)),$(CXX_SIM) $(SIM_CXXFLAGS) $(LAB_SIM_CHECKS) $(SIM_OCCUPANCY_DEFS) | $(CHECK_CXX) $(CHECK_CXXFLAGS) $(LAB_CHECK_CHECKS) | nvcc check $(NVCC_CHECK) $(NVCC),\
    $(NVCC) $(NVCC_FLAGS))
$(OUT)/built-with: always-compare
	$(call record_if_changed,$@,$(filter-out -Werror,$(LAB_BUILT_WITH)))

# The program around a lab file (common/run_lab.cu, grader/lab_exec.cu) is
# the same for every lab file of a stage, so it is compiled once per stage,
# defines, compiler and flags, and kept under COMMON_OUT/programs/, in a
# folder named by a checksum of them all; a build whose object is there,
# newer than its sources, copies it, and a grader's build compiles the
# student's file alone.  Builds running at once may compile it together:
# each renames its copy into place, so none reads a half-written object.
# Where that folder cannot be written (the grader running as another user
# than the one who built the kit), each build compiles its own.
# program_object COMPILE: $@ from $<, compiled by COMPILE or copied.
PROGRAM_HEADERS := $(wildcard $(ROOT)/common/*.h)
program_object = @mkdir -p $(@D); \
    key=$$(printf '%s\n' $(call single_quoted,$1) | cksum | cut -d' ' -f1); \
    kept=$(COMMON_OUT)/programs/$(LAB_NAME)-$$key/$(@F); \
    if [ -f "$$kept" ] && [ -z "$$(find $(filter-out %/built-with,$^) -newer "$$kept" | head -n 1)" ]; then \
        cp "$$kept" $@; \
    else \
        printf '%s\n' $(call single_quoted,$1 -c $< -o $@); \
        $1 -c $< -o $@ && \
        { mkdir -p "$${kept%/*}" 2>/dev/null && cp $@ "$$kept.$$$$" 2>/dev/null && mv -f "$$kept.$$$$" "$$kept" 2>/dev/null; true; }; \
    fi

$(COMMON_OUT)/harness.o: $(ROOT)/common/harness.c $(ROOT)/common/harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -c $< -o $@

ifeq ($(BACKEND),sim)
# ---------------------------------------------------------------- simulator
SIM_DIR := $(ROOT)/common/sim
SIM_SOURCES := $(wildcard $(SIM_DIR)/*.cpp) $(SIM_DIR)/fiber_switch_x86_64.S $(SIM_DIR)/fiber_switch_aarch64.S
SIM_HEADERS := $(wildcard $(SIM_DIR)/*.h $(SIM_DIR)/include/*.h $(SIM_DIR)/include/*/*.h)
SIM_INCLUDES := -I$(SIM_DIR)/include -I$(SIM_DIR) $(INCLUDES)
REWRITE := $(COMMON_OUT)/rewrite_launch

$(REWRITE): $(SIM_DIR)/rewrite_launch.c $(SIM_DIR)/rewrite_launch_main.c $(SIM_DIR)/rewrite_launch.h $(SIM_DIR)/cuda_spellings.h
	@mkdir -p $(@D)
	$(BUILD_CC) $(CFLAGS_COMMON) $(filter %.c,$^) -o $@

# The simulator's own debug information is its line tables alone (-g1,
# after SIM_CXXFLAGS' -g): every lab program links libsim.a, and linking
# its full debug information took 0.5 s a program where 0.2 s do now
# (g++ 12, ld.bfd; the library 12.7 MB then, 2.6 MB now).  Backtraces and
# addr2line still name the simulator's lines; for its variables in a
# debugger, build with SIM_LIB_DEBUG=-g.  (Split DWARF, which keeps all of
# it out of the link, confuses shared_names.cpp's reading of the program's
# variables.)  The lab file's own debug information, which check mode
# reads, is untouched.
SIM_LIB_DEBUG ?= -g1

# What libsim.a was built with: a change of compiler or flags (CXX_SIM,
# SIM_FIBERS, SIM_LIB_DEBUG) rebuilds it, as a change of its sources does.
$(COMMON_OUT)/libsim.flags: always-compare
	$(call record_if_changed,$@,$(CXX_SIM) $(filter-out -Werror,$(SIM_CXXFLAGS)) $(SIM_LIB_DEBUG))

# Its sources are compiled a core each at once (xargs -P): the first build
# of every lab on a new machine waits for it.
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
$(COMMON_OUT)/libsim.a: $(SIM_SOURCES) $(SIM_HEADERS) $(ROOT)/common/check_counters.h $(COMMON_OUT)/libsim.flags
	@mkdir -p $(COMMON_OUT)/sim
	cd $(COMMON_OUT)/sim && printf '%s\n' $(SIM_SOURCES) | xargs -P $(BUILD_JOBS) -n 1 $(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_LIB_DEBUG) -O2 $(SIM_INCLUDES) -c
	ar rcs $@ $(COMMON_OUT)/sim/*.o

# A student's file: launches rewritten (line numbers kept), then g++.
$(OUT)/matmul.sim.cpp: $(LAB_SRC) $(REWRITE)
	@mkdir -p $(@D)
	$(REWRITE) $< $@ $(LAB_SRC)

# nvcc's verdict first, when it is here (NVCC_CHECK, backend.mk): a file a
# GPU build rejects is not built for the simulator either.  The line that
# starts "nvcc-check:" tells the grader whose message follows; and a
# compile of matmul.o that fails after nvcc's succeeded is the simulator's
# failure, not the student's, once nvcc's whole build of the file succeeds
# too (nvcc-full-check.o below, sim/nvcc_accepted.sh).
# Its report of each kernel's registers, and the PTX it keeps (whose
# .maxntid is a kernel's __launch_bounds__), become a table the simulator
# reads at each launch (sim/kernel_resources.h): a block a GPU could not
# hold, or would not launch, is refused, as a GPU refuses it.
# The same numbers answer the occupancy API (sim/occupancy_api.h), by the
# toolkit's own occupancy calculator (CUDA_OCCUPANCY_H, backend.mk): the lab
# file is compiled with SIM_OCCUPANCY_API, and linked with the API's answers.
ifeq ($(NVCC_CHECK),1)
$(OUT)/matmul.o $(OUT)/check/matmul.o: $(OUT)/nvcc-check.cubin
KERNEL_RESOURCES := $(OUT)/kernel_resources.o
ifneq ($(CUDA_OCCUPANCY_H),)
KERNEL_RESOURCES += $(COMMON_OUT)/occupancy_api.o
SIM_OCCUPANCY_DEFS := -DSIM_OCCUPANCY_API
endif
endif
# nvcc's temporaries go to the kept folder too: a build with -keep that
# fails leaves an empty file in TMPDIR, which would collect in /tmp.
# NVCC_CHECKED (the grader's check builds): another build's OUT, where nvcc
# already checked the same file; if that build's settings are these
# (built-with), its verdict and tables are copied, not made again.
LAB_PTX = nvcc-keep/$(basename $(notdir $(LAB_SRC))).ptx
$(OUT)/nvcc-check.cubin: $(LAB_SRC) $(LAB_HEADERS) $(OUT)/built-with
	@rm -rf $(OUT)/nvcc-keep && mkdir -p $(OUT)/nvcc-keep
	@if [ -n "$(NVCC_CHECKED)" ] && [ -f $(NVCC_CHECKED)/nvcc-check.cubin ] && cmp -s $(NVCC_CHECKED)/built-with $(OUT)/built-with && \
	        [ -z "$$(find $< $(LAB_HEADERS) -newer $(NVCC_CHECKED)/nvcc-check.cubin)" ]; then \
	    cp $(NVCC_CHECKED)/nvcc-check.log $(OUT)/ && cp $(NVCC_CHECKED)/$(LAB_PTX) $(OUT)/$(LAB_PTX) && cp $(NVCC_CHECKED)/nvcc-check.cubin $@; \
	else \
	    TMPDIR=$(OUT)/nvcc-keep $(NVCC) $(NVCC_CHECK_FLAGS) --resource-usage -keep -keep-dir $(OUT)/nvcc-keep $(INCLUDES) $(LAB_FILE_DEFS) $< -o $@ \
	        > $(OUT)/nvcc-check.log 2>&1 || \
	        { grep -v '^ptxas info\|^    [0-9]* bytes stack frame' $(OUT)/nvcc-check.log; \
	          echo "nvcc-check: nvcc rejects $<, so a GPU build of it fails too (NVCC_CHECK=0 builds it for the simulator anyway)"; exit 1; }; \
	fi

# nvcc's whole build of the lab file, the host's pass included.  The check
# above compiles the device's side only, which lets through what only the
# host's pass rejects (assert() in a kernel template with no <cassert>):
# asked for only when the simulator's compile failed after that check
# passed, before the failure is called the kit's (sim/nvcc_accepted.sh).
$(OUT)/nvcc-full-check.o: $(LAB_SRC) $(LAB_HEADERS) $(OUT)/built-with
	$(NVCC) $(filter-out -cubin,$(NVCC_CHECK_FLAGS)) -c $(INCLUDES) $(LAB_FILE_DEFS) $< -o $@

$(OUT)/kernel_resources.cpp: $(OUT)/nvcc-check.cubin $(SIM_DIR)/kernel_resources.sh
	sh $(SIM_DIR)/kernel_resources.sh $(OUT)/nvcc-check.log sm_$(or $(ARCH),90) $(OUT)/$(LAB_PTX) > $@

$(OUT)/kernel_resources.o: $(OUT)/kernel_resources.cpp $(SIM_DIR)/kernel_resources.h
	$(CXX_SIM) $(SIM_CXXFLAGS) -I$(SIM_DIR) -c $< -o $@

$(COMMON_OUT)/occupancy_api.o: $(SIM_DIR)/nvcc_checked/occupancy_api.cpp $(SIM_HEADERS) $(CUDA_OCCUPANCY_H) $(COMMON_OUT)/libsim.flags
	$(CXX_SIM) $(SIM_CXXFLAGS) -O2 $(SIM_INCLUDES) -DSIM_OCCUPANCY_API -DSIM_CUDA_OCCUPANCY_H='"$(CUDA_OCCUPANCY_H)"' -c $< -o $@

# Each build of a student's file lists what it included (matmul.d), for the
# grader's check that a submission includes no file of the kit but headers.
# Where nvcc did not check the file first, the object is held to the limits
# a GPU build enforces that the simulator's compiler does not know
# (sim/gpu_build_limits.sh: static shared memory, constant data).
$(OUT)/matmul.o: $(OUT)/matmul.sim.cpp $(SIM_HEADERS) $(LAB_HEADERS) $(OUT)/built-with $(SIM_DIR)/gpu_build_limits.sh
	$(CXX_SIM) $(SIM_CXXFLAGS) $(LAB_SIM_CHECKS) $(SIM_INCLUDES) -iquote $(dir $(LAB_SRC)) $(LAB_FILE_DEFS) $(SIM_OCCUPANCY_DEFS) -MD -MF $(@:.o=.d) -c $< -o $@
	$(if $(filter 1,$(NVCC_CHECK)),,@sh $(SIM_DIR)/gpu_build_limits.sh $@ $(notdir $(LAB_SRC)) || { rm -f $@; exit 1; })

$(OUT)/%.o: $(ROOT)/common/%.cu $(SIM_HEADERS) $(PROGRAM_HEADERS) $(OUT)/built-with
	$(call program_object,$(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_INCLUDES) $(DEFS) -x c++)

# A program around the lab file (run_lab; the grader's lab_exec) is its
# object, the lab file's and the simulator.
SIM_PROGRAM_LINK = $(CXX_SIM) -pthread $^ -o $@
$(OUT)/run_lab: $(OUT)/run_lab.o $(OUT)/matmul.o $(KERNEL_RESOURCES) $(COMMON_OUT)/harness.o $(COMMON_OUT)/libsim.a
	$(SIM_PROGRAM_LINK)

# A file that has a main of its own and none of the harness (the program
# common/occupancy/occupancy_api.sh writes around a lab file), built as a
# lab file is but run as it is.
$(OUT)/own_program.o: $(OUT)/matmul.sim.cpp $(SIM_HEADERS) $(LAB_HEADERS) $(OUT)/built-with
	$(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_INCLUDES) -iquote $(dir $(LAB_SRC)) $(DEFS) $(SIM_OCCUPANCY_DEFS) -c $< -o $@

$(OUT)/own_program: $(OUT)/own_program.o $(KERNEL_RESOURCES) $(COMMON_OUT)/libsim.a
	$(CXX_SIM) -pthread $^ -o $@

# The device's limits (make query); it launches nothing, so no rewriting.
$(COMMON_OUT)/device_query: $(ROOT)/common/device_query.cu $(ROOT)/common/cuda_check.h $(COMMON_OUT)/libsim.a
	$(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_INCLUDES) -x c++ $< -x none $(COMMON_OUT)/libsim.a -pthread -o $@

# Check mode: the lab file alone is built by clang with a hook on every
# load and store (see sim/check_mode.cpp), and on every copy of memory
# (sim/compile_checked.sh); DWARF 4 so addr2line can name the source lines.
$(OUT)/check/matmul.o: $(OUT)/matmul.sim.cpp $(SIM_HEADERS) $(LAB_HEADERS) $(OUT)/built-with $(SIM_DIR)/compile_checked.sh
	@mkdir -p $(@D)
	$(SIM_DIR)/compile_checked.sh $(CHECK_CXX) $(CHECK_CXXFLAGS) $(LAB_CHECK_CHECKS) $(SIM_INCLUDES) -iquote $(dir $(LAB_SRC)) $(LAB_FILE_DEFS) $(SIM_OCCUPANCY_DEFS) -MD -MF $(@:.o=.d) -c $< -o $@

$(OUT)/check/run_lab: $(OUT)/run_lab.o $(OUT)/check/matmul.o $(KERNEL_RESOURCES) $(COMMON_OUT)/harness.o $(COMMON_OUT)/libsim.a
	$(SIM_PROGRAM_LINK)

else
# ---------------------------------------------------------------- GPU
$(OUT)/matmul.o: $(LAB_SRC) $(LAB_HEADERS) $(OUT)/built-with
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $(LAB_FILE_DEFS) -MD -MF $(@:.o=.d) -c $< -o $@

$(OUT)/%.o: $(ROOT)/common/%.cu $(PROGRAM_HEADERS) $(OUT)/built-with
	$(call program_object,$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $(DEFS))

$(OUT)/run_lab: $(OUT)/run_lab.o $(OUT)/matmul.o $(COMMON_OUT)/harness.o
	$(NVCC) $(NVCC_ARCH_FLAGS) $^ -o $@

# The device's limits (make query).
$(COMMON_OUT)/device_query: $(ROOT)/common/device_query.cu $(ROOT)/common/cuda_check.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $< -o $@

# The timing report's programs (common/report/).
$(OUT)/time_lab.o: $(ROOT)/common/report/time_lab.cu $(ROOT)/common/timing.h $(OUT)/built-with
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $(DEFS) -c $< -o $@

$(OUT)/time_lab: $(OUT)/time_lab.o $(OUT)/matmul.o $(COMMON_OUT)/harness.o
	$(NVCC) $(NVCC_ARCH_FLAGS) $^ -o $@

$(COMMON_OUT)/time_cublas: $(ROOT)/common/report/time_cublas.cu $(ROOT)/common/timing.h $(COMMON_OUT)/harness.o
	$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $< $(COMMON_OUT)/harness.o -lcublas -o $@

$(COMMON_OUT)/bandwidth: $(ROOT)/common/report/bandwidth.cu $(ROOT)/common/timing.h
	$(NVCC) $(NVCC_FLAGS) $(INCLUDES) $< -o $@
endif
