/* The quiz grades the value, not the wording (grader/quiz_answer.h): right
 * answers written many ways score, reasoning after the answer is ignored,
 * wrong values and unreadable answers do not score, and no message gives
 * the answer away.
 *
 *   make test-quiz      (part of make test-grading)
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "quiz_answer.h"

static quiz_question key(const char *line)
{
    quiz_question q;
    char why[256];
    ck_assert_msg(quiz_parse_key(line, &q, why, sizeof why), "key \"%s\": %s", line, why);
    return q;
}

#define BYTES_KEY "Q3\tnumber\t8192\tbytes\tRe-read \"Counting the traffic\": how many floats does each tile hold?"
#define CHOICE_KEY "Q4\tchoice\td\tabcd\tRe-read \"What each barrier protects\"."

static void expect(const quiz_question *q, const char *given, quiz_verdict want)
{
    char msg[2048];
    quiz_verdict got = quiz_judge(q, given, msg, sizeof msg);
    static const char *const name[] = {"right", "wrong", "unreadable"};
    ck_assert_msg(got == want, "%s: \"%s\" judged %s, expected %s (%s)", q->id, given, name[got], name[want], msg);
}

START_TEST(numbers_written_many_ways)
{
    quiz_question q = key(BYTES_KEY);
    const char *right[] = {"8192", " 8192 ", "8,192", "8_192", "8'192", "8192 bytes", "8192B", "8 KiB", "8KB",
                           "8 kB", "2^13", "8.192e3", "8192 because two 32x32 tiles of 4-byte floats",
                           "8,192: two tiles", "= 8192", "about 8192", "8\xe2\x80\x89" "192", "8\xc2\xa0" "192",
                           "8 192", "8 192 bytes", "**8192**", "`8192`", "\"8192\"", "Answer: 8192",
                           "the answer is 8 KiB"};
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
        expect(&q, right[i], QUIZ_RIGHT);
    quiz_question words = key("Q1\tnumber\t64\t-\thint");
    expect(&words, "sixty-four", QUIZ_RIGHT);
    expect(&words, "Sixty four, one per phase", QUIZ_RIGHT);
    expect(&words, "64 loads (32 phases x 2)", QUIZ_RIGHT);
    quiz_question fraction = key("Q2\tnumber\t1.125\t-\thint");
    expect(&fraction, "9/8", QUIZ_RIGHT);
    expect(&fraction, "9 / 8 reads per multiply-add", QUIZ_RIGHT);
    expect(&fraction, "1.125", QUIZ_RIGHT);
    quiz_question bank = key("Q1\tnumber\t26\t-\thint");
    expect(&bank, "bank 26", QUIZ_RIGHT);
    expect(&bank, "26 (1000 / 4 = 250, 250 mod 32 = 26)", QUIZ_RIGHT);
    quiz_question way = key("Q2\tnumber\t8\t-\thint");
    expect(&way, "8-way", QUIZ_RIGHT);
    expect(&way, "eight", QUIZ_RIGHT);
    /* A fraction key with a tolerance (stage 07's Q3): a decimal close
     * enough scores, one further off does not. */
    quiz_question per_fma = key("Q3\tnumber\t1/64~1%\t-\thint");
    expect(&per_fma, "1/64", QUIZ_RIGHT);
    expect(&per_fma, "0.015625", QUIZ_RIGHT);
    expect(&per_fma, "0.0156", QUIZ_RIGHT);
    expect(&per_fma, "0.016", QUIZ_WRONG);
    expect(&per_fma, "1/32", QUIZ_WRONG);
}
END_TEST

