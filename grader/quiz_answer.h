/* One quiz question and the judging of a student's answer to it: the
 * value is graded, not the wording.  Pure functions (no Check, no files),
 * so the rules are tested on their own (grader/tests/test_quiz_answer.c).
 *
 * An answer key line (grader/answers/<stage>.tsv), tab-separated:
 *
 *   Q3  number  8192     bytes  Re-read "Counting the traffic": ...
 *   Q5  number  1.125~1% -      Re-read ...          (a tolerance: ~1% of the value)
 *   Q4  choice  b        abcd   Re-read "What each barrier protects": ...
 *
 * id, kind (number or choice), the answer (a number, a fraction like 1/64
 * or 9/8 also reads as a number; a choice's letter), what else the answer
 * may carry (number: "bytes" lets 8 KiB stand for 8192, "-" nothing;
 * choice: the letters offered, at least four), and the hint shown when the
 * answer is wrong: it names the section to reread and never the answer.
 *
 * A student's answer (after "Q3:" in answers.txt) starts with the value and
 * may go on with reasoning, which is not graded:
 *
 *   Q3: 8,192 bytes: two 32x32 tiles of 4-byte floats
 *   Q4: (b) because no thread writes shared memory after the loop
 *
 * The value may be wrapped in quotes or Markdown marks ("**8192**", `d`)
 * and announced by a label ("Answer: d", "the answer is 64").
 * A number may have thousands separators (8,192  8_192  8'192  8 192), a
 * fraction (9/8), an exponent (1e3, 2^13), be written in words up to
 * ninety-nine (sixty-four), and for a question in bytes carry a unit (B,
 * bytes, KB, KiB, MB, MiB, GB, GiB).  A choice is its letter, in any case, alone or
 * as "(b)", "b)", "b.", "b:". */
#ifndef QUIZ_ANSWER_H
#define QUIZ_ANSWER_H

#include <stddef.h>

typedef enum { QUIZ_NUMBER, QUIZ_CHOICE } quiz_kind;

typedef struct {
    char id[16];
    quiz_kind kind;
    double value;     /* number: the answer */
    double tolerance; /* number: relative, 0 for "exactly" (up to rounding) */
    int in_bytes;     /* number: byte units scale the value */
    char letter;      /* choice: the answer, lower case */
    char letters[27]; /* choice: the letters offered, lower case */
    char hint[1024];  /* shown when the answer is wrong */
} quiz_question;

/* Reads one answer key line into q.  Returns 1, or 0 with why it is not a
 * well-formed line (a kit error: the key is the kit's). */
int quiz_parse_key(const char *line, quiz_question *q, char *why, size_t len);

typedef enum { QUIZ_RIGHT, QUIZ_WRONG, QUIZ_UNREADABLE } quiz_verdict;

/* Judges the text after "Qk:".  When it is not right, msg says what was
 * read and what to reread; it never gives the answer. */
quiz_verdict quiz_judge(const quiz_question *q, const char *given, char *msg, size_t len);

#endif
