# Instructors' targets, included by the top-level Makefile:
#
#   make grade-all SUBMISSIONS=dir [FORCE=1] [JOBS=n] [LAB=NN-name]
#                       grade a class (grader/grade_all.sh): build/grade-all/
#   make grade-slurm SUBMISSIONS=dir [TASKS=n] [CPUS=c] [LAB=NN-name] [WAIT=1]
#                       the same on a Slurm cluster: a job array and a merge
#                       job (grader/slurm/submit.sh)
#   make gradescope     build/gradescope/autograder.zip, Gradescope's autograder
#                       (GRADE_SEED=n bakes a seed in: inputs students never saw;
#                       LAB=NN one stage's, for an assignment per stage:
#                       build/gradescope/autograder-NN-name.zip)
#   make handout        build/handout/labkit-student.tar.gz: the kit without
#                       solutions, answer keys or mutants
#   make grade-prepare  the grader's shared programs for BACKEND (grade_suite,
#                       build/BACKEND/common/*, each stage's lab_exec.o:
#                       grader/prepare_programs.sh), built once before parallel grading
#
# The autograder is made from the files git knows (tracked, or untracked and
# not ignored), so build outputs never get in; the handout from the last
# commit (git archive HEAD), so whatever an instructor has in labs/ now (a
# filled-in kernel, answers) stays out, with a warning when it differs.

GRADE_ALL_OUT ?= $(ROOT)/build/grade-all
GRADESCOPE_OUT := $(ROOT)/build/gradescope
HANDOUT_OUT := $(ROOT)/build/handout
HANDOUT_NAME := labkit-student

.PHONY: grade-all grade-slurm grade-prepare gradescope handout instructor-help
# The archives' recipes use bash (read -d, pipelines of NUL-separated names).
gradescope handout: SHELL := /bin/bash

# Instructors' lines in `make help`, where the answer keys are (not in a
# handout): the top-level help calls this.
instructor-help:
	@echo "For instructors:"
	@echo "make grade-all SUBMISSIONS=dir [LAB=..]    (instructors) grade each subfolder as one student: gradebook.csv, tests.csv [JOBS=n] [FORCE=1]"
	@echo "make grade-slurm SUBMISSIONS=dir TASKS=n   (instructors) grade-all on a Slurm cluster: job array + merge [CPUS=c] [WAIT=1]"
	@echo "make gradescope [LAB=NN] [GRADE_SEED=n]    (instructors) Gradescope autograder: build/gradescope/autograder[-NN-name].zip"
	@echo "make handout                               (instructors) student handout, no solutions or keys: build/handout/"

# Where nvcc checks lab files, the simulator's occupancy API is one of them
# (common/build.mk): built here, since the graded program may not write the kit.
COMMON_PIECES = $(ROOT)/build/$(BACKEND)/common/harness.o \
    $(if $(filter sim,$(BACKEND)),$(ROOT)/build/sim/common/libsim.a $(ROOT)/build/sim/common/rewrite_launch \
        $(if $(and $(filter 1,$(NVCC_CHECK)),$(CUDA_OCCUPANCY_H)),$(ROOT)/build/sim/common/occupancy_api.o))
grade-prepare: $(GRADE_SUITE)
	@$(MAKE) --no-print-directory -f $(ROOT)/common/build.mk BACKEND=$(BACKEND) LAB_SRC=/dev/null LAB_NAME=prepare \
	    OUT=$(ROOT)/build/$(BACKEND)/prepare $(COMMON_PIECES)
	@$(ROOT)/grader/prepare_programs.sh $(BACKEND)

grade-all: deps
	@SUBMISSIONS='$(SUBMISSIONS)' FORCE='$(FORCE)' JOBS='$(JOBS)' LAB='$(LAB)' GRADE_ALL_OUT='$(GRADE_ALL_OUT)' \
	    GRADE_SUITE='$(GRADE_SUITE)' grader/grade_all.sh

# BACKEND only when given: the jobs default to the simulator, not to what
# this (login) machine has.
grade-slurm:
	@SUBMISSIONS='$(SUBMISSIONS)' TASKS='$(TASKS)' CPUS='$(CPUS)' FORCE='$(FORCE)' LAB='$(LAB)' WAIT='$(WAIT)' \
	    GRADE_ALL_OUT='$(GRADE_ALL_OUT)' BACKEND='$(if $(filter command line environment,$(origin BACKEND)),$(BACKEND))' \
	    grader/slurm/submit.sh

# kit_files PATHS...: the files git knows under PATHS, NUL-separated; outside
# a git checkout, every file there but build/.
kit_files = cd $(ROOT) && if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
        git ls-files -z --cached --others --exclude-standard -- $(1); \
    else find $(1) -path build -prune -o -type f -print0; fi

# The kit's revision, stamped into an archive that has no .git, so that
# grades made from it say which kit made them (grader/provenance.sh).
stamp_revision = { git -C $(ROOT) describe --always --dirty --abbrev=12 2>/dev/null || echo unknown; }

