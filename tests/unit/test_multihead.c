// test_multihead.c -- split / concat, Xavier init, fused vs loop, one head,
// masks and cross-attention for multi-head attention.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "base/linear.h"
#include "layers/multihead.h"
#include "base/rng.h"

#include "helpers.h"

// p <- Xavier-initialised (d_model, h) weights from rng, seeded with seed; the
// test draws its inputs from the same rng afterwards.
static void random_mha(mha_params_t *p, int d_model, int h, rng_t *rng, uint64_t seed) {
    rng_seed(rng, seed);
    cr_assert_eq(mha_alloc(p, d_model, h), 0);
    mha_init(p, rng);
}


// ---------------------------------------------------------------------------
// split and concat

Test(multihead, split_by_hand) {
    // x (n = 2, d_model = 4) with h = 2 heads of d_k = 2:
    //   x = [[0, 1, 2, 3],        head 0 = columns 0-1: [[0, 1], [4, 5]]
    //        [4, 5, 6, 7]]        head 1 = columns 2-3: [[2, 3], [6, 7]]
    // so heads (2, 2, 2) in memory is 0 1 4 5 2 3 6 7.
    const float x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float expect[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    float heads[8];
    mha_split_heads(x, heads, 2, 2, 2);
    assert_floats_near(heads, expect, 8, 0.0f, "heads");
}

Test(multihead, concat_by_hand) {
    // The inverse of split_by_hand: heads 0 1 4 5 | 2 3 6 7 -> rows 0 1 2 3 / 4 5 6 7.
    const float heads[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    float x[8];
    mha_concat_heads(heads, x, 2, 2, 2);
    for (int i = 0; i < 8; i++) cr_assert_float_eq(x[i], (float)i, 0.0f, "i = %d", i);
}

Test(multihead, split_then_concat_is_identity) {
    const int shapes[][3] = {{1, 1, 1}, {1, 4, 3}, {5, 1, 7}, {3, 8, 2}, {7, 3, 5}};
    rng_t rng;
    rng_seed(&rng, 1);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int n = shapes[s][0], h = shapes[s][1], d_k = shapes[s][2];
        size_t size = (size_t)n * h * d_k;
        float *x = random_floats(&rng, size), *heads = malloc(size * sizeof(float));
        float *back = malloc(size * sizeof(float));
        float *again = malloc(size * sizeof(float));
        mha_split_heads(x, heads, n, h, d_k);
        mha_concat_heads(heads, back, n, h, d_k);
        cr_assert(mat_max_abs_diff(x, back, size) == 0.0, "shape %zu", s);
        mha_split_heads(back, again, n, h, d_k);   // and the other way round
        cr_assert(mat_max_abs_diff(heads, again, size) == 0.0, "shape %zu", s);
        free(x);
        free(heads);
        free(back);
        free(again);
    }
}

Test(multihead, one_head_split_is_a_copy) {
    // With h = 1 the single head is the whole matrix.
    const float x[6] = {1, 2, 3, 4, 5, 6};
    float heads[6];
    mha_split_heads(x, heads, 2, 1, 3);
    cr_assert(memcmp(x, heads, sizeof x) == 0);
}

// ---------------------------------------------------------------------------
// allocation, Xavier initialisation, parameter count

Test(multihead, alloc_rejects_bad_sizes) {
    mha_params_t p;
    cr_assert_eq(mha_alloc(&p, 10, 3), -1);   // 10 is not divisible by 3
    cr_assert_eq(mha_alloc(&p, 0, 1), -1);
    cr_assert_eq(mha_alloc(&p, 8, 0), -1);
    mha_free(&p);                             // safe after a failed alloc
    cr_assert_eq(mha_alloc(&p, 12, 3), 0);
    cr_assert_eq(p.d_k, 4);
    mha_free(&p);
    mha_free(&p);                             // and twice
}

Test(multihead, param_count_ignores_heads) {
    // 4 d^2 + d: 4 * 64 * 64 + 64 = 16448 for any number of heads.
    for (int h = 1; h <= 64; h *= 2) {
        mha_params_t p;
        cr_assert_eq(mha_alloc(&p, 64, h), 0);
        cr_assert_eq(mha_param_count(&p), 16448L, "h = %d", h);
        mha_free(&p);
    }
}

Test(multihead, xavier_bounds) {
    // a = sqrt(6 / (fan_in + fan_out)) = sqrt(6 / 64) = 0.306186 for d_model 32.
    mha_params_t p;
    rng_t rng;
    rng_seed(&rng, 3);
    cr_assert_eq(mha_alloc(&p, 32, 4), 0);
    for (int j = 0; j < 32; j++) p.b_o[j] = 5.0f;   // must be reset to 0
    mha_init(&p, &rng);
    float a = sqrtf(6.0f / 64.0f);
    cr_assert_float_eq(a, 0.306186f, EPS);
    const float *w[4] = {p.w_q, p.w_k, p.w_v, p.w_o};
    for (int m = 0; m < 4; m++) {
        float hi = 0.0f;
        double sum = 0.0, sq = 0.0;
        for (int i = 0; i < 32 * 32; i++) {
            cr_assert(fabsf(w[m][i]) <= a, "matrix %d entry %d = %f", m, i, w[m][i]);
            if (fabsf(w[m][i]) > hi) hi = fabsf(w[m][i]);
            sum += w[m][i];
            sq += (double)w[m][i] * w[m][i];
        }
        cr_assert(hi > 0.95f * a, "the samples should fill the range");
        // U(-a, a) has mean 0 and variance a^2 / 3 = 0.03125.
        cr_assert(fabs(sum / 1024) < 0.02);
        cr_assert(fabs(sq / 1024 - a * a / 3.0) < 0.005);
    }
    for (int j = 0; j < 32; j++) cr_assert_float_eq(p.b_o[j], 0.0f, 0.0f);
    mha_free(&p);
}

// ---------------------------------------------------------------------------
// a tiny layer checked by hand

Test(multihead, two_heads_by_hand) {
    // d_model = 2, h = 2, d_k = 1; W_Q = W_K = W_V = W_O = I, b_O = (0.1, -0.1).
    // x = [[1, 0], [0, 1]]. Head 0 sees column 0, head 1 column 1 (scale 1/sqrt(1)).
    // Head 0: q = k = v = (1, 0).
    //   token 0: scores (1, 0) -> softmax (e/(e+1), 1/(e+1)) = (0.731059, 0.268941)
    //            out = 0.731059 * 1 + 0.268941 * 0 = 0.731059
    //   token 1: scores (0, 0) -> (0.5, 0.5), out = 0.5
    // Head 1: q = k = v = (0, 1).
    //   token 0: scores (0, 0) -> (0.5, 0.5), out = 0.5
    //   token 1: scores (0, 1) -> (0.268941, 0.731059), out = 0.731059
    // concat = [[0.731059, 0.5], [0.5, 0.731059]]; times I plus b_O:
    //   out = [[0.831059, 0.4], [0.6, 0.631059]]
    mha_params_t p;
    cr_assert_eq(mha_alloc(&p, 2, 2), 0);
    float *w[4] = {p.w_q, p.w_k, p.w_v, p.w_o};
    for (int m = 0; m < 4; m++) w[m][0] = w[m][3] = 1.0f;
    p.b_o[0] = 0.1f;
    p.b_o[1] = -0.1f;
    const float x[4] = {1, 0, 0, 1};
    const float expect[4] = {0.831059f, 0.4f, 0.6f, 0.631059f};
    const float expect_w[8] = {0.731059f, 0.268941f, 0.5f, 0.5f,
                               0.5f, 0.5f, 0.268941f, 0.731059f};
    float out[4], wts[8];
    cr_assert_eq(mha_forward(&p, x, 2, x, 2, NULL, out, wts), 0);
    assert_floats_near(out, expect, 4, EPS, "out");
    assert_floats_near(wts, expect_w, 8, EPS, "wts");
    cr_assert_eq(mha_forward_loop(&p, x, 2, x, 2, NULL, out, wts), 0);
    assert_floats_near(out, expect, 4, EPS, "out");
    mha_free(&p);
}

// ---------------------------------------------------------------------------
// fused == loop, one head == single-head attention

// Run fused and loop on random inputs; return the larger of the two max diffs.
static double fused_vs_loop(int n, int m, int d, int h, const unsigned char *mask,
                            uint64_t seed) {
    mha_params_t p;
    rng_t rng;
    rng_seed(&rng, seed);
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    mha_init(&p, &rng);
    rng_fill_normal(&rng, p.b_o, d, 0.0f, 0.1f);
    float *xq = random_floats(&rng, (size_t)n * d);
    float *xkv = random_floats(&rng, (size_t)m * d);
    float *o1 = malloc(sizeof(float) * n * d), *o2 = malloc(sizeof(float) * n * d);
    float *w1 = malloc(sizeof(float) * h * n * m);
    float *w2 = malloc(sizeof(float) * h * n * m);
    cr_assert_eq(mha_forward(&p, xq, n, xkv, m, mask, o1, w1), 0);
    cr_assert_eq(mha_forward_loop(&p, xq, n, xkv, m, mask, o2, w2), 0);
    double diff = fmax(mat_max_abs_diff(o1, o2, (size_t)n * d),
                       mat_max_abs_diff(w1, w2, (size_t)h * n * m));
    free(xq);
    free(xkv);
    free(o1);
    free(o2);
    free(w1);
    free(w2);
    mha_free(&p);
    return diff;
}

Test(multihead, fused_equals_loop_self_attention) {
    const int shapes[][3] = {{1, 1, 1}, {8, 64, 8}, {5, 12, 3}, {3, 7, 7}, {6, 32, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int n = shapes[s][0], d = shapes[s][1], h = shapes[s][2];
        double diff = fused_vs_loop(n, n, d, h, NULL, 10 + s);
        cr_assert(diff < 1e-5, "n %d d %d h %d: diff %g", n, d, h, diff);
    }
}

Test(multihead, fused_equals_loop_cross_attention_with_mask) {
    // Queries from 4 tokens, keys/values from 6; query i sees keys j <= i + 1.
    enum { N = 4, M = 6 };
    unsigned char mask[N * M];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) mask[i * M + j] = j <= i + 1;
    double diff = fused_vs_loop(N, M, 16, 4, mask, 99);
    cr_assert(diff < 1e-5, "diff %g", diff);
    diff = fused_vs_loop(N, M, 16, 4, NULL, 98);
    cr_assert(diff < 1e-5, "diff %g", diff);
}

Test(multihead, one_head_is_single_head_attention) {
    // With h = 1: MultiHead(x) = Attention(x W_Q, x W_K, x W_V) W_O + b_O.
    enum { N = 5, D = 6 };
    mha_params_t p;
    rng_t rng;
    rng_seed(&rng, 5);
    cr_assert_eq(mha_alloc(&p, D, 1), 0);
    mha_init(&p, &rng);
    rng_fill_normal(&rng, p.b_o, D, 0.0f, 0.5f);
    float x[N * D], q[N * D], k[N * D], v[N * D], ctx[N * D], expect[N * D];
    float w_ref[N * N], out[N * D], w[N * N];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    linear_forward(x, p.w_q, NULL, q, N, D, D);
    linear_forward(x, p.w_k, NULL, k, N, D, D);
    linear_forward(x, p.w_v, NULL, v, N, D, D);
    attention_forward(q, k, v, NULL, ctx, w_ref, N, N, D, D);
    linear_forward(ctx, p.w_o, p.b_o, expect, N, D, D);
    cr_assert_eq(mha_forward(&p, x, N, x, N, NULL, out, w), 0);
    cr_assert(mat_max_abs_diff(out, expect, N * D) < 1e-6);
    cr_assert(mat_max_abs_diff(w, w_ref, N * N) < 1e-7);
    mha_free(&p);
}

Test(multihead, each_head_uses_only_its_own_columns) {
    // Head i of mha_forward equals attention on column block i of x W_Q, x W_K, x W_V.
    enum { N = 4, D = 8, H = 2, DK = 4 };
    mha_params_t p;
    rng_t rng;
    random_mha(&p, D, H, &rng, 6);
    float x[N * D], q[N * D], k[N * D], v[N * D], out[N * D], w[H * N * N];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    linear_forward(x, p.w_q, NULL, q, N, D, D);
    linear_forward(x, p.w_k, NULL, k, N, D, D);
    linear_forward(x, p.w_v, NULL, v, N, D, D);
    cr_assert_eq(mha_forward(&p, x, N, x, N, NULL, out, w), 0);
    for (int h = 0; h < H; h++) {
        float qh[N * DK], kh[N * DK], vh[N * DK], ctx[N * DK], wh[N * N];
        for (int i = 0; i < N; i++)
            for (int c = 0; c < DK; c++) {
                qh[i * DK + c] = q[i * D + h * DK + c];
                kh[i * DK + c] = k[i * D + h * DK + c];
                vh[i * DK + c] = v[i * D + h * DK + c];
            }
        attention_forward(qh, kh, vh, NULL, ctx, wh, N, N, DK, DK);
        cr_assert(mat_max_abs_diff(wh, w + h * N * N, N * N) < 1e-7, "head %d", h);
    }
    mha_free(&p);
}

// ---------------------------------------------------------------------------
// weights: rows sum to 1, masks, cross-attention shapes, NULL weights

Test(multihead, weights_are_row_stochastic_per_head) {
    enum { N = 3, M = 5, D = 12, H = 3 };
    mha_params_t p;
    rng_t rng;
    random_mha(&p, D, H, &rng, 8);
    float xq[N * D], xkv[M * D], out[N * D], w[H * N * M];
    rng_fill_normal(&rng, xq, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, xkv, M * D, 0.0f, 1.0f);
    cr_assert_eq(mha_forward(&p, xq, N, xkv, M, NULL, out, w), 0);
    assert_row_stochastic(w, H * N, M, 1e-6);
    mha_free(&p);
}

Test(multihead, mask_hides_keys_in_every_head) {
    // Key 2 hidden from every query; query 1 sees nothing at all.
    enum { N = 3, M = 4, D = 8, H = 4 };
    mha_params_t p;
    rng_t rng;
    random_mha(&p, D, H, &rng, 9);
    unsigned char mask[N * M];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) mask[i * M + j] = j != 2 && i != 1;
    float xq[N * D], xkv[M * D], out[N * D], w[H * N * M];
    rng_fill_normal(&rng, xq, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, xkv, M * D, 0.0f, 1.0f);
    cr_assert_eq(mha_forward(&p, xq, N, xkv, M, mask, out, w), 0);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < N; i++) {
            const float *row = w + (h * N + i) * M;
            cr_assert_float_eq(row[2], 0.0f, 0.0f);
            for (int j = 0; j < M && i == 1; j++)
                cr_assert_float_eq(row[j], 0.0f, 0.0f);
        }
    // A query that sees nothing gets zero from every head, so out = b_O = 0.
    for (int c = 0; c < D; c++) {
        cr_assert(!isnan(out[1 * D + c]));
        cr_assert_float_eq(out[1 * D + c], 0.0f, 0.0f);
    }
    mha_free(&p);
}

