// test_flash_backward.c -- the backward from the log-sum-exp equals the standard one.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "base/rng.h"
#include "fast/flash_backward.h"
#include "fast/tiled.h"

static float *normal(rng_t *rng, size_t count, float spread) {
    float *x = malloc(count * sizeof *x);
    cr_assert(x);
    rng_fill_normal(rng, x, (int)count, 0.0f, spread);
    return x;
}

static void expect_close(const float *got, const float *want, size_t count,
                         const char *what, int h, int n, int m, int d_k, int d_v) {
    for (size_t e = 0; e < count; e++)
        cr_assert(fabsf(got[e] - want[e]) <= 2e-5f + 2e-5f * fabsf(want[e]),
                  "%s h=%d n=%d m=%d d_k=%d d_v=%d element %zu: %.9g vs %.9g", what, h,
                  n, m, d_k, d_v, e, got[e], want[e]);
}

// tiled_attention (out, lse), flash_attention_backward, against attention_forward
// and attention_backward head by head, with the causal mask when asked.
static void check(int h, int n, int m, int d_k, int d_v, int causal, float spread,
                  uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    const size_t nq = (size_t)h * n * d_k, nk = (size_t)h * m * d_k;
    const size_t nv = (size_t)h * m * d_v, no = (size_t)h * n * d_v;
    float *q = normal(&rng, nq, spread), *k = normal(&rng, nk, 1.0f);
    float *v = normal(&rng, nv, 1.0f), *dout = normal(&rng, no, 1.0f);
    float *out = malloc(no * sizeof *out), *lse = malloc((size_t)h * n * sizeof *lse);
    float *dq = malloc(nq * sizeof *dq), *dk = malloc(nk * sizeof *dk);
    float *dv = malloc(nv * sizeof *dv);
    float *w_dq = calloc(nq, sizeof *w_dq), *w_dk = calloc(nk, sizeof *w_dk);
    float *w_dv = calloc(nv, sizeof *w_dv), *w_out = malloc(no * sizeof *w_out);
    float *w = malloc((size_t)n * m * sizeof *w), *scratch = malloc((size_t)n * m * 4);
    unsigned char *mask = malloc((size_t)n * m);
    cr_assert(out && lse && dq && dk && dv && w_dq && w_dk && w_dv && w_out && w &&
              scratch && mask);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) mask[(size_t)i * m + j] = j <= i;
    for (size_t e = 0; e < nk; e++) dk[e] = NAN;          // every element written
    cr_assert_eq(tiled_attention(q, k, v, out, lse, h, n, m, d_k, d_v, causal), 0);
    cr_assert_eq(flash_attention_backward(q, k, v, out, dout, lse, dq, dk, dv, h, n, m,
                                          d_k, d_v, causal),
                 0);
    for (int hh = 0; hh < h; hh++) {
        const size_t oq = (size_t)hh * n * d_k, ok = (size_t)hh * m * d_k;
        const size_t ov = (size_t)hh * m * d_v, oo = (size_t)hh * n * d_v;
        const unsigned char *mk = causal ? mask : NULL;
        attention_forward(q + oq, k + ok, v + ov, mk, w_out + oo, w, n, m, d_k, d_v);
        attention_backward(q + oq, k + ok, v + ov, w, dout + oo, w_dq + oq, w_dk + ok,
                           w_dv + ov, n, m, d_k, d_v, scratch);
    }
    expect_close(dv, w_dv, nv, "dv", h, n, m, d_k, d_v);
    expect_close(dk, w_dk, nk, "dk", h, n, m, d_k, d_v);
    expect_close(dq, w_dq, nq, "dq", h, n, m, d_k, d_v);
    free(q), free(k), free(v), free(dout), free(out), free(lse), free(dq), free(dk);
    free(dv), free(w_dq), free(w_dk), free(w_dv), free(w_out), free(w), free(scratch);
    free(mask);
}

// Sizes on both sides of the tile edges (64 queries, 64 keys), m below and above n.
Test(flash_backward, equals_attention_backward) {
    const int ns[] = {1, 7, 63, 64, 65, 130};
    uint64_t seed = 1;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b += 2, seed++)
            check(1 + (int)(seed % 2), ns[a], ns[b], 1 + (int)(seed % 17),
                  3 + (int)(seed % 9), 0, 1.0f, seed);
    check(1, 200, 200, 64, 64, 0, 1.0f, 99);
}

Test(flash_backward, causal_equals_masked_attention_backward) {
    const int ns[] = {1, 7, 63, 64, 65, 130};
    uint64_t seed = 100;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b += 2, seed++)
            check(1 + (int)(seed % 2), ns[a], ns[b], 1 + (int)(seed % 17),
                  3 + (int)(seed % 9), 1, 1.0f, seed);
    check(2, 200, 200, 32, 16, 1, 1.0f, 199);
}

// Scores of size ~30: the recomputed weights are sharp and many underflow.
Test(flash_backward, sharp_scores) {
    check(1, 100, 150, 16, 16, 0, 8.0f, 7);
    check(1, 150, 150, 16, 16, 1, 8.0f, 8);
}

Test(flash_backward, refuses_bad_sizes) {
    const float x[4] = {1, 2, 3, 4};
    float g[4] = {7, 7, 7, 7};
    const int bad[3][5] = {{0, 1, 1, 1, 1}, {1, 1, 0, 1, 1}, {1, 1, 1, 1, 0}};
    for (int b = 0; b < 3; b++)
        cr_assert_eq(flash_attention_backward(x, x, x, x, x, x, g, g, g, bad[b][0],
                                              bad[b][1], bad[b][2], bad[b][3],
                                              bad[b][4], b == 2),
                     -1);
    for (int i = 0; i < 4; i++) cr_assert_eq(g[i], 7.0f);
}
