// test_linear_attention.c -- elu + 1 features, the reordering, the RNN view.
#include <criterion/criterion.h>
#include <math.h>

#include "base/mat.h"
#include "base/rng.h"
#include "variants/linear_attention.h"

static void fill(float *x, int count, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, count, 0.0f, 1.0f);
}

// elu(x) + 1 by hand: x + 1 for x > 0, exp(x) otherwise; always > 0.
Test(linattn, feature_by_hand) {
    float x[4] = {2.0f, 0.0f, -1.0f, -100.0f}, phi[4];
    linattn_feature(x, phi, 4);
    cr_assert_float_eq(phi[0], 3.0f, 0);
    cr_assert_float_eq(phi[1], 1.0f, 0);
    cr_assert_float_eq(phi[2], expf(-1.0f), 1e-7);
    cr_assert(phi[3] >= 0.0f);
}

// The reordering phi(Q) (phi(K)^T V) equals the quadratic form.
Test(linattn, reordering_equals_quadratic) {
    enum { N = 11, M = 17, DK = 6, DV = 4 };
    float q[N * DK], k[M * DK], v[M * DV], o1[N * DV], o2[N * DV], w[N * M];
    fill(q, N * DK, 1), fill(k, M * DK, 2), fill(v, M * DV, 3);
    cr_assert_eq(linattn_forward_quadratic(q, k, v, NULL, o1, w, N, M, DK, DV), 0);
    cr_assert_eq(linattn_forward(q, k, v, o2, N, M, DK, DV), 0);
    cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-5);
    for (int i = 0; i < N; i++) { // the weights are rows of a stochastic matrix
        double s = 0;
        for (int j = 0; j < M; j++) {
            cr_assert(w[i * M + j] > 0.0f);
            s += w[i * M + j];
        }
        cr_assert_float_eq(s, 1.0, 1e-5);
    }
}

// The recurrence (RNN view) equals the quadratic form with a causal mask.
Test(linattn, causal_recurrence_equals_masked_quadratic) {
    enum { N = 15, DK = 5, DV = 3 };
    float q[N * DK], k[N * DK], v[N * DV], o1[N * DV], o2[N * DV], w[N * N];
    unsigned char mask[N * N];
    fill(q, N * DK, 4), fill(k, N * DK, 5), fill(v, N * DV, 6);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) mask[i * N + j] = j <= i;
    cr_assert_eq(linattn_forward_quadratic(q, k, v, mask, o1, w, N, N, DK, DV), 0);
    cr_assert_eq(linattn_causal(q, k, v, o2, N, DK, DV), 0);
    cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-5);
    // the first query sees only key 0: its output is v_0 exactly
    for (int c = 0; c < DV; c++) cr_assert_float_eq(o2[c], v[c], 1e-6);
}

// The last causal output equals non-causal attention over all keys.
Test(linattn, last_causal_row_is_full_attention) {
    enum { N = 9, DK = 4, DV = 2 };
    float q[N * DK], k[N * DK], v[N * DV], o1[N * DV], o2[N * DV];
    fill(q, N * DK, 7), fill(k, N * DK, 8), fill(v, N * DV, 9);
    linattn_causal(q, k, v, o1, N, DK, DV);
    linattn_forward(q, k, v, o2, N, N, DK, DV);
    cr_assert_leq(mat_max_abs_diff(o1 + (N - 1) * DV, o2 + (N - 1) * DV, DV), 1e-6);
}

// m = 0 keys: zero output.
Test(linattn, no_keys_gives_zeros) {
    float q[3] = {1, 2, 3}, out[3] = {7, 7, 7};
    cr_assert_eq(linattn_forward(q, NULL, NULL, out, 1, 0, 3, 3), 0);
    for (int c = 0; c < 3; c++) cr_assert_eq(out[c], 0.0f);
}
