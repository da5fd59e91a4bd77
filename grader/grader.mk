# Builds the grader's own program.  It holds the Check suites and never any
# student code, so it is built once, whatever the submission.
GRADER_OUT := $(ROOT)/build/grader
GRADE_SUITE := $(GRADER_OUT)/grade_suite
GRADER_SOURCES := $(wildcard $(ROOT)/grader/*.c) $(wildcard $(ROOT)/grader/suites/*.c) $(ROOT)/common/harness.c
GRADER_HEADERS := $(wildcard $(ROOT)/grader/*.h) $(ROOT)/common/harness.h $(ROOT)/common/nan_patterns.h
# The points table and the answer keys decide which tests exist: a change
# to either checks them again.
GRADER_TABLES := $(ROOT)/grader/points.tsv $(wildcard $(ROOT)/grader/answers/*.tsv)

$(GRADE_SUITE): $(GRADER_SOURCES) $(GRADER_HEADERS) $(GRADER_TABLES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -DGRADER_DIR='"$(ROOT)/grader"' $(CHECK_CFLAGS) -I$(ROOT)/common -I$(ROOT)/grader $(GRADER_SOURCES) $(CHECK_LIBS) -lm -o $@.new
	@# Every test the suites declare has a row in the points table, and every
	@# row a test: otherwise the grader is not built (a test without points
	@# would be dropped from the score without a word).
	@GRADE_ANSWER_KEYS= $@.new --list | LC_ALL=C sort > $@.tests && \
	awk -F'\t' '!/^#/ && NF >= 3 { print $$1 "\t" $$2 }' $(ROOT)/grader/points.tsv | LC_ALL=C sort > $@.points && \
	if ! cmp -s $@.tests $@.points; then \
	    echo "grader: the suites and grader/points.tsv disagree (< a test with no points, > points for no test):"; \
	    diff $@.tests $@.points | grep '^[<>]'; rm -f $@.new; exit 1; fi
	@mv $@.new $@
