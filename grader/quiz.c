/* The quiz of a stage as Check tests: answers.txt against the answer key,
 * one test per question, judged by quiz_answer.c (its header gives the
 * rules: the value is graded, reasoning after it is not).
 *
 * answers.txt (the student's):   Q1: 2,048 because ...   lines starting with # are comments
 * grader/answers/<stage>.tsv:    Q1 <TAB> number <TAB> 2048 <TAB> - <TAB> hint when wrong */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grading.h"
#include "quiz_answer.h"

static quiz_question *key;
static int key_count, key_capacity;

/* Whether answers.txt was saved as UTF-16 (Windows Notepad's "Unicode"):
 * every other byte is zero, and no line reads as "Q1: ...". */
static int saved_as_utf16(void)
{
    FILE *f = fopen(grading.answers, "rb");
    if (!f)
        return 0;
    unsigned char head[2] = {0, 0};
    size_t got = fread(head, 1, 2, f);
    fclose(f);
    return got == 2 && ((head[0] == 0xff && head[1] == 0xfe) || (head[0] == 0xfe && head[1] == 0xff));
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
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        /* A UTF-8 byte-order mark, as some editors on Windows save one. */
        if (first && strncmp(p, "\xef\xbb\xbf", 3) == 0)
            p += 3;
        first = 0;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '#' || strncasecmp(p, id, idlen) != 0)
            continue;
        p += idlen;
        if (isdigit((unsigned char)*p))
            continue; /* Q1 must not match Q10 */
        /* "Q1: 2", "Q1 = 2", "Q1. 2", "Q1) 2": one mark after the id. */
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == ':' || *p == '=' || *p == '.' || *p == ')')
            p++;
        while (*p == ' ' || *p == '\t')
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
    const quiz_question *q = &key[_i];
    char test[32], given[512], msg[2048];
    snprintf(test, sizeof test, "quiz %s", q->id);
    if (saved_as_utf16())
        ck_abort_msg("%s: answers.txt is saved as UTF-16 (Notepad calls it Unicode), which the grader cannot read: save it as UTF-8 or plain text", q->id);
    if (!find_answer(q->id, given, sizeof given))
        ck_abort_msg("%s: no answer in answers.txt (write a line \"%s: your answer\")", q->id, q->id);
    if (quiz_judge(q, given, msg, sizeof msg) != QUIZ_RIGHT)
        ck_abort_msg("%s", msg);
    char summary[64];
    snprintf(summary, sizeof summary, "%s: right", q->id);
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
        key = grading_grow(key, &key_capacity, key_count, sizeof *key);
        char why[256];
        if (!quiz_parse_key(line, &key[key_count], why, sizeof why)) {
            fprintf(stderr, "grade_suite: %s: %s\n", grading.answer_key, why);
            exit(2);
        }
        const char *id = key[key_count].id;
        int k = key_count++;
        char *name = malloc(32);
        snprintf(name, 32, "quiz %s", id);
        TCase *tc = grading_tcase(name, RUNS_NO_BUILD, NULL);
        tcase_add_loop_test(tc, test_question, k, k + 1);
        suite_add_tcase(s, tc);
    }
    free(line);
    fclose(f);
}
