/* Unit tests of the harness: inputs, reference, comparison, parsing.
 *
 *   make test-harness      (builds build/tests/test_harness and runs it) */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

START_TEST(random_inputs_are_seeded_and_in_range)
{
    float a[1000], b[1000], c[1000];
    lab_fill_random(a, 1000, 7);
    lab_fill_random(b, 1000, 7);
    lab_fill_random(c, 1000, 8);
    ck_assert_mem_eq(a, b, sizeof a);
    ck_assert_int_ne(memcmp(a, c, sizeof a), 0);
    int distinct = 0;
    for (int i = 0; i < 1000; i++) {
        ck_assert(a[i] >= -1.0f && a[i] < 1.0f);
        distinct += i > 0 && a[i] != a[i - 1];
    }
    ck_assert_int_gt(distinct, 990); /* never constant inputs */
}
END_TEST

START_TEST(random_inputs_are_the_same_on_every_machine)
{
    /* Pinned values: lab_exec and the grader run in different processes,
     * maybe built by different compilers, and must build identical inputs. */
    float a[3];
    lab_fill_random(a, 3, 1);
    ck_assert_float_eq(a[0], 0x1.10a2dp-3f);
    ck_assert_float_eq(a[1], 0x1.f75c68p-2f);
    ck_assert_float_eq(a[2], 0x1.e24e88p-1f);
}
END_TEST

START_TEST(reference_matches_a_product_done_by_hand)
{
    float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8}, C[4];
    lab_reference_rows(A, B, C, 2, 0, 2);
    ck_assert_float_eq(C[0], 19);
    ck_assert_float_eq(C[1], 22);
    ck_assert_float_eq(C[2], 43);
    ck_assert_float_eq(C[3], 50);
    float row1[2];
    lab_reference_rows(A, B, row1, 2, 1, 2); /* one row, stored at row 0 */
    ck_assert_float_eq(row1[0], 43);
    ck_assert_float_eq(row1[1], 50);
}
END_TEST

START_TEST(compare_accepts_rounding_and_catches_errors)
{
    enum { n = 3 };
    float ref[n * n], got[n * n];
    for (int i = 0; i < n * n; i++)
        ref[i] = got[i] = (float)i - 4.0f;
    lab_comparison c;
    ck_assert(lab_compare_rows(got, ref, n, 0, n, NULL, 0, &c));
    ck_assert_int_eq(c.checked, 9);
    got[4] = ref[4] + 1e-7f; /* within tolerance */
    ck_assert(lab_compare_rows(got, ref, n, 0, n, NULL, 0, &c));
    got[5] = ref[5] + 0.01f; /* a real error */
    ck_assert(!lab_compare_rows(got, ref, n, 0, n, NULL, 0, &c));
    ck_assert_int_eq(c.mismatches, 1);
    ck_assert_int_eq(c.first_row, 1);
    ck_assert_int_eq(c.first_col, 2);
}
END_TEST

START_TEST(compare_catches_nan_and_inf)
{
    float ref[4] = {1, 2, 3, 4}, got[4] = {1, NAN, 3, INFINITY};
    lab_comparison c;
    ck_assert(!lab_compare_rows(got, ref, 2, 0, 2, NULL, 0, &c));
    ck_assert_int_eq(c.mismatches, 2);
    ck_assert_int_eq(c.not_finite, 2);
    ck_assert_int_eq(c.first_row, 0);
    ck_assert_int_eq(c.first_col, 1);
}
END_TEST

START_TEST(compare_prints_row_col_got_expected)
{
    float ref[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 5};
    char buf[256] = {0};
    FILE *f = fmemopen(buf, sizeof buf, "w");
    lab_comparison c;
    lab_compare_rows(got, ref, 2, 0, 2, f, 10, &c);
    fclose(f);
    ck_assert_str_eq(buf, "  (1, 1): got 5, expected 4\n");
}
END_TEST

START_TEST(tolerance_grows_with_n)
{
    ck_assert(lab_atol(1000) > lab_atol(10));
    ck_assert(lab_atol(4096) < 0.01); /* still far below a missing term */
}
END_TEST

/* a with its low `dropped` mantissa bits cleared: how a tensor core reads
 * a TF32 operand (dropped = 13), or a kernel that kept bf16's 7 bits (16). */
static float truncated(float a, int dropped)
{
    uint32_t bits;
    memcpy(&bits, &a, sizeof bits);
    bits &= ~((1u << dropped) - 1u);
    memcpy(&a, &bits, sizeof a);
    return a;
}

