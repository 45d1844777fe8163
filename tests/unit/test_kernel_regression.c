// test_kernel_regression.c -- Nadaraya-Watson weights and predictions.
#include <criterion/criterion.h>
#include <math.h>

#include "attention/kernel_regression.h"
#include "base/rng.h"

#include "helpers.h"


Test(kernel_regression, gaussian_kernel_values) {
    cr_assert_float_eq(nw_gaussian_kernel(0.0, 0.7), 1.0, 1e-12);
    // one width away: exp(-1/2) = 0.606531
    cr_assert_float_eq(nw_gaussian_kernel(0.7, 0.7), 0.606531, 1e-6);
    cr_assert_float_eq(nw_gaussian_kernel(-0.7, 0.7), 0.606531, 1e-6);
}

Test(kernel_regression, two_points_by_hand) {
    // Training points x = (0, 1), y = (0, 1); h = 1.
    // Query 0.5 sits halfway: both kernels are exp(-1/8), weights 1/2 each,
    // prediction 0.5.
    // Query 0: kernels exp(0) = 1 and exp(-1/2) = 0.606531, so
    // weights 1 / 1.606531 = 0.622459 and 0.377541; prediction 0.377541.
    const float xt[2] = {0.0f, 1.0f}, yt[2] = {0.0f, 1.0f};
    const float xq[2] = {0.5f, 0.0f};
    float w[4], y[2];
    cr_assert_eq(nw_weights(xq, 2, xt, 2, 1.0f, w), 0);
    nw_predict(w, yt, y, 2, 2);
    cr_assert_float_eq(w[0], 0.5f, EPS);
    cr_assert_float_eq(w[1], 0.5f, EPS);
    cr_assert_float_eq(y[0], 0.5f, EPS);
    cr_assert_float_eq(w[2], 0.622459f, EPS);
    cr_assert_float_eq(w[3], 0.377541f, EPS);
    cr_assert_float_eq(y[1], 0.377541f, EPS);
}

// Random data for the invariant tests: n_t points in [0, 5), n_q queries.
enum { NT = 40, NQ = 25 };

static void random_data(float *xt, float *yt, float *xq, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_uniform(&rng, xt, NT, 0.0f, 5.0f);
    rng_fill_normal(&rng, yt, NT, 1.0f, 2.0f);
    rng_fill_uniform(&rng, xq, NQ, 0.0f, 5.0f);
}

Test(kernel_regression, rows_are_distributions) {
    float xt[NT], yt[NT], xq[NQ], w[NQ * NT];
    random_data(xt, yt, xq, 1);
    const float widths[] = {0.001f, 0.1f, 1.0f, 1000.0f};
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(nw_weights(xq, NQ, xt, NT, widths[k], w), 0);
        for (int i = 0; i < NQ; i++) {
            double sum = 0.0;
            for (int j = 0; j < NT; j++) {
                cr_assert(w[i * NT + j] >= 0.0f && !isnan(w[i * NT + j]));
                sum += w[i * NT + j];
            }
            cr_assert_float_eq(sum, 1.0, 1e-5, "h = %g, row %d", widths[k], i);
        }
    }
}

Test(kernel_regression, tiny_width_is_nearest_neighbour) {
    float xt[NT], yt[NT], xq[NQ], w[NQ * NT], y[NQ];
    random_data(xt, yt, xq, 2);
    cr_assert_eq(nw_weights(xq, NQ, xt, NT, 1e-4f, w), 0);
    nw_predict(w, yt, y, NQ, NT);
    for (int i = 0; i < NQ; i++) {
        int near = 0;
        for (int j = 1; j < NT; j++)
            if (fabsf(xt[j] - xq[i]) < fabsf(xt[near] - xq[i])) near = j;
        cr_assert_float_eq(y[i], yt[near], 1e-4f, "query %d", i);
    }
}

Test(kernel_regression, huge_width_is_global_mean) {
    float xt[NT], yt[NT], xq[NQ], w[NQ * NT], y[NQ];
    random_data(xt, yt, xq, 3);
    double mean = 0.0;
    for (int j = 0; j < NT; j++) mean += yt[j] / NT;
    cr_assert_eq(nw_weights(xq, NQ, xt, NT, 1e4f, w), 0);
    nw_predict(w, yt, y, NQ, NT);
    for (int i = 0; i < NQ; i++) cr_assert_float_eq(y[i], mean, 1e-4, "query %d", i);
}

