// test_ffn.c -- the position-wise feed-forward network.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/ffn.h"
#include "base/rng.h"

#include "helpers.h"


// d_model = 2, d_ff = 3:
//   W_1 = [[1, -1, 0.5],      b_1 = (0, 1, -0.5)
//          [2,  0, -1 ]]
//   W_2 = [[1, 0],            b_2 = (0.5, -0.5)
//          [0, 1],
//          [1, 1]]
static void tiny(ffn_params_t *p) {
    const float w1[6] = {1, -1, 0.5f, 2, 0, -1}, b1[3] = {0, 1, -0.5f};
    const float w2[6] = {1, 0, 0, 1, 1, 1}, b2[2] = {0.5f, -0.5f};
    cr_assert_eq(ffn_alloc(p, 2, 3), 0);
    memcpy(p->w1, w1, sizeof w1);
    memcpy(p->b1, b1, sizeof b1);
    memcpy(p->w2, w2, sizeof w2);
    memcpy(p->b2, b2, sizeof b2);
}

Test(ffn, tiny_by_hand) {
    // x_0 = (1, 1):    x W_1 = (3, -1, -0.5); + b_1 = (3, 0, -1); ReLU (3, 0, 0)
    //                  (3, 0, 0) W_2 = (3, 0); + b_2 = (3.5, -0.5)
    // x_1 = (-1, 0.5): x W_1 = (0, 1, -1);    + b_1 = (0, 2, -1.5); ReLU (0, 2, 0)
    //                  (0, 2, 0) W_2 = (0, 2); + b_2 = (0.5, 1.5)
    ffn_params_t p;
    tiny(&p);
    const float x[4] = {1, 1, -1, 0.5f};
    const float expect_h[6] = {3, 0, 0, 0, 2, 0};
    const float expect_y[4] = {3.5f, -0.5f, 0.5f, 1.5f};
    float hidden[6], y[4];
    ffn_forward(&p, x, hidden, y, 2);
    assert_floats_near(hidden, expect_h, 6, EPS, "hidden");
    assert_floats_near(y, expect_y, 4, EPS, "y");
    ffn_free(&p);
}

Test(ffn, shapes_and_no_writes_outside) {
    // x (3, 5) -> hidden (3, 7) -> y (3, 5); sentinels around both outputs stay.
    enum { N = 3, D = 5, F = 7, PAD = 4 };
    ffn_params_t p;
    rng_t rng;
    rng_seed(&rng, 2);
    cr_assert_eq(ffn_alloc(&p, D, F), 0);
    ffn_init(&p, &rng);
    float x[N * D], hid[N * F + PAD], y[N * D + PAD];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    for (int i = 0; i < PAD; i++) hid[N * F + i] = y[N * D + i] = 12345.0f;
    // NaN in every output cell first: a forward that leaves one unwritten fails
    // the finiteness checks below (a fresh stack would hold zeros, which pass).
    for (int i = 0; i < N * F; i++) hid[i] = NAN;
    for (int i = 0; i < N * D; i++) y[i] = NAN;
    ffn_forward(&p, x, hid, y, N);
    for (int i = 0; i < PAD; i++) {
        cr_assert_float_eq(hid[N * F + i], 12345.0f, 0.0f);
        cr_assert_float_eq(y[N * D + i], 12345.0f, 0.0f);
    }
    for (int i = 0; i < N * F; i++) cr_assert(hid[i] >= 0.0f && isfinite(hid[i]));
    for (int i = 0; i < N * D; i++) cr_assert(isfinite(y[i]));
    cr_assert_eq(ffn_param_count(&p), 2L * D * F + F + D);
    ffn_free(&p);
}

Test(ffn, param_count_512_2048) {
    // 2 * 512 * 2048 + 2048 + 512 = 2097152 + 2560 = 2099712.
    ffn_params_t p;
    cr_assert_eq(ffn_alloc(&p, 512, 2048), 0);
    cr_assert_eq(ffn_param_count(&p), 2099712L);
    ffn_free(&p);
    ffn_free(&p);
    cr_assert_eq(ffn_alloc(&p, 0, 4), -1);
}

Test(ffn, xavier_bounds_and_zero_biases) {
    enum { D = 8, F = 24 };
    ffn_params_t p;
    rng_t rng;
    rng_seed(&rng, 3);
    cr_assert_eq(ffn_alloc(&p, D, F), 0);
    p.b1[0] = p.b2[0] = 9.0f;
    ffn_init(&p, &rng);
    float a = sqrtf(6.0f / (D + F));   // the same bound for (D, F) and (F, D)
    for (int i = 0; i < D * F; i++) {
        cr_assert(fabsf(p.w1[i]) <= a);
        cr_assert(fabsf(p.w2[i]) <= a);
    }
    for (int i = 0; i < F; i++) cr_assert_float_eq(p.b1[i], 0.0f, 0.0f);
    for (int i = 0; i < D; i++) cr_assert_float_eq(p.b2[i], 0.0f, 0.0f);
    ffn_free(&p);
}

Test(ffn, position_wise) {
    // Each row is transformed on its own: a row alone gives the same result as
    // inside a batch, and permuting the rows permutes the outputs.
    enum { N = 4, D = 6, F = 10 };
    const int perm[N] = {3, 1, 0, 2};
    ffn_params_t p;
    rng_t rng;
    rng_seed(&rng, 4);
    cr_assert_eq(ffn_alloc(&p, D, F), 0);
    ffn_init(&p, &rng);
    rng_fill_normal(&rng, p.b1, F, 0.0f, 0.1f);
    rng_fill_normal(&rng, p.b2, D, 0.0f, 0.1f);
    float x[N * D], xp[N * D], hid[N * F], y[N * D], yp[N * D], y1[D];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    for (int i = 0; i < N; i++) memcpy(xp + i * D, x + perm[i] * D, sizeof(float) * D);
    // Different contents in the three outputs first: a forward that writes
    // nothing must not pass by comparing equal leftovers (fresh stack is zeros).
    for (int i = 0; i < N * D; i++) y[i] = 1.0f, yp[i] = 2.0f;
    for (int j = 0; j < D; j++) y1[j] = 3.0f;
    ffn_forward(&p, x, hid, y, N);
    ffn_forward(&p, xp, hid, yp, N);
    for (int i = 0; i < N; i++) {
        cr_assert(memcmp(yp + i * D, y + perm[i] * D, sizeof(float) * D) == 0,
                  "row %d", i);
        ffn_forward(&p, x + i * D, hid, y1, 1);
        cr_assert(memcmp(y1, y + i * D, sizeof y1) == 0, "row %d alone", i);
    }
    ffn_free(&p);
}

Test(ffn, relu_kills_negative_pre_activations) {
    // With W_1 = 0 and b_1 < 0 every hidden unit is cut to 0, so y = b_2.
    ffn_params_t p;
    cr_assert_eq(ffn_alloc(&p, 3, 4), 0);
    for (int i = 0; i < 4; i++) p.b1[i] = -1.0f;
    for (int i = 0; i < 12; i++) p.w2[i] = 1.0f;
    for (int i = 0; i < 3; i++) p.b2[i] = (float)i;
    const float x[3] = {5, -5, 2};
    float hid[4], y[3];
    ffn_forward(&p, x, hid, y, 1);
    for (int i = 0; i < 4; i++) cr_assert_float_eq(hid[i], 0.0f, 0.0f);
    for (int i = 0; i < 3; i++) cr_assert_float_eq(y[i], (float)i, 0.0f);
    ffn_free(&p);
}
