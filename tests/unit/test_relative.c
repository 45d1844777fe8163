// test_relative.c -- clipped relative distances and relative-position attention.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "attention/attention.h"
#include "base/mat.h"
#include "base/rng.h"
#include "variants/relative.h"

// By hand, n = m = 4, k_max = 1: offsets j - i clipped to [-1, 1], plus 1.
Test(relpos, index_by_hand) {
    int idx[16], want[16] = {1, 2, 2, 2, 0, 1, 2, 2, 0, 0, 1, 2, 0, 0, 0, 1};
    relpos_index(idx, 4, 4, 1);
    for (int e = 0; e < 16; e++) cr_assert_eq(idx[e], want[e], "entry %d", e);
}

// The diagonal is offset 0 (row k_max), and a large k_max clips nothing.
Test(relpos, index_diagonal_and_no_clipping) {
    enum { N = 6, K = 10 };
    int idx[N * N];
    relpos_index(idx, N, N, K);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) cr_assert_eq(idx[i * N + j], j - i + K);
}

// Rectangular, and k_max = 0: every offset maps to row 0.
Test(relpos, index_rectangular_and_zero) {
    int idx[2 * 5];
    relpos_index(idx, 2, 5, 0);
    for (int e = 0; e < 10; e++) cr_assert_eq(idx[e], 0);
    relpos_index(idx, 2, 5, 2);
    cr_assert_eq(idx[0 * 5 + 4], 4);      // offset 4 clipped to 2
    cr_assert_eq(idx[1 * 5 + 0], 1);      // offset -1
}

static void fill(float *x, int count, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, count, 0.0f, 1.0f);
}

// Zero embeddings: relative attention is standard attention.
Test(relpos, zero_embeddings_give_standard_attention) {
    enum { N = 7, M = 9, DK = 5, DV = 3, K = 2 };
    float q[N * DK], k[M * DK], v[M * DV], ek[(2 * K + 1) * DK] = {0};
    float ev[(2 * K + 1) * DV] = {0};
    float o1[N * DV], o2[N * DV], w1[N * M], w2[N * M];
    fill(q, N * DK, 1), fill(k, M * DK, 2), fill(v, M * DV, 3);
    relpos_forward(q, k, v, &(relpos_t){ek, ev, K, DK, DV}, NULL, o1, w1, N, M);
    attention_forward(q, k, v, NULL, o2, w2, N, M, DK, DV);
    cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-6);
    cr_assert_leq(mat_max_abs_diff(w1, w2, N * M), 1e-6);
}

// A value embedding that is the same for every offset shifts every output
// row by that vector (the weights sum to 1).
Test(relpos, constant_value_embedding_shifts_output) {
    enum { N = 4, DK = 3, DV = 2, K = 1 };
    float q[N * DK], k[N * DK], v[N * DV], ek[3 * DK], ev[3 * DV];
    float o1[N * DV], o2[N * DV], w[N * N];
    fill(q, N * DK, 4), fill(k, N * DK, 5), fill(v, N * DV, 6), fill(ek, 3 * DK, 7);
    for (int r = 0; r < 3; r++) ev[r * DV] = 0.5f, ev[r * DV + 1] = -2.0f;
    relpos_forward(q, k, v, &(relpos_t){ek, NULL, K, DK, DV}, NULL, o1, w, N, N);
    relpos_forward(q, k, v, &(relpos_t){ek, ev, K, DK, DV}, NULL, o2, w, N, N);
    for (int i = 0; i < N; i++) {
        cr_assert_float_eq(o2[i * DV], o1[i * DV] + 0.5f, 1e-5);
        cr_assert_float_eq(o2[i * DV + 1], o1[i * DV + 1] - 2.0f, 1e-5);
    }
}

// Hand-computed: one query, two keys, d_k = 1; k_max = 1.
// q = 1, k = (0, 0), a_K = (-, 0, ln 3): scores 0 and ln 3 -> weights 1/4, 3/4.
Test(relpos, weights_by_hand) {
    float q[1] = {1}, k[2] = {0, 0}, v[2] = {4, 8}, ek[3] = {0, 0, logf(3.0f)};
    float out[1], w[2];
    relpos_forward(q, k, v, &(relpos_t){ek, NULL, 1, 1, 1}, NULL, out, w, 1, 2);
    cr_assert_float_eq(w[0], 0.25f, 1e-6);
    cr_assert_float_eq(w[1], 0.75f, 1e-6);
    cr_assert_float_eq(out[0], 7.0f, 1e-5);
}

// A fully masked row: zero weights and zero output.
Test(relpos, masked_row_is_zero) {
    float q[2] = {1, 2}, k[2] = {1, -1}, v[2] = {3, 4}, ek[3] = {1, 2, 3};
    float ev[3] = {1, 1, 1}, out[2], w[4];
    unsigned char mask[4] = {1, 1, 0, 0};
    relpos_forward(q, k, v, &(relpos_t){ek, ev, 1, 1, 1}, mask, out, w, 2, 2);
    cr_assert_eq(out[1], 0.0f);
    cr_assert_eq(w[2], 0.0f);
    cr_assert_eq(w[3], 0.0f);
    cr_assert_float_eq(w[0] + w[1], 1.0f, 1e-6);
}
