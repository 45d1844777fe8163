// test_tiled.c -- the tuned exact attention equals the standard one.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "base/rng.h"
#include "fast/tiled.h"

// Largest relative error of f against ref, in double, over every stride-th
// float from 0 down to lo and up to hi (bit patterns of negative floats count up
// from -0, of positive ones from +0) and at the given points.
static double worst_rel(float (*f)(float), double (*ref)(double), float lo, float hi,
                        unsigned stride, const float *points, int n_points) {
    double worst = 0.0;
    for (uint32_t b = 0x80000000u;; b += stride) {
        float x;
        memcpy(&x, &b, sizeof x);
        if (x < lo) break;
        double want = ref((double)x), rel = fabs(f(x) - want) / want;
        if (rel > worst) worst = rel;
    }
    for (uint32_t b = 0;; b += stride) {
        float x;
        memcpy(&x, &b, sizeof x);
        if (x > hi) break;
        double want = ref((double)x), rel = fabs(f(x) - want) / want;
        if (rel > worst) worst = rel;
    }
    for (int i = 0; i < n_points; i++) {
        double want = ref((double)points[i]);
        double rel = fabs(f(points[i]) - want) / want;
        if (rel > worst) worst = rel;
    }
    return worst;
}

// tiled_exp against the C library's exp: the header's bound, TILED_EXP_REL_ERROR,
// on every 256th float of [-87, 0], at the worst point of all floats (x =
// -26.686005) and at two points issue 26 found (-48.1735, -0.345156). Below -87: 0.
Test(tiled, exp_relative_error_below_header_bound) {
    const float worst_points[3] = {-26.6860046f, -48.1735f, -0.345156f};
    double worst = worst_rel(tiled_exp, exp, -87.0f, 0.0f, 256, worst_points, 3);
    cr_assert(worst < TILED_EXP_REL_ERROR, "largest relative error %.3g >= %.3g", worst,
              TILED_EXP_REL_ERROR);
    for (float x = -90.0f; x < -87.0f; x += 0.01f)
        cr_assert(tiled_exp(x) == 0.0f, "tiled_exp(%g) = %g, want 0 below -87", x,
                  tiled_exp(x));
    cr_assert(tiled_exp(0.0f) == 1.0f);
    cr_assert(tiled_exp(5.0f) == 1.0f, "x > 0 is clamped to 0");
    cr_assert(isnan(tiled_exp(NAN)));
    cr_assert(tiled_exp(-INFINITY) == 0.0f);
}

// tiled_exp2, the exp the kernel runs on, against exp2: the same bound on every
// 256th float of [-126, TILED_LAZY] and at its worst points of all floats,
// t = -0.49962634 and, above 0, t = 0.50037366.
Test(tiled, exp2_relative_error_below_header_bound) {
    const float worst_points[2] = {-0.499626338f, 0.500373662f};
    double worst =
        worst_rel(tiled_exp2, exp2, -126.0f, TILED_LAZY, 256, worst_points, 2);
    cr_assert(worst < TILED_EXP_REL_ERROR, "largest relative error %.3g >= %.3g", worst,
              TILED_EXP_REL_ERROR);
    cr_assert(tiled_exp2(0.0f) == 1.0f);
    cr_assert(tiled_exp2(-1.0f) == 0.5f && tiled_exp2(-10.0f) == 0x1p-10f);
    cr_assert(tiled_exp2(-130.0f) == 0.0f && tiled_exp2(-INFINITY) == 0.0f);
    cr_assert(tiled_exp2(3.0f) == 8.0f && tiled_exp2(TILED_LAZY) == 256.0f);
    cr_assert(tiled_exp2(20.0f) == 256.0f, "t > TILED_LAZY is clamped there");
    cr_assert(isnan(tiled_exp2(NAN)));
}

