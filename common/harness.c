/* See harness.h. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* splitmix64: tiny, fast, and the same sequence everywhere (never rand()). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void lab_fill_random(float *m, size_t count, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < count; i++) {
        /* 24 random bits: exactly representable, uniform in [-1, 1). */
        uint32_t bits = (uint32_t)(next_random(&state) >> 40);
        m[i] = (float)((double)bits / (double)(1u << 23) - 1.0);
    }
}

void lab_make_inputs(float *A, float *B, int n, uint64_t seed)
{
    size_t count = (size_t)n * (size_t)n;
    lab_fill_random(A, count, 2 * seed);
    lab_fill_random(B, count, 2 * seed + 1);
}

void lab_reference_rows(const float *A, const float *B, float *C, int n, int row_begin, int row_end)
{
    double *acc = malloc((size_t)n * sizeof *acc);
    if (!acc) {
        fprintf(stderr, "reference: out of host memory\n");
        exit(EXIT_FAILURE);
    }
    for (int i = row_begin; i < row_end; i++) {
        /* i-k-j order walks B by rows: the reference is fast even for n in
         * the thousands.  Four columns a step: gcc's -O2 leaves the plain
         * loop scalar, but packs these four (SLP) into vector operations
         * (n = 1000 on an x86-64 build machine: gcc 1.07 s -> 0.30 s;
         * clang, which vectorizes either form, 0.24 s -> 0.54 s).  Each
         * element still sums its products in k order, so the result is
         * the same to the bit. */
        for (int j = 0; j < n; j++)
            acc[j] = 0.0;
        for (int k = 0; k < n; k++) {
            double a = A[(size_t)i * n + k];
            const float *b = B + (size_t)k * n;
            int j = 0;
            for (; j + 4 <= n; j += 4) {
                acc[j] += a * b[j];
                acc[j + 1] += a * b[j + 1];
                acc[j + 2] += a * b[j + 2];
                acc[j + 3] += a * b[j + 3];
            }
            for (; j < n; j++)
                acc[j] += a * b[j];
        }
        for (int j = 0; j < n; j++)
            C[(size_t)(i - row_begin) * n + j] = (float)acc[j];
    }
    free(acc);
}

double lab_atol(int n) { return 1e-6 * (n + 1); }
double lab_rtol(void) { return 1e-4; }

lab_precision lab_stage_precision(const char *stage)
{
    /* One line per stage that multiplies in TF32 (common/report/precision.sh
     * names the same stages for the report). */
    static const char *const tf32_stages[] = {"09-tensor-cores", "10-mma-sync"};
    for (size_t i = 0; stage && i < sizeof tf32_stages / sizeof tf32_stages[0]; i++)
        if (!strncmp(stage, tf32_stages[i], strlen(tf32_stages[i])) &&
            (stage[strlen(tf32_stages[i])] == '\0' || stage[strlen(tf32_stages[i])] == '+'))
            return LAB_TF32;
    return LAB_FP32;
}

double lab_tf32_relative(void) { return ldexp(1.0, -9) + ldexp(1.0, -20); }

void lab_magnitude_rows(const float *A, const float *B, double *M, int n, int row_begin, int row_end)
{
    for (int i = row_begin; i < row_end; i++) {
        double *m = M + (size_t)(i - row_begin) * n;
        for (int j = 0; j < n; j++)
            m[j] = 0.0;
        for (int k = 0; k < n; k++) {
            double a = fabs((double)A[(size_t)i * n + k]);
            const float *b = B + (size_t)k * n;
            for (int j = 0; j < n; j++)
                m[j] += a * fabs((double)b[j]);
        }
    }
}

/* Both comparisons: magnitude NULL is FP32's tolerance alone. */
static int compare_rows(const float *got, const float *ref, const double *magnitude, int n, int row_begin,
                        int row_end, FILE *out, int max_print, lab_comparison *r)
{
    memset(r, 0, sizeof *r);
    r->first_row = r->first_col = -1;
    double atol = lab_atol(n), rtol = lab_rtol(), tf32 = lab_tf32_relative();
    for (int i = row_begin; i < row_end; i++) {
        for (int j = 0; j < n; j++) {
            size_t at = (size_t)(i - row_begin) * n + j;
            float g = got[(size_t)i * n + j], e = ref[at];
            r->checked++;
            int finite = isfinite(g);
            double err = fabs((double)g - (double)e);
            if (!finite)
                r->not_finite++;
            else if (err > r->max_error)
                r->max_error = err;
            double allowed = atol + rtol * fabs((double)e) + (magnitude ? tf32 * magnitude[at] : 0.0);
            if (finite && err <= allowed)
                continue;
            if (r->mismatches == 0) {
                r->first_row = i;
                r->first_col = j;
                r->first_got = g;
                r->first_ref = e;
            }
            if (out && r->mismatches < max_print)
                fprintf(out, "  (%d, %d): got %.6g, expected %.6g\n", i, j, isnan(g) ? NAN : g, e);
            r->mismatches++;
        }
    }
    return r->mismatches == 0;
}

int lab_compare_rows(const float *got, const float *ref, int n, int row_begin, int row_end,
                     FILE *out, int max_print, lab_comparison *r)
{
    return compare_rows(got, ref, NULL, n, row_begin, row_end, out, max_print, r);
}

int lab_compare_rows_tf32(const float *got, const float *ref, const double *magnitude, int n, int row_begin,
                          int row_end, FILE *out, int max_print, lab_comparison *r)
{
    return compare_rows(got, ref, magnitude, n, row_begin, row_end, out, max_print, r);
}

int lab_check_rows(const float *A, const float *B, const float *got, float *ref, lab_precision precision, int n,
                   int row_begin, int row_end, FILE *out, int max_print, lab_comparison *r)
{
    lab_reference_rows(A, B, ref, n, row_begin, row_end);
    if (precision == LAB_FP32)
        return lab_compare_rows(got, ref, n, row_begin, row_end, out, max_print, r);
    double *magnitude = malloc((size_t)(row_end - row_begin) * n * sizeof *magnitude);
    if (!magnitude) {
        fprintf(stderr, "reference: out of host memory\n");
        exit(EXIT_FAILURE);
    }
    lab_magnitude_rows(A, B, magnitude, n, row_begin, row_end);
    int right = lab_compare_rows_tf32(got, ref, magnitude, n, row_begin, row_end, out, max_print, r);
    free(magnitude);
    return right;
}

int lab_parse_uint(const char *text, unsigned long *value)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return 0;
    errno = 0;
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (errno || *end)
        return 0;
    *value = v;
    return 1;
}

int lab_parse_size(const char *text, int *n, char *err, size_t errlen)
{
    unsigned long v;
    if (!text || !*text) {
        snprintf(err, errlen, "no matrix size given (N=...)");
        return 0;
    }
    if (text[0] == '-' || (text[0] == '0' && text[1] == '\0')) {
        snprintf(err, errlen, "matrix size N=%s: it must be at least 1", text);
        return 0;
    }
    if (!lab_parse_uint(text, &v)) {
        snprintf(err, errlen, "matrix size N=%s is not a whole number", text);
        return 0;
    }
    if (v > LAB_MAX_N) {
        snprintf(err, errlen, "matrix size N=%s is too large: at most %d (n*n must fit in an int index)",
                 text, LAB_MAX_N);
        return 0;
    }
    *n = (int)v;
    return 1;
}

double lab_gflops(int n, double ms) { return 2.0 * n * n * (double)n / (ms * 1e6); }

double lab_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
