# Builds the grader's own program.  It holds the Check suites and never any
# student code, so it is built once, whatever the submission.
GRADER_OUT := $(ROOT)/build/grader
GRADE_SUITE := $(GRADER_OUT)/grade_suite
GRADER_SOURCES := $(wildcard $(ROOT)/grader/*.c) $(wildcard $(ROOT)/grader/suites/*.c) $(ROOT)/common/harness.c
GRADER_HEADERS := $(wildcard $(ROOT)/grader/*.h) $(ROOT)/common/harness.h

$(GRADE_SUITE): $(GRADER_SOURCES) $(GRADER_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -DGRADER_DIR='"$(ROOT)/grader"' $(CHECK_CFLAGS) -I$(ROOT)/common -I$(ROOT)/grader $(GRADER_SOURCES) $(CHECK_LIBS) -lm -o $@