// causal 0: the plain kernel; 1: tiled_attention_causal against attention_forward
// with the mask j <= i; 2: tiled_attention with lse, checked against the log-sum-exp
// of the standard kernel's scores in double.
static void check_against_standard(int h, int n, int m, int d_k, int d_v, float spread,
                                   uint64_t seed, int causal) {
    rng_t rng;
    rng_seed(&rng, seed);
    size_t nq = (size_t)h * n * d_k, nk = (size_t)h * m * d_k, nv = (size_t)h * m * d_v;
    float *q = malloc(nq * sizeof *q), *k = malloc(nk * sizeof *k);
    float *v = malloc(nv * sizeof *v);
    float *fast = malloc((size_t)h * n * d_v * sizeof *fast);
    float *want = malloc((size_t)n * d_v * sizeof *want);
    float *w = malloc((size_t)n * m * sizeof *w);
    cr_assert(q && k && v && fast && want && w);
    rng_fill_normal(&rng, q, (int)nq, 0.0f, spread);
    rng_fill_normal(&rng, k, (int)nk, 0.0f, 1.0f);
    rng_fill_normal(&rng, v, (int)nv, 0.0f, 1.0f);
    unsigned char *mask = malloc((size_t)n * m);
    float *lse = malloc((size_t)h * n * sizeof *lse);
    cr_assert(mask && lse);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) mask[(size_t)i * m + j] = j <= i;
    if (causal == 0)
        cr_assert_eq(tiled_attention_forward(q, k, v, fast, h, n, m, d_k, d_v), 0);
    else if (causal == 1)
        cr_assert_eq(tiled_attention_causal(q, k, v, fast, h, n, m, d_k, d_v), 0);
    else
        cr_assert_eq(tiled_attention(q, k, v, fast, lse,
                                     &(tiled_shape_t){h, n, m, d_k, d_v, 1}),
                     0);
    for (int hh = 0; hh < h; hh++) {
        attention_forward(q + (size_t)hh * n * d_k, k + (size_t)hh * m * d_k,
                          v + (size_t)hh * m * d_v, causal ? mask : NULL, want, w, n, m,
                          d_k, d_v);
        for (int i = 0; causal == 2 && i < n; i++) {
            double mx = -INFINITY, sum = 0.0, sc[1024];
            cr_assert(m <= 1024);
            for (int j = 0; j <= i && j < m; j++) {
                double dot = 0.0;
                for (int c = 0; c < d_k; c++)
                    dot += (double)q[((size_t)hh * n + i) * d_k + c] *
                           k[((size_t)hh * m + j) * d_k + c];
                sc[j] = dot / sqrt((double)d_k);
                if (sc[j] > mx) mx = sc[j];
            }
            for (int j = 0; j <= i && j < m; j++) sum += exp(sc[j] - mx);
            double want_lse = mx + log(sum), got_lse = lse[(size_t)hh * n + i];
            cr_assert(fabs(got_lse - want_lse) <= 1e-5 * (1.0 + fabs(want_lse)),
                      "lse row %d: %.9g vs %.9g", i, got_lse, want_lse);
        }
        for (int i = 0; i < n * d_v; i++) {
            float got = fast[(size_t)hh * n * d_v + i];
            cr_assert(fabsf(got - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]),
                      "h=%d n=%d m=%d d_k=%d d_v=%d: head %d element %d: %.9g vs %.9g",
                      h,
                      n, m, d_k, d_v, hh, i, got, want[i]);
        }
    }
    free(q), free(k), free(v), free(fast), free(want), free(w), free(mask), free(lse);
}

// Sizes on both sides of every tile edge (TILED_BQ = 64, TILED_BK = 128), 1, odd.
Test(tiled, equals_attention_forward_on_tile_edges) {
    const int ns[] = {1, 2, 63, 64, 65, 127, 128, 129, 200, 257};
    const int ds[] = {1, 3, 8, 64, 65};
    uint64_t seed = 1;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b++)
            for (size_t c = 0; c < sizeof ds / sizeof *ds; c += 2, seed++)
                check_against_standard(1 + (int)(seed % 3), ns[a], ns[b], ds[c],
                                       ds[(c + 1) % 5], 1.0f, seed, 0);
}

