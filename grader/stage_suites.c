/* Maps stage names to their suites; one line per stage. */
#include "stage_suites.h"

#include <string.h>

static const struct {
    const char *stage;
    Suite *(*make)(void);
} stages[] = {
    {"01-naive", suite_01_naive},
    {"02-shared-2x2", suite_02_shared_2x2},
    {"03-shared-3x3", suite_03_shared_3x3},
    {"04-tiled", suite_04_tiled},
    {"05-padding", suite_05_padding},
    {"06-bank-conflicts", suite_06_bank_conflicts},
    {"07-register-tiling", suite_07_register_tiling},
    {"08-warp-tiling", suite_08_warp_tiling},
    {"09-tensor-cores", suite_09_tensor_cores},
    {"10-mma-sync", suite_10_mma_sync},
};

Suite *stage_suite(const char *stage)
{
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        if (!strcmp(stages[i].stage, stage))
            return stages[i].make();
    return NULL;
}

const char *stage_name(size_t i)
{
    return i < sizeof stages / sizeof stages[0] ? stages[i].stage : NULL;
}