START_TEST(wrong_values_do_not_score)
{
    quiz_question q = key(BYTES_KEY);
    const char *wrong[] = {"4096", "8191", "8193", "8 MiB", "8192 KiB", "16384 bytes", "2,048", "0.5"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
        expect(&q, wrong[i], QUIZ_WRONG);
    /* The answer comes first: a number in the reasoning does not count. */
    expect(&q, "4096, or maybe 8192", QUIZ_WRONG);
    expect(&q, "answer: 4096", QUIZ_WRONG);
    expect(&q, "8 192 KiB", QUIZ_WRONG);
    expect(&q, "two tiles of 32x32 floats = 8192", QUIZ_WRONG);
    /* Not a number at all. */
    expect(&q, "a lot", QUIZ_UNREADABLE);
    expect(&q, "yes", QUIZ_UNREADABLE);
    quiz_question exact = key("Q2\tnumber\t1.125\t-\thint");
    expect(&exact, "1.12", QUIZ_WRONG);
    quiz_question tolerant = key("Q2\tnumber\t1.125~1%\t-\thint");
    expect(&tolerant, "1.12", QUIZ_RIGHT);
    expect(&tolerant, "1.1", QUIZ_WRONG);
}
END_TEST

START_TEST(choices_by_letter)
{
    quiz_question q = key(CHOICE_KEY);
    const char *right[] = {"d", "D", " d ", "(d)", "d)", "d.", "D: a thread sees its own writes", "option d",
                           "d because no other thread touches it", "[D]", "Answer: d", "answer d",
                           "**d**", "`d`", "\"d\"", "**(d)** since only that thread writes it"};
    for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
        expect(&q, right[i], QUIZ_RIGHT);
    expect(&q, "a", QUIZ_WRONG);
    expect(&q, "(b) since one warp", QUIZ_WRONG);
    /* Not a letter offered, or not a letter alone. */
    expect(&q, "e", QUIZ_UNREADABLE);
    expect(&q, "no", QUIZ_UNREADABLE);
    expect(&q, "during the loop", QUIZ_UNREADABLE);
    expect(&q, "4", QUIZ_UNREADABLE);
    expect(&q, "answer", QUIZ_UNREADABLE);
    expect(&q, "Answer: b", QUIZ_WRONG);
    /* A label is not the letter a: "a" is still an answer of its own. */
    expect(&q, "a. a barrier after the write", QUIZ_WRONG);
}
END_TEST

START_TEST(messages_never_give_the_answer)
{
    quiz_question q = key(BYTES_KEY), c = key(CHOICE_KEY);
    char msg[2048];
    ck_assert_int_eq(quiz_judge(&q, "4096", msg, sizeof msg), QUIZ_WRONG);
    ck_assert_msg(strstr(msg, "4096") && strstr(msg, "Counting the traffic") && !strstr(msg, "8192"), "%s", msg);
    ck_assert_int_eq(quiz_judge(&q, "lots", msg, sizeof msg), QUIZ_UNREADABLE);
    ck_assert_msg(strstr(msg, "number first") && !strstr(msg, "8192"), "%s", msg);
    ck_assert_int_eq(quiz_judge(&c, "b", msg, sizeof msg), QUIZ_WRONG);
    ck_assert_msg(strstr(msg, "What each barrier protects") && !strstr(msg, " d "), "%s", msg);
}
END_TEST

START_TEST(malformed_keys_are_refused)
{
    quiz_question q;
    char why[256];
    ck_assert(!quiz_parse_key("Q1\tnumber\tlots\t-\thint", &q, why, sizeof why));
    ck_assert(!quiz_parse_key("Q1\tchoice\tb\tabc\thint", &q, why, sizeof why)); /* fewer than four choices */
    ck_assert(!quiz_parse_key("Q1\tchoice\te\tabcd\thint", &q, why, sizeof why)); /* the answer not offered */
    ck_assert(!quiz_parse_key("Q1\tyesno\tno\t-\thint", &q, why, sizeof why));
    ck_assert(!quiz_parse_key("Q1\tnumber\t2", &q, why, sizeof why));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("quiz_answer");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, numbers_written_many_ways);
    tcase_add_test(tc, wrong_values_do_not_score);
    tcase_add_test(tc, choices_by_letter);
    tcase_add_test(tc, messages_never_give_the_answer);
    tcase_add_test(tc, malformed_keys_are_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
