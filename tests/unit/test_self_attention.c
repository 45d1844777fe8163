// test_self_attention.c -- simplified and trainable self-attention.
//
// Suites are named after the function they test, so that the graded tests of
// the exercise (self_attn_forward) can be selected by suite.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "attention/attn_stats.h"
#include "base/rng.h"
#include "attention/self_attention.h"

#include "helpers.h"

// Fill a layer's weights and an input from a seed.
static void random_layer(self_attn_params_t *p, float *x, int n, int d_model, int d_k,
                         int d_v, uint64_t seed) {
    cr_assert_eq(self_attn_alloc(p, d_model, d_k, d_v, 0), 0);
    rng_t rng;
    rng_seed(&rng, seed);
    self_attn_init(p, &rng);
    rng_fill_normal(&rng, x, n * d_model, 0, 1);
}

Test(self_attn_simple, simple_hand_checked) {
    // x = [[1, 0], [0, 1]], d = 2. Scores x x^T / sqrt(2) = [[s, 0], [0, s]],
    // s = 1/sqrt(2) = 0.707107. Row 1: softmax([s, 0]) = [e^s, 1] / (e^s + 1)
    // = [2.028115, 1] / 3.028115 = [0.669762, 0.330238]; row 2 is its mirror.
    // out = weights x = weights (x is the identity).
    const float x[4] = {1, 0, 0, 1};
    float w[4] = {NAN, NAN, NAN, NAN}, out[4] = {NAN, NAN, NAN, NAN};
    self_attn_simple(x, NULL, out, w, 2, 2);
    const float want[4] = {0.669762f, 0.330238f, 0.330238f, 0.669762f};
    for (int i = 0; i < 4; i++) {
        cr_assert_float_eq(w[i], want[i], 1e-5, "w[%d]", i);
        cr_assert_float_eq(out[i], want[i], 1e-5, "out[%d]", i);
    }
}

Test(self_attn_forward, trainable_hand_checked) {
    // d_model = 2, d_k = d_v = 1, x = the 2 x 2 identity, so Q, K, V are the
    // weight columns: q = [1, 0], k = [0, 1], v = [1, 2].
    // Scores q_i k_j / sqrt(1): row 1 = [0, 1], row 2 = [0, 0].
    // Row 1: softmax([0, 1]) = [1, e] / (1 + e) = [0.268941, 0.731059];
    //        out = 0.268941 * 1 + 0.731059 * 2 = 1.731059.
    // Row 2: [0.5, 0.5]; out = 0.5 * 1 + 0.5 * 2 = 1.5.
    self_attn_params_t p;
    cr_assert_eq(self_attn_alloc(&p, 2, 1, 1, 0), 0);
    const float wq[2] = {1, 0}, wk[2] = {0, 1}, wv[2] = {1, 2}, x[4] = {1, 0, 0, 1};
    memcpy(p.w_q, wq, sizeof wq);
    memcpy(p.w_k, wk, sizeof wk);
    memcpy(p.w_v, wv, sizeof wv);
    float q[2], k[2], v[2], w[4] = {NAN, NAN, NAN, NAN}, out[2] = {NAN, NAN};
    self_attn_forward(&p, x, NULL, q, k, v, w, out, 2);
    cr_assert_float_eq(q[0], 1, 1e-6);
    cr_assert_float_eq(k[1], 1, 1e-6);
    cr_assert_float_eq(v[1], 2, 1e-6);
    const float want_w[4] = {0.268941f, 0.731059f, 0.5f, 0.5f};
    assert_floats_near(w, want_w, 4, 1e-5, "w");
    cr_assert_float_eq(out[0], 1.731059f, 1e-5);
    cr_assert_float_eq(out[1], 1.5f, 1e-5);
    self_attn_free(&p);
}

