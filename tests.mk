# `make test`: the kit's own tests.  Behaviour only: speed is measured by
# `make bench-sim`, never asserted here.  `make test-quick` (at the end):
# a few minutes' subset for a contributor's loop.
#
#   test-shared-builds  nothing tested: what the phases run side by side
#                  share (the simulator's library, ...), built before them
#   test-harness   the harness (Check), and make run's settings refused when empty
#   test-sim-unit  the CPU simulator and the launch rewriter (Check)
#   test-build-rules  a lab built with other settings is compiled again, and
#                  only then (make's rules, the same with every compiler)
#   test-bench-builds  make bench-sim's program builds (nothing timed)
#   test-grading   solutions score full marks, skeletons score 0 and compile,
#                  a user without root grades with the Check and clang make deps
#                  downloads (as root: the test makes such a user and system),
#                  every mutant (grader/mutants/*.patch) loses the points aimed
#                  at it and none has drifted from its solution, every bad
#                  submission is handled, a class is ranked right, and a
#                  broken kit is a kit error, never a score (grader/tests/)
#   test-slurm     cluster grading through a real single-node Slurm (as root)
#   test-platforms the simulator's tests and the solutions' grade on other
#                  toolchains (as root): Debian testing (gcc 16, clang 21) in a
#                  debootstrap chroot, this machine's clang with the portable
#                  context switch, and aarch64 under qemu; PLATFORMS=all adds
#                  Debian 13's (gcc 14, clang 19, g++ 13, clang 18) and g++ 11,
#                  which README.md's Platforms says why make test leaves out
#   test-occupancy the device query on the simulator, and occupancy worked from its limits
#   test-sass      make sass: the hot-loop summary, and what the stages'
#                  machine code shows (nvcc; nvdisasm is fetched if missing,
#                  from the Debian mirror apt uses: common/debian_mirror.sh)
#   test-nvcc      every lab file and the report's GPU programs compile with nvcc, when it is there;
#                  make occupancy reads a stage's registers from the compiler; the GPU
#                  ledger of where C came from sees every counted call, and counts them right
#   test-report    the report's simulator path end to end, and its counts;
#                  every counter it, the slides or the lessons name is one
#                  common/check_counters.h declares
#   test-lessons   the numbers in the lessons match the committed reports, and
#                  every comparison they state in words (common/report/claims.tsv)
#                  is still there and still supported by them; the tables' reader
#                  (common/report/report_awk.sh) takes columns by name; a GPU report's
#                  bank conflicts (ncu) agree with the simulator's; the figures the kit
#                  draws for the lessons (common/figures/) are what it draws now
#   test-slides    every deck builds to a PDF with its pages (slides/tools/test_slides.sh)

TEST_OUT := $(ROOT)/build/tests

.PHONY: test test-harness test-grading test-nvcc test-report test-quick test-shared-builds
# The student handout leaves the kit's own tests out.
ifeq ($(wildcard $(ROOT)/grader/tests),)
test:
	@echo "make test: the kit's own tests are not in the student handout; grade your work with make grade"
else
# The phases in steps (common/tests/run_phases.sh): a step is a phase, or
# lanes side by side written LANE+LANE, a lane's phases in turn written
# PHASE,PHASE.  Side by side go phases that keep one core busy, which
# build nothing another lane builds (what they share, test-shared-builds
# makes first).  Each phase's length and CPU seconds are said after it
# (where the time goes).  As root, test-platforms's chroots are built from
# the start, beside the other phases (mostly downloads:
# common/platforms/test_platforms.sh --prepare), and test-platforms waits
# for them.  If a phase fails first, the building goes on by itself to its
# end (minutes): stopped halfway, an install would leave dpkg broken, here
# or in a chroot.  TEST_STEPS="test-harness test-sass" runs those alone.
# Early on, the platforms' chroot is being prepared (most of a core for
# a minute or two), so the short phases there run in turn.  Elsewhere too:
# on two cores, test-platforms (then seven rows) beside test-nvcc took
# 1390 s where in turn they took 1308 s (their CPU seconds grew by what
# the idle cores gave).
TEST_STEPS := test-shared-builds test-harness test-sim-unit test-build-rules test-bench-builds \
    test-grading test-occupancy test-sass test-nvcc test-lessons \
    test-report+test-slides,test-slurm \
    test-platforms