// The causal kernel on both sides of every tile edge, m below, at and above n.
Test(tiled, causal_equals_masked_attention_forward) {
    const int ns[] = {1, 63, 64, 65, 128, 129, 200, 257};
    uint64_t seed = 500;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ns / sizeof *ns; b += 3, seed++)
            check_against_standard(1 + (int)(seed % 2), ns[a], ns[b],
                                   8 + (int)(seed % 3), 5 + (int)(seed % 13), 1.0f,
                                   seed, 1);
    check_against_standard(1, 300, 300, 64, 64, 1.0f, 7, 1);
}

// The row log-sum-exp the backward relies on, causal and sharp.
Test(tiled, lse_equals_log_sum_exp_in_double) {
    check_against_standard(2, 200, 200, 16, 8, 1.0f, 11, 2);
    check_against_standard(1, 130, 300, 32, 32, 20.0f, 12, 2);
}

// Scores of size ~100: the running max changes often and exp underflows a lot.
Test(tiled, equals_attention_forward_on_sharp_scores) {
    check_against_standard(2, 70, 300, 16, 16, 30.0f, 99, 0);
    check_against_standard(1, 5, 1000, 64, 32, 100.0f, 98, 0);
    check_against_standard(1, 200, 200, 16, 16, 30.0f, 97, 1);
}

// Scores that rise along the keys by `rise` a key (plus noise), so a later tile's
// maximum passes the reference the kernel took its exps against: by 12.8 a tile
// at rise 0.1 (more than TILED_LAZY units of log 2, 5.5: every tile is computed
// again against its maximum), by 3.8 at 0.03 (kept for a tile, weights above 1,
// then raised). Against attention_forward, with and without the causal mask
// (with it, rows see at most three tiles and climb less within them).
static void check_rising(float rise, int causal) {
    enum { N = 300, M = 700, DK = 4, DV = 8 };   // causal: rows see 1 to 3 tiles
    rng_t rng;
    rng_seed(&rng, 31);
    static float q[N * DK], k[M * DK], v[M * DV], fast[N * DV], want[N * DV], w[N * M];
    static unsigned char mask[N * M];
    rng_fill_normal(&rng, q, N * DK, 0.0f, 0.1f);
    rng_fill_normal(&rng, k, M * DK, 0.0f, 0.1f);
    rng_fill_normal(&rng, v, M * DV, 0.0f, 1.0f);
    for (int i = 0; i < N; i++) q[i * DK] = 2.0f;     // scale 1/2: score ~ k[j][0]
    for (int j = 0; j < M; j++) k[j * DK] += rise * (float)j;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) mask[i * M + j] = j <= i;
    cr_assert_eq(tiled_attention(q, k, v, fast, NULL,
                                 &(tiled_shape_t){1, N, M, DK, DV, causal}),
                 0);
    attention_forward(q, k, v, causal ? mask : NULL, want, w, N, M, DK, DV);
    for (int i = 0; i < N * DV; i++)
        cr_assert(fabsf(fast[i] - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]),
                  "rise %g causal %d: element %d: %.9g vs %.9g", rise, causal, i,
                  fast[i], want[i]);
}

Test(tiled, equals_attention_forward_on_rising_scores) {
    check_rising(0.1f, 0);
    check_rising(0.03f, 0);
    check_rising(0.1f, 1);
    check_rising(0.03f, 1);
}

Test(tiled, refuses_bad_sizes_and_writes_nothing) {
    float x[4] = {1, 2, 3, 4}, out[4] = {7, 7, 7, 7};
    cr_assert_eq(tiled_attention_forward(x, x, x, out, 0, 1, 1, 1, 1), -1);
    cr_assert_eq(tiled_attention_forward(x, x, x, out, 1, 0, 1, 1, 1), -1);
    cr_assert_eq(tiled_attention_forward(x, x, x, out, 1, 1, 0, 1, 1), -1);
    cr_assert_eq(tiled_attention_forward(x, x, x, out, 1, 1, 1, 0, 1), -1);
    cr_assert_eq(tiled_attention_forward(x, x, x, out, 1, 1, 1, 1, 0), -1);
    for (int i = 0; i < 4; i++) cr_assert_eq(out[i], 7.0f);
}
