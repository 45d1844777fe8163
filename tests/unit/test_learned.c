// test_learned.c -- the learned positional table.
#include <criterion/criterion.h>
#include <math.h>

#include "position/learned.h"

Test(learned_pe_lookup, copies_rows) {
    learned_pe_t p;
    cr_assert_eq(learned_pe_alloc(&p, 4, 3), 0);
    for (int e = 0; e < 12; e++) p.table[e] = (float)e;   // row r = 3r, 3r+1, 3r+2
    const int pos[5] = {2, 0, 3, 3, 1};
    float out[5 * 3 + 1];
    out[15] = -7.0f;
    cr_assert_eq(learned_pe_lookup(&p, pos, 5, out), 0);
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 3; c++)
            cr_assert_eq(out[r * 3 + c], (float)(3 * pos[r] + c));
    cr_assert_eq(out[15], -7.0f);   // nothing written past (n, d)
    learned_pe_free(&p);
}

// No row for position max_len or beyond, nor for negative positions: an
// error code, and the output stays as it was (even its valid rows).
Test(learned_pe_lookup, out_of_range_is_an_error) {
    learned_pe_t p;
    cr_assert_eq(learned_pe_alloc(&p, 4, 2), 0);
    float out[4] = {9, 9, 9, 9};
    const int beyond[2] = {1, 4}, negative[1] = {-1};
    cr_assert_eq(learned_pe_lookup(&p, beyond, 2, out), LEARNED_PE_OUT_OF_RANGE);
    cr_assert_eq(learned_pe_lookup(&p, negative, 1, out), LEARNED_PE_OUT_OF_RANGE);
    for (int e = 0; e < 4; e++) cr_assert_eq(out[e], 9.0f);
    cr_assert_eq(learned_pe_lookup(&p, beyond, 0, out), 0);   // n = 0: nothing to do
    learned_pe_free(&p);
}

Test(learned_pe_alloc, sizes_and_free) {
    learned_pe_t p;
    cr_assert_eq(learned_pe_alloc(&p, 0, 4), -1);
    cr_assert_null(p.table);
    cr_assert_eq(learned_pe_alloc(&p, 4, 0), -1);
    cr_assert_eq(learned_pe_alloc(&p, 1, 1), 0);
    cr_assert_eq(p.table[0], 0.0f);   // zeroed
    learned_pe_free(&p);
    learned_pe_free(&p);              // safe twice
}

// Small random init: mean near 0, std near the one asked for.
Test(learned_pe_init, small_normal) {
    learned_pe_t p;
    cr_assert_eq(learned_pe_alloc(&p, 64, 64), 0);
    rng_t rng;
    rng_seed(&rng, 3);
    learned_pe_init(&p, &rng, 0.02f);
    double s = 0.0, ss = 0.0;
    int n = 64 * 64;
    for (int e = 0; e < n; e++) s += p.table[e], ss += (double)p.table[e] * p.table[e];
    double mean = s / n, std = sqrt(ss / n - mean * mean);
    cr_assert(fabs(mean) < 5 * 0.02 / sqrt(n), "mean %g", mean);
    cr_assert(fabs(std - 0.02) < 0.002, "std %g", std);
    learned_pe_free(&p);
}