TEST_PHASES = $(subst +, ,$(subst $(comma), ,$(TEST_STEPS)))
test: deps
	@prepare=; \
	if [ "$$(id -u)" = 0 ] && [ -n "$(filter test-platforms,$(TEST_PHASES))" ] && command -v setsid >/dev/null; then \
	    mkdir -p $(ROOT)/build/platforms; \
	    setsid common/platforms/test_platforms.sh --prepare > $(ROOT)/build/platforms/prepare.log 2>&1 & prepare=$$!; \
	    echo "make test: the platforms' chroots are prepared meanwhile (build/platforms/prepare.log)"; \
	fi; \
	PREPARE=$$prepare MAKE="$(MAKE)" common/tests/run_phases.sh $(TEST_OUT) $(TEST_STEPS)
	@echo "make test: all passed"
endif

# What phases side by side share, built before them: the simulator's
# library, the launch rewriter, the occupancy API's answers and the harness.
test-shared-builds: sim-unit-runtime
	@$(MAKE) --no-print-directory -s -f common/build.mk BACKEND=sim LAB_SRC=/dev/null $(ROOT)/build/sim/common/harness.o

$(TEST_OUT)/test_harness: common/tests/test_harness.c common/harness.c common/harness.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -D_GNU_SOURCE $(CHECK_CFLAGS) -Icommon common/tests/test_harness.c common/harness.c $(CHECK_LIBS) -lm -o $@

test-harness: $(TEST_OUT)/test_harness
	$(TEST_OUT)/test_harness
	@common/tests/run_settings.sh

# Not in test-sim-unit, which test-platforms runs on every toolchain: make's
# rules are tested once.  Needs libsim.a and the rewriter (test-sim-unit's
# sim-unit-runtime builds them).
.PHONY: test-build-rules
test-build-rules: sim-unit-runtime
	@mkdir -p $(ROOT)/build/sim/tests && sh common/tests/rebuilds_on_settings.sh $(ROOT)/build/sim/tests

# The quiz's rules on their own: values, not wording (grader/quiz_answer.h).
$(TEST_OUT)/test_quiz_answer: grader/tests/test_quiz_answer.c grader/quiz_answer.c grader/quiz_answer.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(CHECK_CFLAGS) -Igrader grader/tests/test_quiz_answer.c grader/quiz_answer.c $(CHECK_LIBS) -lm -o $@

.PHONY: test-quiz
test-quiz: $(TEST_OUT)/test_quiz_answer
	$(TEST_OUT)/test_quiz_answer

# The grader's own tests, each a phase of its own (test-grading-NAME), in
# three steps (common/tests/run_phases.sh), each one's length and CPU
# seconds said after it.  Much of their time is waiting: a hanging
# kernel's time limit, a Slurm task's, a grade stopped past its limit.  So
# bad_kernels, which waits most, runs beside grade_stages, and the light
# tests, most of them a hang waited for, beside the Gradescope bundle and
# the mutants: in a fresh clone's make test on two cores, test-grading took
# 929 s (1803 s of CPU) where in turn it took 1055 s (1718 s of CPU).  Each
# lane writes folders of its own (build/test-grading/NAME, and the bundle's
# and the handout's under build/).  A run's time limit stretches while its
# blocks keep finishing, as on any busy machine (grader/student_run.h), but
# two caps do not: slow_machine's (a run at most 8 times its limit) runs in
# a step alone, and slurm_scripts gives each student 60 s.
GRADING_LANE_HEAVY := gradescope_bundle handout mutants_drift mutants
GRADING_LANE_LIGHT := quiz grade_all submission_shapes class_ranking kit_error no_root slurm_scripts
one_space := $(nothing) $(nothing)
grading_lane = $(subst $(one_space),$(comma),$(addprefix test-grading-,$(strip $(1))))
GRADING_STEPS := test-grading-grade_stages+test-grading-bad_kernels test-grading-slow_machine \
    $(call grading_lane,$(GRADING_LANE_HEAVY))+$(call grading_lane,$(GRADING_LANE_LIGHT))