Test(kernel_regression, prediction_stays_within_targets) {
    // A weighted average never leaves [min y, max y].
    float xt[NT], yt[NT], xq[NQ], w[NQ * NT], y[NQ];
    random_data(xt, yt, xq, 4);
    float lo = yt[0], hi = yt[0];
    for (int j = 1; j < NT; j++) {
        lo = fminf(lo, yt[j]);
        hi = fmaxf(hi, yt[j]);
    }
    cr_assert_eq(nw_weights(xq, NQ, xt, NT, 0.3f, w), 0);
    nw_predict(w, yt, y, NQ, NT);
    for (int i = 0; i < NQ; i++) cr_assert(y[i] >= lo - EPS && y[i] <= hi + EPS);
}

Test(kernel_regression, closer_points_weigh_more) {
    // For one query, the weights fall as the distance grows.
    const float xt[5] = {-2.0f, -0.5f, 0.1f, 1.0f, 3.0f}, xq[1] = {0.0f};
    float w[5];
    cr_assert_eq(nw_weights(xq, 1, xt, 5, 0.8f, w), 0);
    cr_assert(w[2] > w[1] && w[1] > w[3] && w[3] > w[0] && w[0] > w[4]);
}

Test(kernel_regression, shifting_everything_changes_nothing) {
    // Only differences x - x_j matter: moving queries and keys together
    // leaves the weights unchanged.
    float xt[NT], yt[NT], xq[NQ], w[NQ * NT], w2[NQ * NT];
    random_data(xt, yt, xq, 5);
    cr_assert_eq(nw_weights(xq, NQ, xt, NT, 0.5f, w), 0);
    for (int j = 0; j < NT; j++) xt[j] += 10.0f;
    for (int i = 0; i < NQ; i++) xq[i] += 10.0f;
    cr_assert_eq(nw_weights(xq, NQ, xt, NT, 0.5f, w2), 0);
    assert_floats_near(w, w2, NQ * NT, 1e-4f, "w");
}

Test(kernel_regression, weights_are_normalised_kernels) {
    // Each weight equals K(x - x_j) / sum_l K(x - x_l), the definition.
    const float xt[3] = {0.0f, 0.4f, 1.5f}, xq[1] = {0.3f};
    float w[3];
    const float h = 0.6f;
    cr_assert_eq(nw_weights(xq, 1, xt, 3, h, w), 0);
    double k[3], sum = 0.0;
    for (int j = 0; j < 3; j++) sum += (k[j] = nw_gaussian_kernel(xq[0] - xt[j], h));
    for (int j = 0; j < 3; j++) cr_assert_float_eq(w[j], k[j] / sum, 1e-6);
}

Test(kernel_regression, bad_width_is_rejected) {
    const float xt[2] = {0.0f, 1.0f}, xq[1] = {0.5f};
    float w[2] = {-7.0f, -7.0f};
    cr_assert_eq(nw_weights(xq, 1, xt, 2, 0.0f, w), -1);
    cr_assert_eq(nw_weights(xq, 1, xt, 2, -1.0f, w), -1);
    cr_assert_eq(nw_weights(xq, 1, xt, 2, NAN, w), -1);
    cr_assert_eq(nw_weights(xq, 0, xt, 2, 1.0f, w), 0);   // no queries: nothing to do
    cr_assert_eq(nw_weights(xq, -1, xt, 2, 1.0f, w), -1);
    cr_assert_float_eq(w[0], -7.0f, 0.0f);   // untouched
}

Test(kernel_regression, predict_with_one_hot_weights_picks_target) {
    const float w[6] = {0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f};
    const float yt[3] = {5.0f, -2.0f, 9.0f};
    float y[2];
    nw_predict(w, yt, y, 2, 3);
    cr_assert_float_eq(y[0], -2.0f, 0.0f);
    cr_assert_float_eq(y[1], 9.0f, 0.0f);
}
