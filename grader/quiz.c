/* The quiz of a stage: answers.txt against the answer key.
 *
 * answers.txt (the student's):   Q1: 2048        lines starting with # are comments
 * grader/answers/<stage>.tsv:    Q1 <TAB> 2048|2,048 <TAB> what to revisit when wrong
 *
 * Answers are compared without case or spaces; numbers as numbers. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading.h"

static struct question {
    char *id, *accepted, *hint;
} *key;
static int key_count, key_capacity;

/* Lowercase, no spaces, no trailing period: "2 n^3." and "2N^3" agree. */
static void normalise(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < len; p++)
        if (!isspace((unsigned char)*p))
            out[o++] = (char)tolower((unsigned char)*p);
    while (o > 0 && out[o - 1] == '.')
        o--;
    out[o] = '\0';
}

static int as_number(const char *text, double *v)
{
    char *end;
    *v = strtod(text, &end);
    return end != text && *end == '\0';
}

static int matches(const char *given, const char *accepted)
{
    char g[256], a[256];
    normalise(given, g, sizeof g);
    char *options = strdup(accepted);
    ck_assert_msg(options != NULL, "grader: out of memory for the quiz");
    int right = 0;
    for (char *save, *opt = strtok_r(options, "|", &save); opt && !right; opt = strtok_r(NULL, "|", &save)) {
        normalise(opt, a, sizeof a);
        double x, y;
        right = as_number(g, &x) && as_number(a, &y) ? fabs(x - y) <= 1e-9 * fmax(1, fabs(y)) : !strcmp(g, a);
    }
    free(options);
    return right;
}

/* The student's answer to question `id`, or NULL. */
static char *find_answer(const char *id, char *out, size_t len)
{
    FILE *f = fopen(grading.answers, "r");
    if (!f)
        return NULL;
    char line[1024];
    char *found = NULL;
    size_t idlen = strlen(id);
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#' || strncasecmp(p, id, idlen) != 0)
            continue;
        p += idlen;
        if (isdigit((unsigned char)*p))
            continue; /* Q1 must not match Q10 */
        while (*p == ' ' || *p == ':' || *p == '=' || *p == '.' || *p == ')')
            p++;
        p[strcspn(p, "\r\n")] = '\0';
        snprintf(out, len, "%s", p);
        found = *out ? out : NULL;
        break;
    }
    fclose(f);
    return found;
}

START_TEST(test_question)
{
    char test[32], given[512];
    snprintf(test, sizeof test, "quiz %s", key[_i].id);
    if (!find_answer(key[_i].id, given, sizeof given))
        ck_abort_msg("%s: no answer in answers.txt (write a line \"%s: your answer\")", key[_i].id, key[_i].id);
    if (!matches(given, key[_i].accepted))
        ck_abort_msg("%s: \"%s\" is not right. %s", key[_i].id, given, key[_i].hint);
    char summary[600];
    snprintf(summary, sizeof summary, "%s: right", key[_i].id);
    grading_record_pass(test, summary);
}
END_TEST

void grading_add_quiz_tests(Suite *s)
{
    FILE *f = fopen(grading.answer_key, "r");
    if (!f)
        return; /* no quiz for this stage: no tests, and the points table has none */
    char *line = NULL;
    size_t line_size = 0;
    while (getline(&line, &line_size, f) != -1) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *id = strtok(line, "\t"), *accepted = strtok(NULL, "\t"), *hint = strtok(NULL, "\t");
        if (!id || !accepted)
            continue;
        key = grading_grow(key, &key_capacity, key_count, sizeof *key);
        int k = key_count++;
        key[k].id = strdup(id);
        key[k].accepted = strdup(accepted);
        key[k].hint = strdup(hint ? hint : "");
        if (!key[k].id || !key[k].accepted || !key[k].hint) {
            fprintf(stderr, "grade_suite: out of memory for stage %s's quiz\n", grading.stage);
            exit(2);
        }
        char *name = malloc(32);
        snprintf(name, 32, "quiz %s", id);
        TCase *tc = grading_tcase(name);
        tcase_add_loop_test(tc, test_question, k, k + 1);
        suite_add_tcase(s, tc);
    }
    free(line);
    fclose(f);
}
