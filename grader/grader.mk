# Builds the grader's own program.  It holds the Check suites and never any
# student code, so it is built once, whatever the submission.
GRADER_OUT := $(ROOT)/build/grader
GRADE_SUITE := $(GRADER_OUT)/grade_suite
GRADER_SOURCES := $(wildcard $(ROOT)/grader/*.c) $(wildcard $(ROOT)/grader/suites/*.c) $(ROOT)/common/harness.c
GRADER_HEADERS := $(wildcard $(ROOT)/grader/*.h) $(ROOT)/common/harness.h $(ROOT)/common/nan_patterns.h
# The points tables (one per stage, beside its suite) and the answer keys
# decide which tests exist: a change to either checks them again.
POINTS_TABLES := $(sort $(wildcard $(ROOT)/grader/suites/*.points.tsv))
GRADER_TABLES := $(POINTS_TABLES) $(ROOT)/grader/score.awk $(wildcard $(ROOT)/grader/answers/*.tsv)

$(GRADE_SUITE): $(GRADER_SOURCES) $(GRADER_HEADERS) $(GRADER_TABLES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -DGRADER_DIR='"$(ROOT)/grader"' $(CHECK_CFLAGS) -I$(ROOT)/common -I$(ROOT)/grader $(GRADER_SOURCES) $(CHECK_LIBS) -lm -o $@.new
	@# Every test the suites declare has a row in its stage's points table,
	@# and every row a test: otherwise the grader is not built (a test without
	@# points would be dropped from the score without a word).
	@GRADE_ANSWER_KEYS= $@.new --list > $@.tests && \
	if ! awk -F'\t' -v mode=agree -f $(ROOT)/grader/score.awk $(POINTS_TABLES) $@.tests > $@.disagree; then \
	    echo "grader: the suites and their points tables (grader/suites/*.points.tsv) disagree:"; \
	    sed 's/^/  /' $@.disagree; rm -f $@.new; exit 1; fi
	@mv $@.new $@
