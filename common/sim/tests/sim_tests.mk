# `make test-sim-unit`: the CPU simulator's unit tests and the launch
# rewriter's tests.  Included by the top-level Makefile (via tests.mk), which
# defines ROOT, CC, CXX_SIM, SIM_CXXFLAGS, CFLAGS_COMMON, CHECK_CFLAGS and
# CHECK_LIBS (and, from common/backend.mk, CHECK_CXX and CHECK_CXXFLAGS).
# Everything it builds goes under build/sim/tests/; the shared libsim.a and
# rewrite_launch come from common/build.mk, as for a lab.
#
#   test_rewrite_launch      the rewriter, case by case (Check)
#   rewrite_compiles.sh      the rewriter end to end: its output compiles
#   test_simulator           launches, barriers, memory, faults (Check; its
#                            parts are simulator/*.cu)
#   test_check_mode          check mode's counts and findings (Check; its
#                            parts are check_mode/*.cu, built
#                            like a lab's check variant: clang++ with
#                            $(CHECK_CXXFLAGS), i.e. -DLAB_CHECK_MODE and the
#                            load/store hooks)
#   names_not_simulated.sh   the check that calls a failed build the kit's
#                            limit, on compiler messages of both compilers
#
# All five run even if one fails; the target fails if any did.  That a lab
# built with other settings is compiled again (common/tests/
# rebuilds_on_settings.sh) is make's logic, the same with any compiler: it
# runs once, in test-build-rules (tests.mk), not on every toolchain
# test-platforms tries.

SIM_UNIT_DIR := $(ROOT)/common/sim
SIM_UNIT_OUT := $(ROOT)/build/sim/tests
SIM_UNIT_COMMON := $(ROOT)/build/sim/common
SIM_UNIT_LIB := $(SIM_UNIT_COMMON)/libsim.a
SIM_UNIT_REWRITE := $(SIM_UNIT_COMMON)/rewrite_launch
SIM_UNIT_HEADERS := $(wildcard $(SIM_UNIT_DIR)/*.h $(SIM_UNIT_DIR)/include/*.h $(SIM_UNIT_DIR)/include/*/*.h) $(ROOT)/common/sim/tests/stderr_capture.h $(ROOT)/common/sim/tests/suite_support.h
SIM_UNIT_INCLUDES := -I$(SIM_UNIT_DIR)/include -I$(SIM_UNIT_DIR) -I$(ROOT)/common -iquote $(ROOT)/common/sim/tests
# Where the toolkit's occupancy calculator is (backend.mk), the simulator's
# occupancy API is tested too.
SIM_UNIT_OCCUPANCY := $(if $(CUDA_OCCUPANCY_H),$(SIM_UNIT_COMMON)/occupancy_api.o)
SIM_UNIT_OCCUPANCY_DEFS := $(if $(CUDA_OCCUPANCY_H),-DSIM_OCCUPANCY_API)

.PHONY: test-sim-unit sim-unit-runtime

# libsim.a and the rewriter, through build.mk's own rules (its lab build
# itself is not needed).  Phony, so build.mk always decides what is stale.
sim-unit-runtime:
	@$(MAKE) --no-print-directory -f $(ROOT)/common/build.mk BACKEND=sim \
	    LAB_SRC=$(ROOT)/solutions/01-naive/matmul.cu OUT=$(ROOT)/build/sim/solutions/01-naive \
	    $(SIM_UNIT_LIB) $(SIM_UNIT_REWRITE) $(SIM_UNIT_OCCUPANCY)

# The test programs are CUDA, one part per file of simulator/ and
# check_mode/: each part's launches are rewritten as a lab's are, into
# build/ (so each compile names the part's own folder for its header).
# The rewriter's sources are prerequisites so that a changed rewriter
# (rebuilt by sim-unit-runtime, which runs first) rewrites the parts again.
SIM_UNIT_REWRITER_SOURCES := $(SIM_UNIT_DIR)/rewrite_launch.c $(SIM_UNIT_DIR)/rewrite_launch_main.c \
    $(SIM_UNIT_DIR)/rewrite_launch.h $(SIM_UNIT_DIR)/cuda_spellings.h
