/* The host side every lab run and every grading test shares: seeded random
 * inputs, the CPU reference, the comparison, and small helpers.  Plain C,
 * no CUDA: the grader uses it without ever touching a GPU. */
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest n any tool accepts: 3·n² floats must fit in 32-bit indices of a
 * student's `row * n + col` (n² < 2^31). */
#define LAB_MAX_N 46340

/* Fills m[0..count) with values uniform in [-1, 1), the same for the same
 * seed on every machine.  A and B of one test use seeds 2s and 2s+1. */
void lab_fill_random(float *m, size_t count, uint64_t seed);
void lab_make_inputs(float *A, float *B, int n, uint64_t seed);

/* C[r][*] for rows [row_begin, row_end), accumulated in double. */
void lab_reference_rows(const float *A, const float *B, float *C, int n, int row_begin, int row_end);

/* Tolerance for element (i, j): atol(n) + rtol · |ref|.  Float sums of n
 * products carry error that grows with n; a wrong kernel misses by O(1). */
double lab_atol(int n);
double lab_rtol(void);

typedef struct {
    long checked;      /* elements compared */
    long mismatches;   /* outside tolerance, NaN or Inf included */
    long not_finite;   /* NaN or Inf in the result */
    double max_error;  /* largest |got - ref| among finite values */
    int first_row, first_col;
    float first_got, first_ref;
} lab_comparison;

/* Compares rows [row_begin, row_end) of got with ref (ref holds only those
 * rows, starting at its row 0).  Prints up to max_print mismatches to out
 * (NULL: none) as "(row, col): got X, expected Y".  Returns 1 if all match. */
int lab_compare_rows(const float *got, const float *ref, int n, int row_begin, int row_end,
                     FILE *out, int max_print, lab_comparison *result);

/* Parses a matrix size: digits only, 1 ≤ n ≤ LAB_MAX_N.  On failure writes a
 * sentence to err and returns 0. */
int lab_parse_size(const char *text, int *n, char *err, size_t errlen);

/* Strictly parses an unsigned integer (seeds, repetitions). */
int lab_parse_uint(const char *text, unsigned long *value);

double lab_gflops(int n, double ms);

/* Milliseconds from a monotonic clock. */
double lab_now_ms(void);

#ifdef __cplusplus
}
#endif

#endif
