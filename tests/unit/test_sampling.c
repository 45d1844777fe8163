// test_sampling.c -- top-k and top-p filters (graded tasks).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "data/sampling.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

Test(sampling, top_k_by_hand) {
    float z[5] = {0.5f, 3, -1, 2, 2};
    cr_assert_eq(sampling_top_k(z, 5, 2), 2); // 3 and the first 2
    const float want[5] = {-INFINITY, 3, -INFINITY, 2, -INFINITY};
    for (int j = 0; j < 5; j++)
        cr_assert_eq(z[j], want[j], "z[%d] = %g", j, (double)z[j]);
    float y[3] = {1, 2, 3};
    cr_assert_eq(sampling_top_k(y, 3, 5), 3); // k >= V: unchanged
    cr_assert_eq(y[0], 1.0f);
    cr_assert_eq(sampling_top_k(y, 3, 0), -1);
    cr_assert_eq(y[0], 1.0f);
}

// Indices sorted by rank: value descending, then index ascending.
static const float *g_x;
static int by_rank(const void *a, const void *b) {
    int i = *(const int *)a, j = *(const int *)b;
    if (g_x[i] != g_x[j]) return g_x[i] > g_x[j] ? -1 : 1;
    return i - j;
}

// Random logits with many ties (few distinct values), k from 1 to past V.
Test(sampling, top_k_random_with_ties) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 40; c++) {
        int v = 1 + (int)(rng_uniform(&rng) * 60),
            k = 1 + (int)(rng_uniform(&rng) * 70);
        float z[60], keep[60];
        int order[60];
        for (int j = 0; j < v; j++)
            keep[j] = z[j] = (float)(int)(rng_uniform(&rng) * 6);
        for (int j = 0; j < v; j++) order[j] = j;
        g_x = keep;
        qsort(order, v, sizeof *order, by_rank);
        cr_assert_eq(sampling_top_k(z, v, k), k < v ? k : v, "case %d", c);
        for (int r = 0; r < v; r++) {
            int j = order[r];
            float want = r < k ? keep[j] : -INFINITY;
            cr_assert_eq(z[j], want, "case %d (V %d, k %d): rank %d, z[%d] = %g", c, v,
                         k, r, j, (double)z[j]);
        }
    }
}

Test(sampling, top_p_by_hand) {
    float p[3] = {0.3f, 0.5f, 0.2f};
    cr_assert_eq(sampling_top_p(p, 3, 0.7), 2); // 0.5 + 0.3 reaches 0.7
    cr_assert_float_eq(p[0], 0.375f, 1e-6);
    cr_assert_float_eq(p[1], 0.625f, 1e-6);
    cr_assert_eq(p[2], 0.0f);
    float q[3] = {0.3f, 0.5f, 0.2f};
    cr_assert_eq(sampling_top_p(q, 3, 0.5), 1); // 0.5 alone reaches 0.5
    cr_assert_float_eq(q[1], 1.0f, 1e-7);
    cr_assert_eq(q[0], 0.0f);
    cr_assert_eq(sampling_top_p(q, 3, 0.0), -1);
    cr_assert_eq(sampling_top_p(q, 3, 1.5), -1);
    cr_assert_float_eq(q[1], 1.0f, 1e-7);
}

// Random distributions with ties, p anywhere in (0, 1]: against sorting. The
// kept ones are the first m by rank, where m is the first prefix reaching p.
Test(sampling, top_p_random_with_ties) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 40; c++) {
        int v = 1 + (int)(rng_uniform(&rng) * 50);
        double p = c % 8 == 0 ? 1.0 : 0.02 + 0.97 * rng_uniform(&rng), sum = 0.0;
        float x[50], keep[50];
        int order[50];
        for (int j = 0; j < v; j++)
            sum += x[j] = (float)(1 + (int)(rng_uniform(&rng) * 4));
        for (int j = 0; j < v; j++) keep[j] = x[j] = (float)(x[j] / sum);
        for (int j = 0; j < v; j++) order[j] = j;
        g_x = keep;
        qsort(order, v, sizeof *order, by_rank);
        int m = 0;
        double mass = 0.0;
        while (m < v && mass < p) mass += keep[order[m++]];
        cr_assert_eq(sampling_top_p(x, v, p), m, "case %d (V %d, p %g)", c, v, p);
        for (int r = 0; r < v; r++) {
            int j = order[r];
            double want = r < m ? keep[j] / mass : 0.0;
            cr_assert(fabs(x[j] - want) <= 1e-6,
                      "case %d (V %d, p %g): rank %d, p[%d] = "
                      "%g, want %g",
                      c, v, p, r, j, (double)x[j], want);
        }
    }
}
