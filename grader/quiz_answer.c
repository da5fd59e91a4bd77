/* See quiz_answer.h. */
#define _GNU_SOURCE
#include "quiz_answer.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- numbers */

static const char *const small_words[] = {"zero",    "one",     "two",       "three",    "four",
                                          "five",    "six",     "seven",     "eight",    "nine",
                                          "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                                          "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
static const char *const tens_words[] = {"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};

/* A word (whole, case ignored) at p: its length, else 0. */
static size_t word_at(const char *p, const char *word)
{
    size_t n = strlen(word);
    return strncasecmp(p, word, n) == 0 && !isalpha((unsigned char)p[n]) ? n : 0;
}

/* A number in words, zero to ninety-nine ("sixty-four", "sixty four",
 * "sixtyfour"): its value and where it ends, or -1. */
static double number_in_words(const char *p, const char **end)
{
    for (int i = 0; i < 20; i++) {
        size_t n = word_at(p, small_words[i]);
        if (n) {
            *end = p + n;
            return i;
        }
    }
    for (int t = 0; t < 8; t++) {
        size_t n = strlen(tens_words[t]);
        if (strncasecmp(p, tens_words[t], n) != 0)
            continue;
        const char *q = p + n;
        if (*q == '-' || *q == ' ')
            q++;
        for (int u = 1; u < 10; u++) {
            size_t m = word_at(q, small_words[u]);
            if (m) {
                *end = q + m;
                return 20 + 10 * t + u;
            }
        }
        if (!isalpha((unsigned char)p[n])) {
            *end = p + n;
            return 20 + 10 * t;
        }
    }
    return -1;
}

/* A separator between groups of three digits: , _ ' or a thin, narrow
 * no-break or no-break space (UTF-8); with spaced, a plain space too (see
 * judge_number).  Its length, else 0. */
static size_t group_separator(const char *p, int spaced)
{
    if (*p == ',' || *p == '_' || *p == '\'' || (spaced && *p == ' '))
        return 1;
    if (!strncmp(p, "\xc2\xa0", 2))
        return 2;
    if (!strncmp(p, "\xe2\x80\x89", 3) || !strncmp(p, "\xe2\x80\xaf", 3))
        return 3;
    return 0;
}

/* Digits with thousands separators, a decimal part and an exponent
 * (1e3, 2^13) at p: the value and where it ends, or 0 if none. */
static int plain_number(const char *p, int spaced, double *value, const char **end)
{
    char digits[128];
    size_t used = 0;
    const char *q = p;
    if (*q == '-' || *q == '+')
        digits[used++] = *q++;
    if (!isdigit((unsigned char)*q) && !(*q == '.' && isdigit((unsigned char)q[1])))
        return 0;
    while (used + 4 < sizeof digits) {
        if (isdigit((unsigned char)*q)) {
            digits[used++] = *q++;
            continue;
        }
        /* "8,192": a separator followed by exactly three digits. */
        size_t sep = group_separator(q, spaced);
        if (sep && isdigit((unsigned char)q[sep]) && isdigit((unsigned char)q[sep + 1]) &&
            isdigit((unsigned char)q[sep + 2]) && !isdigit((unsigned char)q[sep + 3])) {
            q += sep;
            continue;
        }
        break;
    }
    if (*q == '.' && isdigit((unsigned char)q[1])) {
        digits[used++] = *q++;
        while (isdigit((unsigned char)*q) && used + 1 < sizeof digits)
            digits[used++] = *q++;
    }
    digits[used] = '\0';
    double v = strtod(digits, NULL);
    if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) || ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
        char *after;
        long exponent = strtol(q + 1, &after, 10);
        v *= pow(10, (double)exponent);
        q = after;
    } else if (*q == '^' && isdigit((unsigned char)q[1])) {
        char *after;
        long exponent = strtol(q + 1, &after, 10);
        v = pow(v, (double)exponent);
        q = after;
    }
    *value = v;
    *end = q;
    return 1;
}

/* The number an answer starts with, a fraction included: 1 and its value
 * and end, or 0. */
static int leading_number(const char *p, int spaced, double *value, const char **end)
{
    double v;
    const char *q;
    if (!plain_number(p, spaced, &v, &q)) {
        v = number_in_words(p, &q);
        if (v < 0)
            return 0;
    }
    /* "9/8", "1 / 64" */
    const char *r = q;
    while (*r == ' ')
        r++;
    if (*r == '/') {
        r++;
        while (*r == ' ')
            r++;
        double d;
        const char *after;
        if (plain_number(r, spaced, &d, &after) && d != 0) {
            v /= d;
            q = after;
        }
    }
    *value = v;
    *end = q;
    return 1;
}

