// test_child.c -- Child et al.'s fixed pattern and its two-step reachability (both
// graded tasks).
//
// The pattern's reference is built the other way round: for each block, the keys
// a query sees are listed by position arithmetic; reachability is checked by a
// boolean matrix product M + M^2 written with the keys outermost.
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "variants/child.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 70 };

// mask (n, n) of the fixed pattern: query i sees its block start .. i, and the
// summary keys l - c .. l - 1 of every earlier block.
static void ref_fixed(unsigned char *mask, int n, int l, int c) {
    memset(mask, 0, (size_t)n * n);
    for (int i = 0; i < n; i++) {
        int start = i - i % l;
        for (int j = start; j <= i; j++) mask[i * n + j] = 1;
        for (int b = 0; b < start; b += l)
            for (int j = b + l - c; j < b + l; j++) mask[i * n + j] = 1;
        for (int j = start + l - c; j <= i; j++) mask[i * n + j] = 1;
    }
}

// n = 6, blocks of 3 with one summary key (positions 2 and 5).
Test(child, fixed_by_hand) {
    const char *want[6] = {"100000", "110000", "111000",
                           "001100", "001110", "001111"};
    unsigned char mask[37];
    mask[36] = 7;
    cr_assert_eq(child_fixed_mask(mask, 6, 3, 1), 0);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            cr_assert_eq(mask[i * 6 + j], want[i][j] - '0', "mask[%d][%d]", i, j);
    cr_assert_eq(mask[36], 7);
    cr_assert_eq(child_fixed_mask(mask, 6, 0, 0), -1);
    cr_assert_eq(child_fixed_mask(mask, 6, 3, 4), -1);
    cr_assert_eq(mask[0], 1, "a refused call leaves the mask alone");
}

// Block lengths and summary widths from the grading seed: l = 1, c = 0, c = l,
// a ragged last block, 64 and more tokens.
Test(child, fixed_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 7, 13, 64, 67};
    static unsigned char mask[NMAX * NMAX], want[NMAX * NMAX];
    for (int k = 0; k < 12; k++) {
        int n = sizes[k % 6], l = 1 + (int)(rng_uniform(&rng) * 9);
        int c = k == 3 ? 0 : k == 4 ? l : (int)(rng_uniform(&rng) * (l + 1));
        cr_assert_eq(child_fixed_mask(mask, n, l, c), 0);
        ref_fixed(want, n, l, c);
        for (int i = 0; i < n * n; i++)
            cr_assert_eq(mask[i], want[i], "n %d l %d c %d: mask[%d][%d] = %d", n, l, c,
                         i / n, i % n, mask[i]);
    }
}

// The causal band of width 1 (i sees i - 1 and i): 2 steps reach i - 2, never i - 3.
Test(child, reach_by_hand) {
    unsigned char m[16] = {0};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) m[i * 4 + j] = j <= i && i - j <= 1;
    int steps[17];
    steps[16] = 7;
    cr_assert_eq(child_reach_steps(m, 4, steps), 1, "only (3, 0) is out of reach");
    const int want[16] = {1, 0, 0, 0, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1};
    for (int i = 0; i < 16; i++)
        cr_assert_eq(steps[i], want[i], "steps[%d][%d] = %d", i / 4, i % 4, steps[i]);
    cr_assert_eq(steps[16], 7);
    // Not causal: 0 sees 2 and 2 sees 1, so 0 reaches 1 through the last position.
    const unsigned char m3[9] = {1, 0, 1, 0, 1, 0, 0, 1, 1};
    const int want3[9] = {1, 2, 1, 0, 1, 0, 0, 1, 1};
    cr_assert_eq(child_reach_steps(m3, 3, steps), 2,
                 "(1, 0) and (2, 0) are out of reach");
    for (int i = 0; i < 9; i++)
        cr_assert_eq(steps[i], want3[i], "steps[%d][%d] = %d", i / 3, i % 3, steps[i]);
}

// The fixed pattern with c >= 1 reaches everything in two steps; random masks from
// the grading seed (some without their diagonal) against M + M^2, keys outermost.
Test(child, reach_random_masks_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 1);
    static const int sizes[] = {1, 2, 5, 9, 64, 65};
    static unsigned char m[NMAX * NMAX];
    static int steps[NMAX * NMAX], want[NMAX * NMAX];
    for (int k = 0; k < 12; k++) {
        int n = sizes[k % 6];
        if (k < 6) {
            int l = 1 + (int)(rng_uniform(&rng) * 8);
            ref_fixed(m, n, l, 1);
        } else {
            double p = 0.05 + 0.3 * rng_uniform(&rng);
            for (int i = 0; i < n * n; i++) m[i] = rng_uniform(&rng) < p;
        }
        for (int i = 0; i < n * n; i++) want[i] = m[i] ? 1 : 0;
        for (int t = 0; t < n; t++)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    if (!want[i * n + j] && m[i * n + t] && m[t * n + j])
                        want[i * n + j] = 2;
        int missing = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) missing += want[i * n + j] == 0;
        int got = child_reach_steps(m, n, steps);
        cr_assert_eq(got, missing, "n %d: %d pairs unreached", n, got);
        if (k < 6) cr_assert_eq(missing, 0, "the fixed pattern reaches all in 2 steps");
        for (int i = 0; i < n * n; i++)
            cr_assert_eq(steps[i], want[i], "n %d: steps[%d][%d] = %d, want %d", n,
                         i / n, i % n, steps[i], want[i]);
    }
}
