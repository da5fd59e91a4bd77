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

/* What a stage's kernels multiply in.  FP32: float operands throughout.
 * TF32: a tensor core reads each operand with 10 of float's 23 mantissa
 * bits (the rest dropped, or rounded away first by __float_to_tf32), and
 * sums in float. */
typedef enum { LAB_FP32, LAB_TF32 } lab_precision;

/* The precision of a stage (or of a report variant of it, such as
 * "09-tensor-cores+unrounded"): TF32 for the tensor-core stages, FP32 for
 * every other name. */
lab_precision lab_stage_precision(const char *stage);

/* The TF32 allowance, relative to M = Σ_k |A[i][k]|·|B[k][j]|: an operand
 * read with 10 mantissa bits is off by less than 2^-10 of itself (dropped
 * bits) or 2^-11 (rounded), so a product of two is off by less than
 * (2^-10 + 2^-10 + 2^-20) of |a·b|, and their sum by that fraction of M,
 * whatever the (normal) inputs.  The float sums' own error is allowed
 * atol + rtol · |ref|, as in every stage: an allowance for sums whose
 * errors mostly cancel, not a worst-case bound. */
double lab_tf32_relative(void);

/* M[r][j] = Σ_k |A[r][k]|·|B[k][j]| for rows [row_begin, row_end), stored
 * from M's row 0, as lab_reference_rows stores C. */
void lab_magnitude_rows(const float *A, const float *B, double *M, int n, int row_begin, int row_end);

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

/* The same for a TF32 stage: each element is also allowed
 * lab_tf32_relative() · M, with M from lab_magnitude_rows (the same rows). */
int lab_compare_rows_tf32(const float *got, const float *ref, const double *magnitude, int n, int row_begin,
                          int row_end, FILE *out, int max_print, lab_comparison *result);

/* Rows [row_begin, row_end) checked under a precision's tolerance: the
 * reference into ref (room for those rows), then the comparison, as above.
 * Returns 1 if all match. */
int lab_check_rows(const float *A, const float *B, const float *got, float *ref, lab_precision precision, int n,
                   int row_begin, int row_end, FILE *out, int max_print, lab_comparison *result);

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