Test(self_attn_forward, biases_are_added_to_projections) {
    // Same layer as above plus b_v = [10]: every value, and so every output
    // (a weighted average of values), grows by exactly 10.
    self_attn_params_t p;
    cr_assert_eq(self_attn_alloc(&p, 2, 1, 1, 1), 0);
    p.w_q[0] = 1;
    p.w_k[1] = 1;
    p.w_v[0] = 1;
    p.w_v[1] = 2;
    p.b_v[0] = 10;
    const float x[4] = {1, 0, 0, 1};
    float q[2], k[2], v[2], w[4], out[2] = {NAN, NAN};
    self_attn_forward(&p, x, NULL, q, k, v, w, out, 2);
    cr_assert_float_eq(out[0], 11.731059f, 1e-4);
    cr_assert_float_eq(out[1], 11.5f, 1e-4);
    self_attn_free(&p);
}

Test(self_attn_forward, weights_are_row_stochastic) {
    enum { N = 9, D = 6, DK = 4, DV = 3 };
    self_attn_params_t p;
    float x[N * D], q[N * DK], k[N * DK], v[N * DV], w[N * N], out[N * DV];
    random_layer(&p, x, N, D, DK, DV, 11);
    self_attn_forward(&p, x, NULL, q, k, v, w, out, N);
    assert_row_stochastic(w, N, N, 1e-5);
    self_attn_free(&p);
}

Test(self_attn_forward, outputs_lie_between_value_extremes) {
    // Each output is a convex combination of the rows of V.
    enum { N = 7, D = 5, DK = 5, DV = 2 };
    self_attn_params_t p;
    float x[N * D], q[N * DK], k[N * DK], v[N * DV], w[N * N], out[N * DV];
    random_layer(&p, x, N, D, DK, DV, 12);
    self_attn_forward(&p, x, NULL, q, k, v, w, out, N);
    for (int c = 0; c < DV; c++) {
        float lo = v[c], hi = v[c];
        for (int j = 1; j < N; j++) {
            lo = fminf(lo, v[j * DV + c]);
            hi = fmaxf(hi, v[j * DV + c]);
        }
        for (int i = 0; i < N; i++) {
            cr_assert_geq(out[i * DV + c], lo - 1e-5f);
            cr_assert_leq(out[i * DV + c], hi + 1e-5f);
        }
    }
    self_attn_free(&p);
}

Test(self_attn_forward, permutation_equivariance) {
    // Shuffle the input rows: the output rows shuffle the same way, and the
    // weight matrix has its rows and columns shuffled.
    enum { N = 8, D = 6, DK = 4, DV = 5 };
    const int perm[N] = {3, 7, 0, 5, 1, 6, 2, 4};
    self_attn_params_t p;
    float x[N * D], xp[N * D], q[N * DK], k[N * DK], v[N * DV];
    float w[N * N], wp[N * N], out[N * DV], outp[N * DV];
    random_layer(&p, x, N, D, DK, DV, 13);
    for (int i = 0; i < N; i++) memcpy(xp + i * D, x + perm[i] * D, sizeof(float) * D);
    self_attn_forward(&p, x, NULL, q, k, v, w, out, N);
    self_attn_forward(&p, xp, NULL, q, k, v, wp, outp, N);
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < DV; c++)
            cr_assert_float_eq(outp[i * DV + c], out[perm[i] * DV + c], 1e-5);
        for (int j = 0; j < N; j++)
            cr_assert_float_eq(wp[i * N + j], w[perm[i] * N + perm[j]], 1e-6);
    }
    self_attn_free(&p);
}

Test(self_attn_simple, simple_is_permutation_equivariant) {
    enum { N = 5, D = 3 };
    const int perm[N] = {4, 2, 0, 1, 3};
    float x[N * D], xp[N * D], w[N * N], out[N * D], wp[N * N], outp[N * D];
    rng_t rng;
    rng_seed(&rng, 14);
    rng_fill_normal(&rng, x, N * D, 0, 1);
    for (int i = 0; i < N; i++) memcpy(xp + i * D, x + perm[i] * D, sizeof(float) * D);
    self_attn_simple(x, NULL, out, w, N, D);
    self_attn_simple(xp, NULL, outp, wp, N, D);
    for (int i = 0; i < N; i++)
        for (int c = 0; c < D; c++)
            cr_assert_float_eq(outp[i * D + c], out[perm[i] * D + c], 1e-5);
}