/* Positive inputs make every dropped bit err the same way, the worst case
 * for a sum: TF32's allowance must still hold it, and must not hold a
 * product of operands cut to bf16's 7 bits. */
START_TEST(tf32_tolerance_holds_tf32_operands_and_no_fewer_bits)
{
    enum { n = 64 };
    static float A[n * n], B[n * n], A_cut[n * n], B_cut[n * n], got[n * n], ref[n * n];
    lab_fill_random(A, n * n, 5);
    lab_fill_random(B, n * n, 6);
    for (int i = 0; i < n * n; i++) {
        A[i] = fabsf(A[i]);
        B[i] = fabsf(B[i]);
    }
    int dropped_bits[] = {13, 16};
    for (int d = 0; d < 2; d++) {
        for (int i = 0; i < n * n; i++) {
            A_cut[i] = truncated(A[i], dropped_bits[d]);
            B_cut[i] = truncated(B[i], dropped_bits[d]);
        }
        lab_reference_rows(A_cut, B_cut, got, n, 0, n);
        lab_comparison c;
        int tf32_right = lab_check_rows(A, B, got, ref, LAB_TF32, n, 0, n, NULL, 0, &c);
        ck_assert_msg(tf32_right == (dropped_bits[d] == 13), "%d bits dropped: %ld mismatches", dropped_bits[d],
                      c.mismatches);
        ck_assert_msg(!lab_check_rows(A, B, got, ref, LAB_FP32, n, 0, n, NULL, 0, &c),
                      "FP32's tolerance must refuse operands with %d bits dropped", dropped_bits[d]);
    }
}
END_TEST

START_TEST(only_the_tensor_core_stages_are_tf32)
{
    ck_assert(lab_stage_precision("09-tensor-cores") == LAB_TF32);
    ck_assert(lab_stage_precision("09-tensor-cores+unrounded") == LAB_TF32);
    ck_assert(lab_stage_precision("09-tensor-cores-other") == LAB_FP32);
    ck_assert(lab_stage_precision("10-mma-sync") == LAB_TF32);
    ck_assert(lab_stage_precision("10-mma-sync+unrounded") == LAB_TF32);
    ck_assert(lab_stage_precision("08-warp-tiling") == LAB_FP32);
    ck_assert(lab_stage_precision("cublas-tf32") == LAB_FP32);
}
END_TEST

START_TEST(sizes_are_parsed_strictly)
{
    int n;
    char err[200];
    ck_assert(lab_parse_size("1000", &n, err, sizeof err));
    ck_assert_int_eq(n, 1000);
    ck_assert(!lab_parse_size("0", &n, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "at least 1"));
    ck_assert(!lab_parse_size("-5", &n, err, sizeof err));
    ck_assert(!lab_parse_size("12abc", &n, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "not a whole number"));
    ck_assert(!lab_parse_size("", &n, err, sizeof err));
    ck_assert(!lab_parse_size("99999999999999999999", &n, err, sizeof err));
    ck_assert(!lab_parse_size("46341", &n, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "too large"));
}
END_TEST

START_TEST(gflops_counts_two_flops_per_multiply_add)
{
    ck_assert_double_eq_tol(lab_gflops(1000, 1.0), 2000.0, 1e-9);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("harness");
    TCase *inputs = tcase_create("inputs");
    tcase_add_test(inputs, random_inputs_are_seeded_and_in_range);
    tcase_add_test(inputs, random_inputs_are_the_same_on_every_machine);
    suite_add_tcase(s, inputs);
    TCase *reference = tcase_create("reference");
    tcase_add_test(reference, reference_matches_a_product_done_by_hand);
    suite_add_tcase(s, reference);
    TCase *compare = tcase_create("compare");
    tcase_add_test(compare, compare_accepts_rounding_and_catches_errors);
    tcase_add_test(compare, compare_catches_nan_and_inf);
    tcase_add_test(compare, compare_prints_row_col_got_expected);
    tcase_add_test(compare, tolerance_grows_with_n);
    tcase_add_test(compare, tf32_tolerance_holds_tf32_operands_and_no_fewer_bits);
    tcase_add_test(compare, only_the_tensor_core_stages_are_tf32);
    suite_add_tcase(s, compare);
    TCase *parsing = tcase_create("parsing");
    tcase_add_test(parsing, sizes_are_parsed_strictly);
    tcase_add_test(parsing, gflops_counts_two_flops_per_multiply_add);
    suite_add_tcase(s, parsing);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
