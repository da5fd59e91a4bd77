/* Maps stage names to their suites; one line per stage. */
#include "stage_suites.h"

#include <string.h>

static const struct {
    const char *stage;
    Suite *(*make)(void);
} stages[] = {
    {"01-naive", suite_01_naive},
};

Suite *stage_suite(const char *stage)
{
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
        if (!strcmp(stages[i].stage, stage))
            return stages[i].make();
    return NULL;
}