Test(self_attn_forward, identity_projections_reduce_to_simple) {
    enum { N = 6, D = 4 };
    self_attn_params_t p;
    cr_assert_eq(self_attn_alloc(&p, D, D, D, 0), 0);
    for (int i = 0; i < D; i++) {
        p.w_q[i * D + i] = 1;
        p.w_k[i * D + i] = 1;
        p.w_v[i * D + i] = 1;
    }
    float x[N * D], q[N * D], k[N * D], v[N * D], w[N * N], out[N * D];
    float ws[N * N], outs[N * D];
    rng_t rng;
    rng_seed(&rng, 15);
    rng_fill_normal(&rng, x, N * D, 0, 1);
    self_attn_forward(&p, x, NULL, q, k, v, w, out, N);
    self_attn_simple(x, NULL, outs, ws, N, D);
    assert_floats_near(w, ws, N * N, 1e-6, "w");
    assert_floats_near(out, outs, N * D, 1e-6, "out");
    self_attn_free(&p);
}

Test(self_attn_simple, simple_prefers_the_token_itself) {
    // With no weights, x_i . x_i = |x_i|^2 is usually the largest score in row i
    // (it is whenever all rows have the same norm, by Cauchy-Schwarz).
    enum { N = 6, D = 32 };
    float x[N * D], w[N * N], out[N * D];
    rng_t rng;
    rng_seed(&rng, 16);
    rng_fill_normal(&rng, x, N * D, 0, 1);
    for (int i = 0; i < N; i++) {   // normalise every row to length sqrt(D)
        double s = 0;
        for (int c = 0; c < D; c++) s += (double)x[i * D + c] * x[i * D + c];
        for (int c = 0; c < D; c++) x[i * D + c] *= (float)sqrt(D / s);
    }
    self_attn_simple(x, NULL, out, w, N, D);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (j != i) cr_assert_gt(w[i * N + i], w[i * N + j], "row %d col %d", i, j);
}

Test(self_attn_forward, self_only_mask_returns_values) {
    // A mask that shows each token only itself: weights = identity, out = V.
    enum { N = 4, D = 3, DK = 2, DV = 2 };
    self_attn_params_t p;
    float x[N * D], q[N * DK], k[N * DK], v[N * DV], w[N * N], out[N * DV];
    unsigned char mask[N * N] = {0};
    for (int i = 0; i < N; i++) mask[i * N + i] = 1;
    random_layer(&p, x, N, D, DK, DV, 17);
    self_attn_forward(&p, x, mask, q, k, v, w, out, N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) cr_assert_float_eq(w[i * N + j], i == j, 1e-7);
    assert_floats_near(out, v, N * DV, 1e-6, "out");
    self_attn_free(&p);
}

Test(self_attn_forward, single_token_attends_to_itself) {
    enum { D = 3, DK = 2, DV = 2 };
    self_attn_params_t p;
    float x[D], q[DK], k[DK], v[DV], w[1], out[DV];
    random_layer(&p, x, 1, D, DK, DV, 18);
    self_attn_forward(&p, x, NULL, q, k, v, w, out, 1);
    cr_assert_float_eq(w[0], 1.0f, 1e-7);
    assert_floats_near(out, v, DV, 1e-6, "out");
    self_attn_free(&p);
}

Test(self_attn_alloc, alloc_init_free) {
    self_attn_params_t p;
    cr_assert_eq(self_attn_alloc(&p, 4, 3, 2, 1), 0);
    cr_assert(p.w_q && p.w_k && p.w_v && p.b_q && p.b_k && p.b_v);
    cr_assert_eq(p.d_model, 4);
    cr_assert_eq(p.d_k, 3);
    cr_assert_eq(p.d_v, 2);
    rng_t rng;
    rng_seed(&rng, 19);
    self_attn_init(&p, &rng);
    double a = sqrt(6.0 / (4 + 3)), nonzero = 0;
    for (int i = 0; i < 12; i++) {
        cr_assert(fabs(p.w_q[i]) <= a + 1e-6);
        nonzero += p.w_q[i] != 0.0f;
    }
    cr_assert_gt(nonzero, 0);
    for (int i = 0; i < 3; i++) cr_assert_eq(p.b_q[i], 0.0f);
    self_attn_free(&p);
    cr_assert_null(p.w_q);
    self_attn_free(&p);   // twice is harmless
}
