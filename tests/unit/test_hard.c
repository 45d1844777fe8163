// test_hard.c -- hard (argmax) attention.
#include <criterion/criterion.h>
#include <math.h>

#include "attention/attention.h"
#include "attention/softmax.h"
#include "base/mat.h"
#include "base/rng.h"
#include "variants/hard.h"

// By hand: q = (1, 0); keys score 0.5, 2, -1 -> key 1 wins.
Test(hard, picks_the_best_key_by_hand) {
    float q[2] = {1, 0}, k[6] = {0.5f, 9, 2, -3, -1, 0}, v[6] = {1, 2, 3, 4, 5, 6};
    float out[2];
    int idx;
    hard_forward(q, k, v, NULL, out, &idx, 1, 3, 2, 2);
    cr_assert_eq(idx, 1);
    cr_assert_eq(out[0], 3.0f);
    cr_assert_eq(out[1], 4.0f);
}

// Ties go to the first key; a mask can hide the winner; nothing visible -> -1, 0.
Test(hard, ties_masks_and_empty_rows) {
    float q[1] = {1}, k[3] = {2, 2, 1}, v[3] = {10, 20, 30}, out[1];
    int idx;
    hard_forward(q, k, v, NULL, out, &idx, 1, 3, 1, 1);
    cr_assert_eq(idx, 0);
    unsigned char m1[3] = {0, 0, 1}, m0[3] = {0, 0, 0};
    hard_forward(q, k, v, m1, out, &idx, 1, 3, 1, 1);
    cr_assert_eq(idx, 2);
    cr_assert_eq(out[0], 30.0f);
    hard_forward(q, k, v, m0, out, &idx, 1, 3, 1, 1);
    cr_assert_eq(idx, -1);
    cr_assert_eq(out[0], 0.0f);
    hard_forward(q, k, v, NULL, out, &idx, 1, 0, 1, 1);
    cr_assert_eq(idx, -1);
}

// Hard attention is the zero-temperature limit of soft attention: scale the
// queries up and softmax attention's output approaches the hard output.
Test(hard, limit_of_soft_attention) {
    enum { N = 6, M = 8, D = 4 };
    float q[N * D], k[M * D], v[M * D], hq[N * D], out_h[N * D], out_s[N * D], w[N * M];
    rng_t rng;
    rng_seed(&rng, 3);
    rng_fill_normal(&rng, q, N * D, 0, 1);
    rng_fill_normal(&rng, k, M * D, 0, 1);
    rng_fill_normal(&rng, v, M * D, 0, 1);
    hard_forward(q, k, v, NULL, out_h, NULL, N, M, D, D);
    for (int e = 0; e < N * D; e++) hq[e] = q[e] * 1000.0f;
    attention_forward(hq, k, v, NULL, out_s, w, N, M, D, D);
    cr_assert_leq(mat_max_abs_diff(out_h, out_s, N * D), 1e-4);
}
