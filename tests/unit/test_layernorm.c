// test_layernorm.c -- layer normalisation: hand-checked rows and invariants.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/layernorm.h"
#include "base/rng.h"

#include "helpers.h"


Test(layernorm, by_hand) {
    // x = (1, 2, 3, 4): mean 2.5, biased variance (2.25 + 0.25 + 0.25 + 2.25) / 4
    // = 1.25, so y = (x - 2.5) / sqrt(1.25 + 1e-5) = (x - 2.5) / 1.1180384:
    // (-1.341635, -0.447212, 0.447212, 1.341635).
    const float x[4] = {1, 2, 3, 4}, one[4] = {1, 1, 1, 1}, zero[4] = {0};
    const float expect[4] = {-1.341635f, -0.447212f, 0.447212f, 1.341635f};
    float y[4];
    layernorm_forward(x, one, zero, y, 1, 4, LAYERNORM_EPS);
    for (int j = 0; j < 4; j++) cr_assert_float_eq(y[j], expect[j], EPS, "j = %d", j);
}

Test(layernorm, gamma_and_beta_by_hand) {
    // Same row, gamma = (2, 2, 1, 1), beta = (1, 0, 0, -1):
    // y = gamma * (-1.341635, -0.447212, 0.447212, 1.341635) + beta
    //   = (-1.683270, -0.894424, 0.447212, 0.341635).
    const float x[4] = {1, 2, 3, 4}, gamma[4] = {2, 2, 1, 1}, beta[4] = {1, 0, 0, -1};
    const float expect[4] = {-1.683270f, -0.894424f, 0.447212f, 0.341635f};
    float y[4];
    layernorm_forward(x, gamma, beta, y, 1, 4, LAYERNORM_EPS);
    for (int j = 0; j < 4; j++) cr_assert_float_eq(y[j], expect[j], EPS, "j = %d", j);
}

Test(layernorm, rows_have_mean_0_and_variance_1) {
    enum { N = 6, D = 37 };
    layernorm_params_t p;
    cr_assert_eq(layernorm_alloc(&p, D), 0);
    rng_t rng;
    rng_seed(&rng, 4);
    float x[N * D], y[N * D];
    for (int i = 0; i < N; i++)   // rows on very different scales and offsets
        rng_fill_normal(&rng, x + i * D, D, 3.0f * i - 5.0f, 0.5f + 2.0f * i);
    layernorm_forward(x, p.gamma, p.beta, y, N, D, LAYERNORM_EPS);
    for (int i = 0; i < N; i++) {
        double mean, var;
        row_mean_var(y + i * D, D, &mean, &var);
        cr_assert(fabs(mean) < 1e-5, "row %d mean %g", i, mean);
        cr_assert(fabs(var - 1.0) < 1e-4, "row %d var %g", i, var);
    }
    layernorm_free(&p);
}

Test(layernorm, alloc_starts_as_identity_scale) {
    layernorm_params_t p;
    cr_assert_eq(layernorm_alloc(&p, 5), 0);
    for (int j = 0; j < 5; j++) {
        cr_assert_float_eq(p.gamma[j], 1.0f, 0.0f);
        cr_assert_float_eq(p.beta[j], 0.0f, 0.0f);
    }
    layernorm_free(&p);
    layernorm_free(&p);
    cr_assert_eq(layernorm_alloc(&p, 0), -1);
}

Test(layernorm, constant_row_gives_beta) {
    // var = 0: the eps keeps the division finite and x - mean = 0, so y = beta.
    const float x[3] = {7, 7, 7}, gamma[3] = {1, 2, 3}, beta[3] = {0.5f, -1, 0};
    float y[3];
    layernorm_forward(x, gamma, beta, y, 1, 3, LAYERNORM_EPS);
    for (int j = 0; j < 3; j++) {
        cr_assert(!isnan(y[j]));
        cr_assert_float_eq(y[j], beta[j], 0.0f);
    }
}

Test(layernorm, in_place_matches_out_of_place) {
    enum { N = 3, D = 10 };
    float x[N * D], y[N * D], gamma[D], beta[D];
    rng_t rng;
    rng_seed(&rng, 5);
    rng_fill_normal(&rng, x, N * D, 1.0f, 2.0f);
    rng_fill_normal(&rng, gamma, D, 1.0f, 0.1f);
    rng_fill_normal(&rng, beta, D, 0.0f, 0.1f);
    layernorm_forward(x, gamma, beta, y, N, D, LAYERNORM_EPS);
    layernorm_forward(x, gamma, beta, x, N, D, LAYERNORM_EPS);
    cr_assert(memcmp(x, y, sizeof x) == 0);
}

Test(layernorm, ignores_shift_and_scale_of_a_row) {
    // LN(a x + b) = LN(x) for a > 0 (up to the tiny eps): the point of the layer.
    enum { D = 16 };
    float x[D], z[D], y1[D], y2[D], one[D], zero[D];
    rng_t rng;
    rng_seed(&rng, 6);
    rng_fill_normal(&rng, x, D, 0.0f, 1.0f);
    for (int j = 0; j < D; j++) {
        z[j] = 10.0f * x[j] + 3.0f;
        one[j] = 1.0f;
        zero[j] = 0.0f;
    }
    layernorm_forward(x, one, zero, y1, 1, D, LAYERNORM_EPS);
    layernorm_forward(z, one, zero, y2, 1, D, LAYERNORM_EPS);
    for (int j = 0; j < D; j++) cr_assert_float_eq(y1[j], y2[j], 1e-4f, "j = %d", j);
}

Test(layernorm, rows_are_independent) {
    // Normalising two rows together gives the same as one at a time.
    enum { D = 8 };
    float x[2 * D], y[2 * D], y0[D], y1[D], one[D], zero[D];
    rng_t rng;
    rng_seed(&rng, 7);
    rng_fill_normal(&rng, x, 2 * D, 0.0f, 3.0f);
    for (int j = 0; j < D; j++) one[j] = 1.0f, zero[j] = 0.0f;
    // Different leftovers in the outputs: a forward that writes nothing fails.
    for (int j = 0; j < D; j++) y[j] = y[D + j] = 1.0f, y0[j] = 2.0f, y1[j] = 3.0f;
    layernorm_forward(x, one, zero, y, 2, D, LAYERNORM_EPS);
    layernorm_forward(x, one, zero, y0, 1, D, LAYERNORM_EPS);
    layernorm_forward(x + D, one, zero, y1, 1, D, LAYERNORM_EPS);
    cr_assert(memcmp(y, y0, sizeof y0) == 0);
    cr_assert(memcmp(y + D, y1, sizeof y1) == 0);
}
