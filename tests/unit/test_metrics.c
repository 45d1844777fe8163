// test_metrics.c -- token accuracy and exact match (graded tasks).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "train/metrics.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// Four rows of V = 3: predictions 2, 0 (a tie of 0 and 1: the smaller), 1, 1;
// targets 2, 1, 1, ignored: 2 of the 3 counted rows are right.
Test(metrics, token_accuracy_by_hand) {
    const float z[12] = {0, 1, 2, 5, 5, 1, -1, 3, 0, 0, 9, 0};
    const int y[4] = {2, 1, 1, 7};
    int count = -1;
    cr_assert_float_eq(metrics_token_accuracy(z, y, 4, 3, 7, &count), 2.0 / 3, 1e-12);
    cr_assert_eq(count, 3);
    const int none[4] = {7, 7, 7, 7};
    cr_assert_eq(metrics_token_accuracy(z, none, 4, 3, 7, &count), 0.0);
    cr_assert_eq(count, 0);
}

// Two sequences of T = 3 (V = 2): the first is right where counted (its wrong
// row is ignored), the second has one wrong row; a third is all padding.
Test(metrics, exact_match_by_hand) {
    const float z[18] = {1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 3, 4, 5, 6, 7, 8};
    const int y[9] = {0, 1, -1, 1, 1, 1, -1, -1, -1};
    int count = -1;
    cr_assert_float_eq(metrics_exact_match(z, y, 3, 3, 2, -1, &count), 0.5, 1e-12);
    cr_assert_eq(count, 2);
}

// The reference: predictions first (a strict > scan from the right, so ties go
// to the smallest index), then the counts.
static inline void ref_pred(const float *z, int n, int v, int *pred) {
    for (int i = 0; i < n; i++) {
        pred[i] = v - 1;
        for (int j = v - 2; j >= 0; j--)
            if (z[i * v + j] >= z[i * v + pred[i]]) pred[i] = j;
    }
}

enum { BMAX = 7, TMAX = 9, VMAX = 6 };

static inline void random_batch(rng_t *rng, float *z, int *y, int n, int v) {
    for (int i = 0; i < n * v; i++) z[i] = (float)(int)(rng_uniform(rng) * 3);  // ties
    for (int i = 0; i < n; i++)
        y[i] = rng_uniform(rng) < 0.25 ? -1 : (int)(rng_uniform(rng) * v);
}

Test(metrics, token_accuracy_random_with_ties) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 40; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * BMAX * TMAX);
        int v = 1 + (int)(rng_uniform(&rng) * VMAX);
        float z[BMAX * TMAX * VMAX];
        int y[BMAX * TMAX], pred[BMAX * TMAX], count, want_count = 0, right = 0;
        random_batch(&rng, z, y, n, v);
        ref_pred(z, n, v, pred);
        for (int i = 0; i < n; i++)
            if (y[i] != -1) {
                want_count++;
                right += pred[i] == y[i];
            }
        double got = metrics_token_accuracy(z, y, n, v, -1, &count);
        cr_assert_eq(count, want_count, "case %d", c);
        cr_assert_float_eq(got, want_count ? (double)right / want_count : 0.0, 1e-12,
                           "case %d (N %d, V %d)", c, n, v);
    }
}

Test(metrics, exact_match_random_with_padding) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 40; c++) {
        int b = 1 + (int)(rng_uniform(&rng) * BMAX);
        int t = 1 + (int)(rng_uniform(&rng) * TMAX);
        int v = 1 + (int)(rng_uniform(&rng) * 3);
        float z[BMAX * TMAX * VMAX];
        int y[BMAX * TMAX], pred[BMAX * TMAX], count, seqs = 0, exact = 0;
        random_batch(&rng, z, y, b * t, v);
        if (c % 4 == 0)
            for (int i = 0; i < t; i++) y[i] = -1;   // the first sequence is padding
        ref_pred(z, b * t, v, pred);
        for (int s = 0; s < b; s++) {
            int counted = 0, wrong = 0;
            for (int i = 0; i < t; i++)
                if (y[s * t + i] != -1) {
                    counted++;
                    wrong += pred[s * t + i] != y[s * t + i];
                }
            if (counted) seqs++, exact += wrong == 0;
        }
        double got = metrics_exact_match(z, y, b, t, v, -1, &count);
        cr_assert_eq(count, seqs, "case %d (B %d, T %d)", c, b, t);
        cr_assert_float_eq(got, seqs ? (double)exact / seqs : 0.0, 1e-12,
                           "case %d (B %d, T %d, V %d)", c, b, t, v);
    }
}
