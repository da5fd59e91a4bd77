/* Stage 07-register-tiling: each thread computes a block of C from
 * registers, and the block tile is large.  The sizes put edges everywhere:
 * 1 and 2 are one tiny partial tile, 31 and 33 sit around a 32-wide tile,
 * 127 and 129 around a 128-wide one, 100 and 257 are multiples of neither
 * (257 = 2 * 128 + 1, a one-row edge), 1000 is a large product whose last
 * tiles are partial for every power-of-two tile above 8. */
#include "grading.h"
#include "stage_suites.h"

Suite *suite_07_register_tiling(void)
{
    Suite *s = suite_create("07-register-tiling");
    grading_add_size_tests_from_table(s);
    /* The idea, on the simulator's counts: n = 256 holds whole block tiles
     * of every power-of-two shape up to 256 x 256, so no part of a block
     * works outside C and blurs the ratios (at n = 128 a 128 x 256 tile of
     * 1024 threads, 8 x 4 each, reads its registers' worth twice over per
     * product of C, and would fail a rule it keeps). */
    grading_add_structure_test(s, "register tiling", "check", 256, rule_register_tiling);
    grading_add_structure_test(s, "block tile reuse", "check", 256, rule_block_reuse);
    /* The same rules where no tile divides n (255 = 256 - 1, so every tile
     * up to 256 wide covers it with one row and column to spare): the
     * register-tiled kernel must be the one that runs there too, not
     * stage 04's kernel wherever its block tile does not divide n. */
    grading_add_structure_test(s, "register tiling (n=255)", "check", 255, rule_register_tiling);
    grading_add_structure_test(s, "block tile reuse (n=255)", "check", 255, rule_block_reuse);
    grading_add_structure_test(s, "barriers", "check", 100, rule_tiled_no_hazards);
    grading_add_structure_test(s, "in bounds", "check", 100, rule_tiled_in_bounds);
    grading_add_quiz_tests(s);
    return s;
}