# The autograder: setup.sh and run_autograder at the top, then the kit as
# Gradescope unpacks it in /autograder/source (the grader, its keys, common/;
# no labs/, no solutions/).
gradescope:
	@common/deps.sh gradescope
	@set -eo pipefail; lab=; name=autograder; \
	if [ -n "$(LAB)" ]; then \
	    lab=$$(cd grader/suites && ls -d -- '$(LAB)'*.points.tsv 2>/dev/null | sed 's/\.points\.tsv$$//' || true); \
	    [ "$$(echo "$$lab" | wc -w)" = 1 ] || { echo "gradescope: LAB=$(LAB) names no one stage; stages: $$(cd grader/suites && ls *.points.tsv | sed 's/\.points\.tsv$$//' | paste -sd' ')"; exit 2; }; \
	    name=autograder-$$lab; \
	fi; \
	stage=$(GRADESCOPE_OUT)/$$name; rm -rf "$$stage" $(GRADESCOPE_OUT)/$$name.zip; mkdir -p "$$stage"; \
	{ $(call kit_files,Makefile tests.mk common grader); } | \
	    while IFS= read -r -d '' f; do if [ -f "$(ROOT)/$$f" ]; then cp -P -p --parents "$$f" "$$stage/"; fi; done; \
	install -m 755 grader/gradescope/setup.sh grader/gradescope/run_autograder "$$stage/"; \
	$(stamp_revision) > "$$stage/grader/kit_revision"; \
	if [ -n "$(GRADE_SEED)" ]; then echo "$(GRADE_SEED)" > "$$stage/grade_seed"; fi; \
	if [ -n "$$lab" ]; then echo "$$lab" > "$$stage/grade_lab"; fi; \
	{ echo "# Gradescope autograder for the matmul lab kit"; echo; \
	  echo "Made by \`make gradescope\` from the kit. Gradescope unpacks this in /autograder/source, runs"; \
	  echo "setup.sh once (packages, and the grader built for the CPU simulator: Gradescope has no GPU),"; \
	  echo "then run_autograder for each submission: it finds the labs/-shaped folder in the upload,"; \
	  echo "grades it with grader/grade.sh and writes /autograder/results/results.json."; \
	  echo; echo "Settings: an autograder timeout of 10 minutes or more (run_autograder ends its grading by 540 s); one CPU is enough."; \
	  if [ -n "$$lab" ]; then echo; echo "It grades stage $$lab only (grade_lab): students upload its matmul.cu and answers.txt, or the folder $$lab, or labs/."; fi; \
	  if [ -n "$(GRADE_SEED)" ]; then echo; echo "Inputs come from GRADE_SEED in grade_seed (not the seed students grade with)."; fi; \
	} > "$$stage/README.md"; \
	cd "$$stage" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort | zip -q -y ../$$name.zip -@; \
	echo "gradescope: $(GRADESCOPE_OUT)/$$name.zip ($$(find . -type f | wc -l) files$${lab:+; grades $$lab only}$(if $(GRADE_SEED),; inputs from GRADE_SEED=$(GRADE_SEED)))"

# The student handout: no solutions/, no answer keys, no mutants, no
# Gradescope bundle, none of the grader's or the simulator's own tests and
# benchmarks (their kernels are right, or nearly), and no slides (their
# appendices answer the class questions, and they are built from solutions/).  Its points tables have no
# quiz lines: without the keys the quiz is not graded, and its lines would
# only read as failures.
handout:
	@set -eo pipefail; stage=$(HANDOUT_OUT)/$(HANDOUT_NAME); rm -rf "$$stage" $(HANDOUT_OUT)/$(HANDOUT_NAME).tar.gz; mkdir -p "$$stage"; \
	paths="README.md .gitignore Makefile tests.mk common labs grader reports"; \
	if git -C $(ROOT) rev-parse --verify -q HEAD >/dev/null 2>&1; then \
	    changed=$$(git -C $(ROOT) status --porcelain -- $$paths | wc -l); \
	    if [ "$$changed" -gt 0 ]; then \
	        echo "handout: warning: $$changed file(s) differ from the last commit, e.g. $$(git -C $(ROOT) status --porcelain -- $$paths | head -n 1 | cut -c4-);"; \
	        echo "         the handout holds the committed files (commit what students should get)"; \
	    fi; \
	    git -C $(ROOT) archive HEAD -- $$paths | tar -x -C "$$stage"; \
	else \
	    echo "handout: warning: not a git checkout: packing the files as they are here"; \
	    { $(call kit_files,$$paths); } | while IFS= read -r -d '' f; do \
	        if [ -f "$(ROOT)/$$f" ]; then cp -P -p --parents "$$f" "$$stage/"; fi; done; \
	fi; \
	(cd "$$stage" && rm -rf solutions grader/answers grader/mutants grader/gradescope grader/tests grader/slurm \
	    common/sim/bench common/sim/tests common/sim/agreement common/platforms common/sass/tests common/report/tests slides); \
	mv "$$stage/grader/handout/README.md" "$$stage/README.md"; rm -rf "$$stage/grader/handout"; \
	for table in "$$stage"/grader/suites/*.points.tsv; do \
	    { echo "# In the student handout the quiz lines are left out (the answer keys are"; \
	      echo "# not in the handout, so the quiz is graded by your instructor)."; \
	      awk -F'\t' '!/^#/ && $$1 ~ /^quiz / { next } { print }' "$$table"; } > "$$table.new"; \
	    mv "$$table.new" "$$table"; \
	done; \
	$(stamp_revision) > "$$stage/grader/kit_revision"; \
	leaks=$$(cd "$$stage" && find . -path './solutions' -o -path './grader/answers' -o -path './grader/mutants' -o -path './slides' | head -n 3); \
	[ -z "$$leaks" ] || { echo "handout: refusing to pack $$leaks"; exit 1; }; \
	tar -C $(HANDOUT_OUT) --sort=name --owner=0 --group=0 --numeric-owner -czf $(HANDOUT_OUT)/$(HANDOUT_NAME).tar.gz $(HANDOUT_NAME); \
	echo "handout: $(HANDOUT_OUT)/$(HANDOUT_NAME).tar.gz ($$(find "$$stage" -type f | wc -l) files; unpacks into $(HANDOUT_NAME)/)"
