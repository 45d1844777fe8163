// test_attention.c -- scaled dot-product attention against hand computations.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "attention/attention.h"
#include "base/mat.h"
#include "base/rng.h"
#include "attention/softmax.h"

#include "helpers.h"

// Hand computation with d_k = 1, so sqrt(d_k) = 1:
//   query 1 = ln 3: scores (ln 3 * 0, ln 3 * 1) = (0, ln 3) -> exp (1, 3)
//                  -> weights (1/4, 3/4) -> out = 1/4 (4, 0) + 3/4 (0, 4) = (1, 3)
//   query 2 = 0:   scores (0, 0) -> weights (1/2, 1/2) -> out = (2, 2)
Test(attention, two_by_two_by_hand) {
    float q[2] = {logf(3.0f), 0.0f};
    float k[2] = {0.0f, 1.0f};
    float v[4] = {4, 0, 0, 4};
    float out[4], w[4];
    attention_forward(q, k, v, NULL, out, w, 2, 2, 1, 2);
    cr_assert_float_eq(w[0], 0.25f, 1e-6);
    cr_assert_float_eq(w[1], 0.75f, 1e-6);
    cr_assert_float_eq(w[2], 0.5f, 1e-6);
    cr_assert_float_eq(w[3], 0.5f, 1e-6);
    cr_assert_float_eq(out[0], 1.0f, 1e-5);
    cr_assert_float_eq(out[1], 3.0f, 1e-5);
    cr_assert_float_eq(out[2], 2.0f, 1e-5);
    cr_assert_float_eq(out[3], 2.0f, 1e-5);
}

// Hand computation with d_k = 4, so the scale is 1/2: q = (2 ln 3, 0, 0, 0),
// keys e1 and e2: raw scores (2 ln 3, 0) -> scaled (ln 3, 0) -> (3/4, 1/4).
Test(attention, scale_is_one_over_sqrt_dk) {
    float q[4] = {2.0f * logf(3.0f), 0, 0, 0};
    float k[8] = {1, 0, 0, 0, 0, 1, 0, 0};
    float s[2];
    attention_scores(q, k, s, 1, 2, 4);
    cr_assert_float_eq(s[0], logf(3.0f), 1e-6);
    cr_assert_float_eq(s[1], 0.0f, 1e-7);
    float v[2] = {1, 0}, out[1], w[2];
    attention_forward(q, k, v, NULL, out, w, 1, 2, 4, 1);
    cr_assert_float_eq(w[0], 0.75f, 1e-6);
    cr_assert_float_eq(out[0], 0.75f, 1e-6);
}

// The chapter's four-step example: query 3 = (1,1,1,1) scores 2 against every
// key, so it averages the values uniformly: (1+0+1)/3, (0+1+1)/3.
Test(attention, equal_scores_average_the_values) {
    float q[12] = {1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1};
    float k[12] = {1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0};
    float v[6] = {1, 0, 0, 1, 1, 1};
    float out[6], w[9];
    attention_forward(q, k, v, NULL, out, w, 3, 3, 4, 2);
    for (int j = 0; j < 3; j++) cr_assert_float_eq(w[6 + j], 1.0f / 3, 1e-6);
    cr_assert_float_eq(out[4], 2.0f / 3, 1e-6);
    cr_assert_float_eq(out[5], 2.0f / 3, 1e-6);
    // Query 1: scaled scores (1, 0, 0.5) -> e / (e + 1 + e^0.5) for key 1.
    double e = exp(1.0), z = e + 1.0 + exp(0.5);
    cr_assert_float_eq(w[0], e / z, 1e-6);
}

