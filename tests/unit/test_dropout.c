// test_dropout.c -- inverted dropout keeps the expectation.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "attention/dropout.h"
#include "base/rng.h"

#include "helpers.h"

Test(dropout, p_zero_is_identity) {
    float x[5] = {1, -2, 3, 0.5f, 7}, y[5] = {-1, -1, -1, -1, -1};
    unsigned char keep[5] = {9, 9, 9, 9, 9};
    rng_t rng;
    rng_seed(&rng, 1);
    dropout_forward(x, y, keep, 5, 0.0f, &rng);
    for (int i = 0; i < 5; i++) {
        cr_assert_float_eq(y[i], x[i], 0.0);
        cr_assert_eq(keep[i], 1);
    }
}

Test(dropout, p_one_drops_everything) {
    float x[4] = {1, 2, 3, 4}, y[4] = {-1, -1, -1, -1};
    rng_t rng;
    rng_seed(&rng, 2);
    dropout_forward(x, y, NULL, 4, 1.0f, &rng);
    for (int i = 0; i < 4; i++) cr_assert(y[i] == 0.0f && !isnan(y[i]));
}

// Hand rule: with p = 0.2 a kept entry becomes x / 0.8 = 1.25 x, a dropped
// one 0, and keep[] says which happened.
Test(dropout, survivors_scaled_by_one_over_keep_probability) {
    enum { N = 64 };
    float x[N], y[N];
    unsigned char keep[N];
    for (int i = 0; i < N; i++) x[i] = (float)(i + 1), y[i] = -1.0f, keep[i] = 9;
    rng_t rng;
    rng_seed(&rng, 3);
    dropout_forward(x, y, keep, N, 0.2f, &rng);
    int kept = 0;
    for (int i = 0; i < N; i++) {
        cr_assert(keep[i] == 0 || keep[i] == 1);
        cr_assert_float_eq(y[i], keep[i] ? 1.25f * x[i] : 0.0f, 1e-5);
        kept += keep[i];
    }
    cr_assert(kept > 0 && kept < N);
}

// The same seed gives the same mask; in place (y == x) gives the same values.
Test(dropout, deterministic_and_in_place) {
    enum { N = 32 };
    float x[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) x[i] = 0.1f * (float)i;
    rng_t a, b;
    rng_seed(&a, 4);
    rng_seed(&b, 4);
    dropout_forward(x, y1, NULL, N, 0.5f, &a);
    memcpy(y2, x, sizeof y2);
    dropout_forward(y2, y2, NULL, N, 0.5f, &b);
    assert_floats_near(y1, y2, N, 0.0, "y1");
}

// E[y] = x. One draw of entry x has standard deviation x sqrt(p / (1 - p))
// = 0.5 x at p = 0.2; the mean of 20000 draws, 0.5 x / sqrt(20000) = 0.0035 x.
// Tolerance: 5 standard errors = 0.018 x.
Test(dropout, mean_is_preserved_over_many_draws) {
    enum { N = 6, DRAWS = 20000 };
    const float x[N] = {0.05f, 0.1f, 0.15f, 0.2f, 0.5f, 1.0f};
    float y[N];
    double mean[N] = {0};
    long kept = 0;
    unsigned char keep[N];
    rng_t rng;
    rng_seed(&rng, 5);
    for (int t = 0; t < DRAWS; t++) {
        memset(y, 0, sizeof y);
        memset(keep, 0, sizeof keep);
        dropout_forward(x, y, keep, N, 0.2f, &rng);
        for (int i = 0; i < N; i++) mean[i] += y[i], kept += keep[i];
    }
    for (int i = 0; i < N; i++) {
        double se = x[i] * 0.5 / sqrt((double)DRAWS);
        cr_assert_float_eq(mean[i] / DRAWS, x[i], 5 * se);
    }
    // Fraction kept: binomial, standard error sqrt(0.8 * 0.2 / 120000) = 0.0012.
    cr_assert_float_eq((double)kept / (N * DRAWS), 0.8, 0.006);
}

// The backward pass routes the gradient through kept entries only, scaled by
// the same 1 / (1 - p): y is linear in x for a fixed mask.
Test(dropout, backward_uses_the_same_mask) {
    enum { N = 16 };
    float x[N], y[N], dy[N], dx[N];
    unsigned char keep[N];
    for (int i = 0; i < N; i++) x[i] = 1.0f, dy[i] = (float)i;
    rng_t rng;
    rng_seed(&rng, 6);
    memset(keep, 0, sizeof keep);
    memset(y, 0, sizeof y);
    dropout_forward(x, y, keep, N, 0.25f, &rng);
    dropout_backward(dy, keep, dx, N, 0.25f);
    int kept = 0;
    for (int i = 0; i < N; i++) kept += keep[i];
    cr_assert(kept > 0, "dropout_forward kept nothing at p = 0.25");
    for (int i = 0; i < N; i++)
        cr_assert_float_eq(dx[i], keep[i] ? dy[i] / 0.75f : 0.0f, 1e-5);
}