Test(multihead, cross_attention_ignores_the_order_of_keys) {
    // Permuting the key/value sequence permutes the weights' columns and leaves
    // the output unchanged: attention is a weighted sum over a set.
    enum { N = 2, M = 4, D = 8, H = 2 };
    const int perm[M] = {2, 0, 3, 1};
    mha_params_t p;
    rng_t rng;
    random_mha(&p, D, H, &rng, 12);
    float xq[N * D], xkv[M * D], xkv2[M * D], o1[N * D], o2[N * D];
    float w1[H * N * M], w2[H * N * M];
    rng_fill_normal(&rng, xq, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, xkv, M * D, 0.0f, 1.0f);
    for (int j = 0; j < M; j++)
        memcpy(xkv2 + j * D, xkv + perm[j] * D, sizeof(float) * D);
    cr_assert_eq(mha_forward(&p, xq, N, xkv, M, NULL, o1, w1), 0);
    cr_assert_eq(mha_forward(&p, xq, N, xkv2, M, NULL, o2, w2), 0);
    cr_assert(mat_max_abs_diff(o1, o2, N * D) < 1e-5);
    for (int r = 0; r < H * N; r++)
        for (int j = 0; j < M; j++)
            cr_assert_float_eq(w2[r * M + j], w1[r * M + perm[j]], 1e-6f);
    mha_free(&p);
}

Test(multihead, null_weights_gives_the_same_output) {
    enum { N = 3, D = 8, H = 2 };
    mha_params_t p;
    rng_t rng;
    random_mha(&p, D, H, &rng, 13);
    float x[N * D], o1[N * D], o2[N * D], o3[N * D], w[H * N * N];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    cr_assert_eq(mha_forward(&p, x, N, x, N, NULL, o1, w), 0);
    cr_assert_eq(mha_forward(&p, x, N, x, N, NULL, o2, NULL), 0);
    cr_assert_eq(mha_forward_loop(&p, x, N, x, N, NULL, o3, NULL), 0);
    cr_assert(mat_max_abs_diff(o1, o2, N * D) == 0.0);
    cr_assert(mat_max_abs_diff(o1, o3, N * D) < 1e-5);
    mha_free(&p);
}