// Naive first: the four steps spelled out equal the one call, on many shapes
// including n = 1, m = 1, d = 1 and odd sizes.
Test(attention, forward_equals_four_explicit_steps) {
    static const int shapes[][4] = {{1, 1, 1, 1}, {1, 5, 3, 2}, {4, 1, 2, 3},
                                    {3, 7, 5, 1}, {8, 8, 16, 4}, {5, 9, 1, 6}};
    rng_t rng;
    rng_seed(&rng, 11);
    for (int s = 0; s < 6; s++) {
        int n = shapes[s][0], m = shapes[s][1], dk = shapes[s][2], dv = shapes[s][3];
        float q[128], k[144], v[64], w[81], out[64], w2[81], out2[64];
        rng_fill_normal(&rng, q, n * dk, 0, 1);
        rng_fill_normal(&rng, k, m * dk, 0, 1);
        rng_fill_normal(&rng, v, m * dv, 0, 1);
        attention_forward(q, k, v, NULL, out, w, n, m, dk, dv);
        mat_mul_bt(q, k, w2, n, dk, m);                 // 1. scores
        mat_scale(w2, n * m, 1.0f / sqrtf((float)dk));  // 2. scale
        softmax_rows(w2, n, m);                         // 3. normalise
        mat_mul(w2, v, out2, n, m, dv);                 // 4. weighted sum
        assert_floats_near(w, w2, n * m, 1e-6, "w");
        assert_floats_near(out, out2, n * dv, 1e-5, "out");
    }
}

// Weights are a probability distribution per query, so every output is a convex
// combination of the value rows: within [min, max] of each value column.
Test(attention, rows_sum_to_one_and_outputs_stay_inside_the_values) {
    enum { N = 6, M = 9, DK = 8, DV = 3 };
    rng_t rng;
    rng_seed(&rng, 12);
    float q[N * DK], k[M * DK], v[M * DV], w[N * M], out[N * DV];
    rng_fill_normal(&rng, q, N * DK, 0, 3);
    rng_fill_normal(&rng, k, M * DK, 0, 3);
    rng_fill_normal(&rng, v, M * DV, 0, 1);
    attention_forward(q, k, v, NULL, out, w, N, M, DK, DV);
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < M; j++) {
            cr_assert(w[i * M + j] >= 0.0f);
            s += w[i * M + j];
        }
        cr_assert_float_eq(s, 1.0, 1e-6);
    }
    for (int c = 0; c < DV; c++) {
        float lo = v[c], hi = v[c];
        for (int j = 1; j < M; j++) {
            lo = fminf(lo, v[j * DV + c]);
            hi = fmaxf(hi, v[j * DV + c]);
        }
        for (int i = 0; i < N; i++) {
            cr_assert(out[i * DV + c] >= lo - 1e-6f);
            cr_assert(out[i * DV + c] <= hi + 1e-6f);
        }
    }
}

// One key: it gets all the weight, and the output is its value.
Test(attention, single_key_returns_its_value) {
    float q[6] = {1, -2, 3, 0, 5, 1}, k[3] = {0.5f, 9, -1}, v[2] = {7, -3};
    float out[4], w[2];
    attention_forward(q, k, v, NULL, out, w, 2, 1, 3, 2);
    for (int i = 0; i < 2; i++) {
        cr_assert_float_eq(w[i], 1.0f, 0.0);
        cr_assert_float_eq(out[2 * i], 7.0f, 1e-6);
        cr_assert_float_eq(out[2 * i + 1], -3.0f, 1e-6);
    }
}

// A fully hidden row attends to nothing: zero weights, zero output, no NaN.
// A causal (lower-triangular) mask gives exactly zero above the diagonal.
Test(attention, masks_hide_keys_and_empty_rows_stay_finite) {
    enum { N = 3, D = 2 };
    float q[N * D] = {1, 2, 3, 4, 5, 6}, k[N * D] = {1, 0, 0, 1, 1, 1};
    float v[N * D] = {1, 2, 3, 4, 5, 6}, out[N * D], w[N * N];
    unsigned char mask[N * N] = {0, 0, 0, 1, 1, 0, 1, 1, 1};   // row 0 empty
    attention_forward(q, k, v, mask, out, w, N, N, D, D);
    for (int j = 0; j < N; j++) cr_assert(w[j] == 0.0f && !isnan(w[j]));
    cr_assert(out[0] == 0.0f && out[1] == 0.0f);
    cr_assert(w[1 * N + 2] == 0.0f);
    cr_assert_float_eq(w[3] + w[4], 1.0f, 1e-6);
    for (int i = 0; i < N * D; i++) cr_assert(isfinite(out[i]));
}