SIM_UNIT_PART_HEADERS := $(SIM_UNIT_HEADERS) $(wildcard $(SIM_UNIT_DIR)/tests/*/*.h)
SIM_UNIT_SIMULATOR_PARTS := $(patsubst $(SIM_UNIT_DIR)/tests/%.cu,$(SIM_UNIT_OUT)/%.o,$(wildcard $(SIM_UNIT_DIR)/tests/simulator/*.cu))
SIM_UNIT_CHECK_MODE_PARTS := $(patsubst $(SIM_UNIT_DIR)/tests/%.cu,$(SIM_UNIT_OUT)/%.o,$(wildcard $(SIM_UNIT_DIR)/tests/check_mode/*.cu))

# Kept (not deleted as make's intermediate files): what the compiler and a
# debugger saw.
.PRECIOUS: $(SIM_UNIT_OUT)/%.cpp
$(SIM_UNIT_OUT)/%.cpp: $(SIM_UNIT_DIR)/tests/%.cu $(SIM_UNIT_REWRITER_SOURCES) | sim-unit-runtime
	@mkdir -p $(@D)
	$(SIM_UNIT_REWRITE) $< $@ $<

# test_simulator's parts: compiled as a lab's fast build is.
$(SIM_UNIT_OUT)/simulator/%.o: $(SIM_UNIT_OUT)/simulator/%.cpp $(SIM_UNIT_PART_HEADERS)
	$(CXX_SIM) $(SIM_CXXFLAGS) $(SIM_STACK_PROBES) $(SIM_UNIT_INCLUDES) $(SIM_UNIT_OCCUPANCY_DEFS) -iquote $(SIM_UNIT_DIR)/tests/simulator $(CHECK_CFLAGS) -c $< -o $@

# test_check_mode's parts: compiled as a lab's check build is (common/
# build.mk's $(OUT)/check/matmul.o).
$(SIM_UNIT_OUT)/check_mode/%.o: $(SIM_UNIT_OUT)/check_mode/%.cpp $(SIM_UNIT_PART_HEADERS) $(SIM_UNIT_DIR)/compile_checked.sh
	$(SIM_UNIT_DIR)/compile_checked.sh $(CHECK_CXX) $(CHECK_CXXFLAGS) $(SIM_UNIT_INCLUDES) -iquote $(SIM_UNIT_DIR)/tests/check_mode $(CHECK_CFLAGS) -c $< -o $@

$(SIM_UNIT_OUT)/test_rewrite_launch: $(SIM_UNIT_DIR)/tests/test_rewrite_launch.c $(SIM_UNIT_DIR)/rewrite_launch.c \
        $(SIM_UNIT_DIR)/rewrite_launch.h $(SIM_UNIT_DIR)/cuda_spellings.h
	@mkdir -p $(@D)
	$(CC) -O2 -I$(SIM_UNIT_DIR) $(filter %.c,$^) $(CHECK_CFLAGS) $(CHECK_LIBS) -o $@

# The test programs' compilations run side by side (a core each), after the
# runtime they need.
SIM_UNIT_OBJECTS := $(SIM_UNIT_SIMULATOR_PARTS) $(SIM_UNIT_OUT)/test_rewrite_launch $(SIM_UNIT_CHECK_MODE_PARTS)
.PHONY: sim-unit-objects
sim-unit-objects: sim-unit-runtime
	@$(MAKE) -s --no-print-directory -j$$(nproc 2>/dev/null || echo 1) -o sim-unit-runtime $(SIM_UNIT_OBJECTS)

# Linked every time (it is quick), so a rebuilt libsim.a is always the one
# tested.
test-sim-unit: sim-unit-objects
	$(CXX_SIM) -pthread $(SIM_UNIT_SIMULATOR_PARTS) $(SIM_UNIT_OCCUPANCY) $(SIM_UNIT_LIB) $(CHECK_LIBS) -o $(SIM_UNIT_OUT)/test_simulator
	$(CXX_SIM) -pthread $(SIM_UNIT_CHECK_MODE_PARTS) $(SIM_UNIT_LIB) $(CHECK_LIBS) -o $(SIM_UNIT_OUT)/test_check_mode
	@cd $(ROOT) || exit 1; status=0; \
	echo "== test_rewrite_launch"; $(SIM_UNIT_OUT)/test_rewrite_launch || status=1; \
	echo "== rewrite_compiles.sh"; CC="$(CC)" CXX_SIM="$(CXX_SIM)" sh common/sim/tests/rewrite_compiles.sh $(SIM_UNIT_OUT) || status=1; \
	echo "== test_simulator"; $(SIM_UNIT_OUT)/test_simulator || status=1; \
	echo "== test_check_mode"; $(SIM_UNIT_OUT)/test_check_mode || status=1; \
	echo "== names_not_simulated.sh"; bash common/sim/tests/names_not_simulated.sh $(SIM_UNIT_OUT) || status=1; \
	if [ $$status -ne 0 ]; then echo "test-sim-unit: FAILED" >&2; exit 1; fi; \
	echo "test-sim-unit: all passed"
