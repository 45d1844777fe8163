// test_online.c -- the online softmax and exact attention over key blocks.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "attention/softmax.h"
#include "base/mat.h"
#include "base/rng.h"
#include "variants/online.h"

static void fill(float *x, int count, uint64_t seed, float std) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, count, 0.0f, std);
}

// By hand: scores (0, ln 3) with values (4, 8): weights 1/4, 3/4, output 7;
// fed one key per block, the second block raises the max from 0 to ln 3.
Test(online, update_by_hand_two_blocks) {
    double acc[1];
    online_state_t st;
    online_init(&st, acc, 1);
    float s0 = 0.0f, s1 = logf(3.0f), v0 = 4.0f, v1 = 8.0f, out;
    online_update(&st, &s0, &v0, 1);
    cr_assert_float_eq(st.max, 0.0f, 0.0);
    cr_assert_float_eq(st.sum, 1.0, 1e-12);
    online_update(&st, &s1, &v1, 1);
    cr_assert_float_eq(st.max, s1, 0.0);
    cr_assert_float_eq(st.sum, 4.0 / 3.0, 1e-6);    // 1/3 + 1, relative to ln 3
    online_finish(&st, &out);
    cr_assert_float_eq(out, 7.0f, 1e-5);
}

// Empty and fully hidden blocks change nothing; nothing seen -> zeros.
Test(online, hidden_blocks_and_empty_state) {
    double acc[2];
    online_state_t st;
    online_init(&st, acc, 2);
    float s[2] = {-INFINITY, -INFINITY}, v[4] = {1, 2, 3, 4}, out[2] = {9, 9};
    online_update(&st, s, v, 2);
    online_update(&st, s, v, 0);
    cr_assert(st.max == -INFINITY);
    cr_assert_eq(st.sum, 0.0);
    online_finish(&st, out);
    cr_assert_eq(out[0], 0.0f);
    cr_assert_eq(out[1], 0.0f);
}

// Any split into blocks gives the same state as one block of everything.
Test(online, block_split_does_not_matter) {
    enum { M = 37, DV = 3 };
    float s[M], v[M * DV], one[DV], split[DV];
    fill(s, M, 1, 4.0f), fill(v, M * DV, 2, 1.0f);
    s[5] = -INFINITY;
    double a1[DV], a2[DV];
    online_state_t st1, st2;
    online_init(&st1, a1, DV);
    online_update(&st1, s, v, M);
    online_finish(&st1, one);
    for (int b = 1; b <= M + 3; b++) {
        online_init(&st2, a2, DV);
        for (int j = 0; j < M; j += b)
            online_update(&st2, s + j, v + j * DV, M - j < b ? M - j : b);
        online_finish(&st2, split);
        cr_assert_leq(mat_max_abs_diff(one, split, DV), 1e-6, "block %d", b);
        cr_assert_float_eq(st2.max, st1.max, 0.0);
    }
}

// The one-pass online softmax equals the three-pass stable softmax, also on
// logits that overflow exp().
Test(online, softmax_equals_stable_softmax) {
    enum { N = 50 };
    float a[N], b[N];
    fill(a, N, 3, 30.0f);
    a[7] = 1000.0f;
    for (int e = 0; e < N; e++) b[e] = a[e];
    online_softmax(a, N);
    softmax(b, N);
    cr_assert_leq(mat_max_abs_diff(a, b, N), 1e-7);
}

// online_attention == attention_forward for every block size, with and
// without a mask (including fully masked rows), within 1e-5.
Test(online, equals_standard_attention) {
    enum { N = 13, M = 29, DK = 8, DV = 5 };
    float q[N * DK], k[M * DK], v[M * DV], o1[N * DV], o2[N * DV], w[N * M];
    unsigned char mask[N * M];
    fill(q, N * DK, 4, 2.0f), fill(k, M * DK, 5, 2.0f), fill(v, M * DV, 6, 1.0f);
    rng_t rng;
    rng_seed(&rng, 7);
    for (int e = 0; e < N * M; e++) mask[e] = rng_uniform(&rng) < 0.4f;
    for (int j = 0; j < M; j++) mask[3 * M + j] = 0;      // row 3: nothing visible
    for (int use_mask = 0; use_mask < 2; use_mask++) {
        const unsigned char *mk = use_mask ? mask : NULL;
        attention_forward(q, k, v, mk, o1, w, N, M, DK, DV);
        for (int b = 1; b <= M + 1; b++) {
            cr_assert_eq(online_attention(q, k, v, mk, o2, N, M, DK, DV, b), 0);
            cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-5, "block %d", b);
        }
    }
    for (int c = 0; c < DV; c++) cr_assert_eq(o2[3 * DV + c], 0.0f);
}

// Bad block sizes are refused; m = 0 gives zeros.
Test(online, degenerate_sizes) {
    float q[2] = {1, 2}, out[2] = {5, 5};
    cr_assert_eq(online_attention(q, q, q, NULL, out, 1, 1, 2, 2, 0), -1);
    cr_assert_eq(online_attention(q, NULL, NULL, NULL, out, 1, 0, 2, 2, 4), 0);
    cr_assert_eq(out[0], 0.0f);
    cr_assert_eq(out[1], 0.0f);
}