test-grading: $(GRADE_SUITE) test-quiz
	@PREPARE= MAKE="$(MAKE)" common/tests/run_phases.sh $(TEST_OUT)/grading $(GRADING_STEPS)
	@rm -rf $(ROOT)/build/test-grading && echo "test-grading: all passed; its scratch (build/test-grading) removed"

# One of them: make test-grading-mutants runs grader/tests/mutants.sh.
test-grading-%: $(GRADE_SUITE)
	@echo "BACKEND=sim grader/tests/$*.sh"
	@BACKEND=sim grader/tests/$*.sh

# The device query on the simulator, and occupancy worked out from its
# limits: lesson 04's example, two registers more per thread (40 -> 42) for
# 256-thread blocks costing a sixth of the warps (48 -> 40); and, where the
# toolkit is, the same working against CUDA's own occupancy calculator for
# many blocks, and a kernel's declared block size and dynamic shared memory
# read from its PTX.
.PHONY: test-occupancy
test-occupancy:
	@$(MAKE) --no-print-directory -s -f common/build.mk BACKEND=sim LAB_SRC=/dev/null LAB_NAME=query \
	    $(ROOT)/build/sim/common/device_query
	@mkdir -p $(TEST_OUT) && $(ROOT)/build/sim/common/device_query --tsv > $(TEST_OUT)/device_limits.tsv
	@grep -qx 'maxThreadsPerMultiProcessor	2048' $(TEST_OUT)/device_limits.tsv && \
	    grep -qx 'regsPerMultiprocessor	65536' $(TEST_OUT)/device_limits.tsv || \
	    { echo "test-occupancy: the simulator's device query lacks its limits:"; cat $(TEST_OUT)/device_limits.tsv; exit 1; }
	@common/occupancy/occupancy.sh --compute 256 40 0 $(TEST_OUT)/device_limits.tsv | grep -q '=> 6 blocks per SM (registers), 48 of 64 warps' && \
	    common/occupancy/occupancy.sh --compute 256 42 0 $(TEST_OUT)/device_limits.tsv | grep -q '=> 5 blocks per SM (registers), 40 of 64 warps' && \
	    common/occupancy/occupancy.sh --compute 1024 32 8192 $(TEST_OUT)/device_limits.tsv | grep -q '=> 2 blocks per SM (threads and registers), 64 of 64 warps' && \
	    common/occupancy/occupancy.sh --compute 128 64 49152 $(TEST_OUT)/device_limits.tsv | grep -q '=> 4 blocks per SM (shared memory), 16 of 64 warps' || \
	    { echo "test-occupancy: a worked example came out wrong"; exit 1; }
	@echo "test-occupancy: the device query and the worked examples agree"
	@if [ -n "$(CUDA_OCCUPANCY_H)" ]; then \
	    common/occupancy/tests/calculator_agrees.sh $(CUDA_OCCUPANCY_H) $(TEST_OUT)/device_limits.tsv $(TEST_OUT)/occupancy-calculator && \
	    common/occupancy/tests/declared_launch.sh $(TEST_OUT)/device_limits.tsv $(TEST_OUT)/declared-launch; \
	else echo "test-occupancy: no CUDA toolkit here, so its occupancy calculator is not compared with occupancy.sh"; fi

