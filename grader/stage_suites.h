/* The Check suite of each stage, by stage name (suites/NN-name.c). */
#ifndef STAGE_SUITES_H
#define STAGE_SUITES_H

#include <check.h>
#include <stddef.h>

Suite *suite_01_naive(void);
Suite *suite_02_shared_2x2(void);
Suite *suite_03_shared_3x3(void);
Suite *suite_04_tiled(void);
Suite *suite_05_padding(void);
Suite *suite_06_bank_conflicts(void);
Suite *suite_07_register_tiling(void);
Suite *suite_08_warp_tiling(void);
Suite *suite_09_tensor_cores(void);
Suite *suite_10_mma_sync(void);

/* The suite for a stage name such as "01-naive", or NULL. */
Suite *stage_suite(const char *stage);

/* The i-th stage's name, in order, or NULL past the last. */
const char *stage_name(size_t i);

#endif