/* The byte multiples an answer in bytes may name after its number (KB, MB
 * and GB are read both ways: powers of 1000 and of 1024).  Writes the scales to try; returns how many. */
static int byte_scales(const char *p, double scales[2])
{
    while (*p == ' ' || *p == '-')
        p++;
    static const struct {
        const char *unit;
        double a, b;
    } units[] = {{"bytes", 1, 1}, {"byte", 1, 1}, {"b", 1, 1},       {"kib", 1024, 1024},
                 {"kb", 1024, 1000}, {"k", 1024, 1000}, {"mib", 1048576, 1048576}, {"mb", 1048576, 1e6},
                 {"gib", 1073741824.0, 1073741824.0}, {"gb", 1073741824.0, 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (word_at(p, units[i].unit)) {
            scales[0] = units[i].a;
            scales[1] = units[i].b;
            return 2;
        }
    scales[0] = 1;
    return 1;
}

static int close_enough(double got, const quiz_question *q)
{
    double allowed = fmax(q->tolerance * fabs(q->value), 1e-9 * fmax(1, fabs(q->value)));
    return fabs(got - q->value) <= allowed;
}

/* ---------------------------------------------------------------- the key */

int quiz_parse_key(const char *line, quiz_question *q, char *why, size_t len)
{
    memset(q, 0, sizeof *q);
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", line);
    copy[strcspn(copy, "\r\n")] = '\0';
    char *field[5] = {0};
    char *save, *p = copy;
    for (int i = 0; i < 5; i++) {
        /* The hint, last, may hold tabs of its own: it takes the rest. */
        field[i] = i < 4 ? strtok_r(p, "\t", &save) : strtok_r(p, "", &save);
        p = NULL;
        if (!field[i]) {
            snprintf(why, len, "expected 5 tab-separated fields (id, kind, answer, accepts, hint), found %d", i);
            return 0;
        }
    }
    snprintf(q->id, sizeof q->id, "%s", field[0]);
    snprintf(q->hint, sizeof q->hint, "%s", field[4]);
    if (!strcmp(field[1], "number")) {
        q->kind = QUIZ_NUMBER;
        char *tilde = strchr(field[2], '~');
        if (tilde) {
            *tilde = '\0';
            q->tolerance = strtod(tilde + 1, NULL) / (strchr(tilde + 1, '%') ? 100.0 : 1.0);
        }
        const char *end;
        if (!leading_number(field[2], 0, &q->value, &end) || *end) {
            snprintf(why, len, "%s: the answer \"%s\" is not a number", q->id, field[2]);
            return 0;
        }
        q->in_bytes = !strcmp(field[3], "bytes");
        if (!q->in_bytes && strcmp(field[3], "-")) {
            snprintf(why, len, "%s: a number accepts \"bytes\" or \"-\", not \"%s\"", q->id, field[3]);
            return 0;
        }
        return 1;
    }
    if (!strcmp(field[1], "choice")) {
        q->kind = QUIZ_CHOICE;
        size_t n = 0;
        for (const char *c = field[3]; *c && n + 1 < sizeof q->letters; c++)
            if (isalpha((unsigned char)*c))
                q->letters[n++] = (char)tolower((unsigned char)*c);
        q->letters[n] = '\0';
        q->letter = (char)tolower((unsigned char)field[2][0]);
        if (n < 4 || strlen(field[2]) != 1 || !strchr(q->letters, q->letter)) {
            snprintf(why, len, "%s: a choice needs one answer letter among at least four offered (\"%s\" of \"%s\")",
                     q->id, field[2], field[3]);
            return 0;
        }
        return 1;
    }
    snprintf(why, len, "%s: the kind \"%s\" is neither number nor choice", q->id, field[1]);
    return 0;
}

/* ---------------------------------------------------------------- judging */

static const char *skip_spaces(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* The first words of an answer, for a message: at most 40 characters. */
static void quoted_start(const char *given, char *out, size_t len)
{
    snprintf(out, len, "%.40s%s", given, strlen(given) > 40 ? "..." : "");
}

/* Where the value of an answer starts: past spaces, the quotes or
 * Markdown marks a student may wrap it in ("**8192**", "`d`") and a label
 * that only announces it ("Answer: d", "the answer is 64"). */
static const char *answer_start(const char *given)
{
    static const char *const labels[] = {"the answer is", "answer is", "answer", "ans", "option", "choice"};
    const char *p = skip_spaces(given);
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        size_t n = word_at(p, labels[i]);
        if (n) {
            p = skip_spaces(p + n);
            if (*p == ':' || *p == '=')
                p = skip_spaces(p + 1);
            break;
        }
    }
    while (*p && strchr("*\"'`", *p))
        p++;
    return skip_spaces(p);
}

/* The value read (scaled by the first byte unit named) and whether it is
 * the answer. */
static int number_is_right(const quiz_question *q, const char *p, int spaced, double *read)
{
    double v;
    const char *end;
    if (!leading_number(p, spaced, &v, &end))
        return 0;
    double scales[2];
    int tries = q->in_bytes ? byte_scales(end, scales) : (scales[0] = 1, 1);
    *read = v * scales[0];
    for (int i = 0; i < tries; i++)
        if (close_enough(v * scales[i], q))
            return 1;
    return 0;
}

static quiz_verdict judge_number(const quiz_question *q, const char *given, char *msg, size_t len)
{
    /* "about 26", "~26", "bank 26": a word that only frames the number. */
    static const char *const framing[] = {"about", "approximately", "roughly", "bank", "word"};
    const char *p = answer_start(given);
    for (size_t i = 0; i < sizeof framing / sizeof framing[0]; i++) {
        size_t n = word_at(p, framing[i]);
        if (n) {
            p = skip_spaces(p + n);
            break;
        }
    }
    if (*p == '~' || *p == '=')
        p = skip_spaces(p + 1);
    double v, unused;
    const char *end;
    char start[64];
    if (!leading_number(p, 0, &v, &end)) {
        quoted_start(p, start, sizeof start);
        snprintf(msg, len, "%s: \"%s\" does not start with a number: write the number first (reasoning may follow it)",
                 q->id, start);
        return QUIZ_UNREADABLE;
    }
    /* "8 192" groups thousands with a plain space (as SI and ISO write
     * them), but "32 128" could also be a value and the start of the
     * reasoning: either reading scores. */
    if (number_is_right(q, p, 0, &v) || number_is_right(q, p, 1, &unused))
        return QUIZ_RIGHT;
    char read_as[64];
    snprintf(read_as, sizeof read_as, "%.10g", v);
    double scales[2];
    int scaled = q->in_bytes && byte_scales(end, scales) == 2 && scales[0] != 1;
    snprintf(msg, len, "%s: your answer reads as %s%s, which is not right. %s", q->id, read_as,
             scaled ? " bytes" : "", q->hint);
    return QUIZ_WRONG;
}

static quiz_verdict judge_choice(const quiz_question *q, const char *given, char *msg, size_t len)
{
    const char *p = answer_start(given);
    if (*p == '(' || *p == '[')
        p++;
    char letter = (char)tolower((unsigned char)*p);
    char after = p[0] ? p[1] : '\0';
    int alone = after == '\0' || isspace((unsigned char)after) || strchr(").]:,;-*\"'`", after);
    char offered[64] = "";
    for (size_t i = 0; q->letters[i]; i++)
        snprintf(offered + strlen(offered), sizeof offered - strlen(offered), "%s%c", i ? ", " : "", q->letters[i]);
    if (!isalpha((unsigned char)letter) || !alone || !strchr(q->letters, letter)) {
        char start[64];
        quoted_start(skip_spaces(given), start, sizeof start);
        snprintf(msg, len, "%s: \"%s\" does not start with one of the letters %s: write the letter first "
                 "(reasoning may follow it)", q->id, start, offered);
        return QUIZ_UNREADABLE;
    }
    if (letter == q->letter)
        return QUIZ_RIGHT;
    snprintf(msg, len, "%s: %c is not right. %s", q->id, letter, q->hint);
    return QUIZ_WRONG;
}

quiz_verdict quiz_judge(const quiz_question *q, const char *given, char *msg, size_t len)
{
    msg[0] = '\0';
    return q->kind == QUIZ_NUMBER ? judge_number(q, given, msg, len) : judge_choice(q, given, msg, len);
}