# nvdisasm for make sass and the report's machine-code table, when the
# toolkit has nvcc but no disassembler (common/sass/fetch_nvdisasm.sh).
.PHONY: sass-tools
sass-tools:
	@[ -z "$(NVCC)" ] || { common/sass/disassemble.sh /dev/null > /dev/null 2>&1; [ $$? != 3 ] || common/sass/fetch_nvdisasm.sh; }

# make sass: common/sass/tests/test_sass.sh says what it checks.
.PHONY: test-sass
test-sass:
	@common/tests/debian_mirror.sh
	@common/sass/tests/test_sass.sh

# Other toolchains: common/platforms/test_platforms.sh says what and how.
.PHONY: test-platforms
test-platforms:
	@common/platforms/test_platforms.sh

# Cluster grading through a real single-node Slurm started for the test:
# as root it installs Slurm's daemons and munge (common/deps.sh slurm) and
# runs them for the test's length; otherwise it is skipped.
.PHONY: test-slurm
test-slurm: $(GRADE_SUITE)
	grader/tests/slurm.sh

# No GPU needed to compile: this keeps the GPU path honest on any machine.
test-nvcc:
ifeq ($(NVCC),)
	@echo "test-nvcc: no nvcc here; skipped"
else
	@mkdir -p $(TEST_OUT)/nvcc && rm -f $(TEST_OUT)/nvcc/tune.status
	@# The objects every GPU program links, built first: the tuner below and
	@# nvcc_builds.sh would otherwise both write harness.o at once, and
	@# nvlink then finds a torn object ("Could not find fatbin").
	@$(MAKE) --no-print-directory -f grader/lab_exec.mk BACKEND=gpu ARCH=90 LAB_SRC=/dev/null \
	    $(ROOT)/build/gpu/common/harness.o $(ROOT)/build/gpu/common/gpu_ledger.o > /dev/null
	@# Stage 08's shape tuner is one compile of many kernels (most of a
	@# minute on one core): begun now, beside the files nvcc builds two at
	@# a time, it leaves no core idle at the end; its verdict is read below.
	@{ $(MAKE) --no-print-directory -C solutions/08-warp-tiling tune-build BACKEND=gpu ARCH=90 > $(TEST_OUT)/nvcc/tune.log 2>&1; \
	    echo $$? > $(TEST_OUT)/nvcc/tune.status; } &
	@grader/tests/nvcc_builds.sh $(TEST_OUT)/nvcc
	@NVCC=$(NVCC) grader/tests/ledger_wraps.sh $(TEST_OUT)/nvcc
	@echo "nvcc: what the GPU ledger counts (grader/tests/test_gpu_ledger.cpp)"
	@NVCC=$(NVCC) CHECK_INCLUDES='$(filter -I%,$(CHECK_CFLAGS))' CHECK_LIBS='$(CHECK_LIBS)' \
	    grader/tests/gpu_ledger.sh $(TEST_OUT)/gpu_ledger
	@echo "nvcc: the smaller GPU the small-device test makes of a real one (grader/tests/test_gpu_device_offer.cpp)"
	@NVCC=$(NVCC) CHECK_INCLUDES='$(filter -I%,$(CHECK_CFLAGS))' CHECK_LIBS='$(CHECK_LIBS)' \
	    grader/tests/gpu_device_offer.sh $(TEST_OUT)/gpu_device_offer
	@echo "nvcc: the timing report's programs"
	@$(MAKE) --no-print-directory -f common/build.mk BACKEND=gpu ARCH=90 LAB_SRC=$(ROOT)/solutions/04-tiled/matmul.cu \
	    OUT=$(TEST_OUT)/nvcc/report $(TEST_OUT)/nvcc/report/time_lab $(ROOT)/build/gpu/common/time_cublas \
	    $(ROOT)/build/gpu/common/bandwidth > $(TEST_OUT)/nvcc.log 2>&1 || { cat $(TEST_OUT)/nvcc.log; exit 1; }
	@$(NVCC) -arch=sm_90 -o $(TEST_OUT)/nvcc/launch_limits common/gpu/launch_limits.cu
	@echo "nvcc: the device query, and make occupancy on stage 04's solution (its working, and the occupancy API's answer on the simulator)"
	@$(NVCC) -arch=sm_90 -Icommon -o $(TEST_OUT)/nvcc/device_query common/device_query.cu
	@$(MAKE) --no-print-directory -C solutions/04-tiled occupancy BACKEND=sim > $(TEST_OUT)/occupancy.log 2>&1 && \
	    grep -q '^kernel matmul_tiled_kernel.*: [0-9]* registers per thread' $(TEST_OUT)/occupancy.log && \
	    grep -q '=> [0-9]* blocks per SM' $(TEST_OUT)/occupancy.log && \
	    grep -q '^  kernel matmul_tiled_kernel: [0-9]* registers, 8192 bytes of static shared memory, 2 blocks per SM: the same as worked out above' \
	        $(TEST_OUT)/occupancy.log || { cat $(TEST_OUT)/occupancy.log; exit 1; }
	@echo "nvcc: the occupancy API's program for every stage's solution: built for a GPU, and run on the simulator"
	@common/occupancy/tests/api_every_solution.sh $(TEST_OUT)/nvcc
	@echo "nvcc: stage 08's shape tuner, and its experiments still apply to the solution"
	@waited=0; while [ ! -s $(TEST_OUT)/nvcc/tune.status ] && [ $$waited -lt 900 ]; do sleep 1; waited=$$((waited + 1)); done; \
	    [ "$$(cat $(TEST_OUT)/nvcc/tune.status 2>/dev/null)" = 0 ] || \
	    { cat $(TEST_OUT)/nvcc/tune.log; echo "nvcc: stage 08's shape tuner did not build (after $$waited s)"; exit 1; }
	@for p in solutions/08-warp-tiling/experiments/*.patch; do \
	    patch --dry-run --quiet --fuzz=0 -o /dev/null solutions/08-warp-tiling/matmul.cu < $$p > /dev/null || \
	        { echo "nvcc: $$p no longer applies to solutions/08-warp-tiling/matmul.cu"; exit 1; }; done
	@echo "nvcc: stages 09 and 10's shape tuner still finds the lines it changes, and their experiments still apply"
	@common/report/tune_shapes.sh 09-tensor-cores --sources
	@common/report/tune_shapes.sh 10-mma-sync --sources
endif

# The report without a GPU: the simulator's counts, a table, figures if
# gnuplot is there.  Tiled loads per element must be 2n/TILE: 4 at n=64
# (8 for the TILE = 16 variant); the unpadded variant of stage 05 stores
# with a 32-way conflict: 31 extra wavefronts x 32 warps x 2 phases x 4 blocks,
# and make check's picture of it says so (the padded store's: none); the
# hazard pictures name the barrier that is missing on their red line: a
# block's for stage 04, a warp's (or a block's) for stage 02's one warp.
test-report: sass-tools
	@common/report/check_counter_names.sh
	@rm -rf $(TEST_OUT)/report; mkdir -p $(TEST_OUT)
	@common/deps.sh locales
	@locale_env=$$(common/tests/comma_locale.sh $(TEST_OUT)/locale); \
	    echo "test-report: the simulator's report$${locale_env:+ under $${locale_env##*=}, a locale that writes 1,5 (its numbers must still read 1.5)}"; \
	    env $$locale_env SIZES=64 common/report/report.sh sim $(TEST_OUT)/report 2> $(TEST_OUT)/report.log && \
	    env $$locale_env common/report/plot.sh $(TEST_OUT)/report >> $(TEST_OUT)/report.log
	@grep -q '^| 04-tiled | 64 | 4\.0 | 4 | 4\.00 |' $(TEST_OUT)/report/report.md && \
	    grep -q '^| 01-naive | 64 | 128\.0 | 128 | 2\.00 |' $(TEST_OUT)/report/report.md && \
	    grep -q '^| 04-tiled+tile16 | 64 | 8\.0 | 8 |' $(TEST_OUT)/report/report.md && \
	    grep -q '^| 05-padding+unpadded | 64 | .* | 0/7936 | 0 |$$' $(TEST_OUT)/report/report.md && \
	    grep -q 'shared store of 4 bytes per lane: 32-way bank conflict' $(TEST_OUT)/report/access-05-padding+unpadded.svg && \
	    grep -q 'shared store of 4 bytes per lane: no bank conflict' $(TEST_OUT)/report/access-05-padding.svg && \
	    grep -q 'read-after-write hazard, block .*: a barrier is missing after matmul.cu:' $(TEST_OUT)/report/hazard-04-tiled+no-first-barrier.svg && \
	    grep -q '>missing: __syncthreads() after matmul.cu:' $(TEST_OUT)/report/hazard-04-tiled+no-first-barrier.svg && \
	    grep -q 'write-after-read hazard' $(TEST_OUT)/report/hazard-04-tiled+no-second-barrier.svg && \
	    grep -q 'read-after-write hazard' $(TEST_OUT)/report/hazard-02-shared-2x2+no-barrier.svg && \
	    grep -qF '>missing: __syncwarp() (or __syncthreads()) after matmul.cu:' $(TEST_OUT)/report/hazard-02-shared-2x2+no-barrier.svg || \
	    { echo "test-report: unexpected counts in $(TEST_OUT)/report/report.md"; exit 1; }
	@[ -z "$(NVCC)" ] || { grep -q '^| 04-tiled | `matmul_tiled_kernel` | [0-9-]* | [0-9]* | [0-9]* | [0-9]* (16x' $(TEST_OUT)/report/report.md && \
	    grep -q '^| 05-padding+unpadded | `matmul_padded_kernel` | [0-9-]* | [0-9]* | [0-9]* | [0-9]* (4x[0-9]*) |' $(TEST_OUT)/report/report.md; } || \
	    { echo "test-report: the machine-code table lacks 04's 16-byte or 05's 4-byte shared loads:"; \
	      grep -A12 'hot loop in machine code' $(TEST_OUT)/report/report.md; cat $(TEST_OUT)/report/sass-*.log 2>/dev/null; exit 1; }
	@echo "test-report: the simulator's report counts as expected"

# Absent from the student handout, which leaves the simulator's tests out.
-include common/sim/tests/sim_tests.mk

# ---------------------------------------------------------------- timing report
REPORT_OUT ?= $(ROOT)/build/report
.PHONY: report
report:
	@common/deps.sh plots
	@common/report/report.sh $(BACKEND) $(REPORT_OUT) $(if $(filter-out $(ROOT)/labs,$(SUBMISSION)),$(SUBMISSION))
	@if command -v gnuplot >/dev/null; then common/report/plot.sh $(REPORT_OUT); \
	else echo "report: no gnuplot here; run common/report/plot.sh $(REPORT_OUT) where it is installed"; fi

# The lessons' measured numbers come from the reports committed under
# reports/; this rewrites them (after a new report is committed there), and
# redraws the figures the kit makes from the solutions (common/figures/).
.PHONY: lessons test-lessons
lessons:
	@common/report/fill_lessons.sh
	@common/figures/make_figures.sh

test-lessons:
	@common/deps.sh locales
	@env $$(common/tests/comma_locale.sh $(TEST_OUT)/locale) common/report/fill_lessons.sh --check && \
	    echo "test-lessons: every lesson matches reports/ (read under a locale that writes 1,5 where one can be built)"
	@common/report/tests/claims.sh && echo "test-lessons: every claim of common/report/claims.tsv is in its lesson and the reports support it"
	@mkdir -p $(TEST_OUT) && common/report/tests/report_awk.sh > $(TEST_OUT)/report_awk.log || { cat $(TEST_OUT)/report_awk.log; exit 1; }
	@echo "test-lessons: the report's tables are read by column name, and the counts derived one way (common/report/report_awk.sh)"
	@common/report/tests/conflicts_agree.sh
	@common/figures/make_figures.sh --check && echo "test-lessons: every figure the kit draws for the lessons is what its generator draws now"

# ---------------------------------------------------------------- benchmark
BENCH_OUT := $(ROOT)/build/sim/bench
.PHONY: bench-sim
# The benchmark is a program with its own main, built as a lab file is
# (own_program.o: a lab file's build renames its main), without nvcc's
# check, which it has no use for.
.PHONY: bench-sim-program test-bench-builds
bench-sim-program:
	@$(MAKE) --no-print-directory -s -f common/build.mk BACKEND=sim NVCC_CHECK=0 LAB_SRC=$(ROOT)/common/sim/bench/bench_sim.cu \
	    LAB_NAME=bench OUT=$(BENCH_OUT) $(BENCH_OUT)/own_program.o $(ROOT)/build/sim/common/harness.o $(ROOT)/build/sim/common/libsim.a
	@$(CXX_SIM) -pthread $(BENCH_OUT)/own_program.o $(ROOT)/build/sim/common/harness.o $(ROOT)/build/sim/common/libsim.a -o $(BENCH_OUT)/bench_sim

# make test builds the benchmark (it once stopped linking unseen) but does
# not time anything: speed is bench-sim's to show.
test-bench-builds: bench-sim-program
	@echo "test-bench-builds: make bench-sim's program builds"

bench-sim: deps bench-sim-program
	@echo "CPU simulator, $$(nproc) cores ($$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))" | tee $(BENCH_OUT)/bench.txt
	@SIM_THREADS=1 $(BENCH_OUT)/bench_sim | tee -a $(BENCH_OUT)/bench.txt
	@$(BENCH_OUT)/bench_sim | tee -a $(BENCH_OUT)/bench.txt
	@sh common/sim/bench/bench_check.sh | tee -a $(BENCH_OUT)/bench.txt

# ---------------------------------------------------------------- slides
.PHONY: test-slides
test-slides:
	@common/deps.sh slides
	@slides/tools/test_slides.sh

# ---------------------------------------------------------------- quick loop
# make test-quick: a contributor's loop of a few minutes, before make test:
# the harness, the simulator's unit tests, the quiz's rules, the lessons
# against the committed reports, submission shapes, and stage 04 whole:
# its solution graded in full marks and every one of its mutants killed.
# make test runs all of it again, with everything else.
.PHONY: test-quick
test-quick: deps $(GRADE_SUITE)
	@[ -d grader/tests ] || { echo "make test-quick: the kit's own tests are not in the student handout; grade your work with make grade"; exit 0; }; \
	start=$$(date +%s); \
	for phase in test-harness test-sim-unit test-quiz test-lessons; do \
	    $(MAKE) --no-print-directory $$phase || exit 1; \
	done; \
	BACKEND=sim grader/tests/quiz.sh && BACKEND=sim grader/tests/submission_shapes.sh && \
	BACKEND=sim grader/tests/mutants.sh 04-tiled || exit 1; \
	full=$$(bash -c '. grader/lib.sh && score max "$$(points_table 04-tiled)"'); \
	$(MAKE) --no-print-directory grade SUBMISSION=$(ROOT)/solutions LAB=04-tiled BACKEND=sim \
	    GRADE_OUT=$(ROOT)/build/test-quick > $(TEST_OUT)/quick-grade.log 2>&1; \
	grep -qx "Score: $$full/$$full" $(TEST_OUT)/quick-grade.log || \
	    { tail -n 20 $(TEST_OUT)/quick-grade.log; echo "test-quick: stage 04's solution did not score $$full/$$full"; exit 1; }; \
	echo "test-quick: stage 04's solution scores $$full/$$full"; \
	echo "make test-quick: all passed in $$(( $$(date +%s) - start ))s (make test runs the rest)"
