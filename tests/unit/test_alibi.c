// test_alibi.c -- ALiBi slopes, biases and biased causal attention.
//
// Suites are named after the function they test; alibi_slopes is a graded
// exercise.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "position/alibi.h"

// Press et al.: 8 heads give 1/2, 1/4, ..., 1/256.
Test(alibi_slopes, eight_heads) {
    float m[8];
    cr_assert_eq(alibi_slopes(m, 8), 0);
    for (int h = 0; h < 8; h++) cr_assert_float_eq(m[h], 1.0f / (float)(2 << h), 1e-9);
}

// 16 heads: start at 2^(-1/2) = 0.707107, ratio 2^(-1/2): every other slope
// is one of the 8-head slopes; the last is 1/256.
Test(alibi_slopes, sixteen_heads) {
    float m16[16], m8[8];
    cr_assert_eq(alibi_slopes(m16, 16), 0);
    alibi_slopes(m8, 8);
    cr_assert_float_eq(m16[0], 0.707107f, 1e-6);
    for (int h = 0; h < 8; h++) cr_assert_float_eq(m16[2 * h + 1], m8[h], 1e-7);
    for (int h = 1; h < 16; h++)
        cr_assert_float_eq(m16[h] / m16[h - 1], 0.707107f, 1e-6);
}

Test(alibi_slopes, one_head_and_errors) {
    float m[2] = {7, 7};
    cr_assert_eq(alibi_slopes(m, 1), 0);
    cr_assert_float_eq(m[0], 1.0f / 256, 1e-9);   // 2^(-8)
    cr_assert_eq(m[1], 7.0f);
    cr_assert_eq(alibi_slopes(m, 0), -1);
    cr_assert_eq(m[1], 7.0f);
}

Test(alibi_bias, hand_values) {
    float b[9];
    alibi_bias(b, 3, 0.5f);
    const float want[9] = {0, 0, 0, -0.5f, 0, 0, -1.0f, -0.5f, 0};
    for (int e = 0; e < 9; e++) cr_assert_float_eq(b[e], want[e], 1e-7, "entry %d", e);
}

// With q = k = 0 the weights are softmax of the bias alone: query i puts
// exp(-m (i - j)) / sum on key j <= i, and nothing on the future.
Test(alibi_attention, pure_bias_weights) {
    enum { N = 5, D = 2 };
    float zero[N * D] = {0}, v[N * D], out[N * D], w[N * N];
    for (int e = 0; e < N * D; e++) v[e] = (float)e;
    cr_assert_eq(alibi_attention(zero, zero, v, 0.25f, out, w, N, D, D), 0);
    for (int i = 0; i < N; i++) {
        double z = 0.0;
        for (int j = 0; j <= i; j++) z += exp(-0.25 * (i - j));
        for (int j = 0; j < N; j++)
            cr_assert_float_eq(w[i * N + j], j <= i ? exp(-0.25 * (i - j)) / z : 0.0,
                               1e-6, "(%d, %d)", i, j);
    }
    cr_assert_float_eq(w[0], 1.0f, 0);    // query 0 sees only itself
    cr_assert_float_eq(out[0], v[0], 0);
}

// Slope 0 is plain causal attention; scores shift by a constant per row
// leave the weights alone (translation: query i and i + s see the same
// pattern over their last keys when q, k repeat).
Test(alibi_attention, rows_sum_to_one_and_shift) {
    enum { N = 12, D = 4 };
    float q[N * D], k[N * D], v[N * D], out[N * D], w[N * N];
    rng_t rng;
    rng_seed(&rng, 9);
    for (int e = 0; e < 3 * D; e++) q[e] = k[e] = v[e] = rng_normal(&rng);
    for (int e = 3 * D; e < N * D; e++) q[e] = q[e % (3 * D)], k[e] = k[e % (3 * D)];
    for (int e = 0; e < N * D; e++) v[e] = (float)(e % 7);
    cr_assert_eq(alibi_attention(q, k, v, 0.5f, out, w, N, D, D), 0);
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++) s += w[i * N + j];
        cr_assert_float_eq(s, 1.0, 1e-6);
    }
    // Query 9 and query 6 hold the same vector, and so do their keys at the
    // same distance: their weights on distances 0..5 agree up to the mass
    // query 9 gives to its extra keys 0..2 (renormalise over distances 0..6).
    double s9 = 0.0, s6 = 0.0;
    for (int dist = 0; dist <= 6; dist++)
        s9 += w[9 * N + 9 - dist], s6 += w[6 * N + 6 - dist];
    for (int dist = 0; dist <= 6; dist++)
        cr_assert_float_eq(w[9 * N + 9 - dist] / s9, w[6 * N + 6 - dist] / s6, 1e-6);
}

// ---------------------------------------------------------------------------
// graded tasks the chapter does not print: the bidirectional bias, and the
// authors' slopes for any number of heads

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

Test(alibi_bias_symmetric, hand_values) {
    float b[9];
    memset(b, 0x7f, sizeof b);
    alibi_bias_symmetric(b, 3, 0.5f);
    const float want[9] = {0, -0.5f, -1, -0.5f, 0, -0.5f, -1, -0.5f, 0};
    for (int e = 0; e < 9; e++) cr_assert_float_eq(b[e], want[e], 1e-7, "b[%d]", e);
}

// Below the diagonal it is alibi_bias; the matrix is symmetric; n = 1 is 0.
Test(alibi_bias_symmetric, causal_half_symmetric_and_sizes) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 8; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 23);
        float slope = 0.01f + rng_uniform(&rng);
        float *b = malloc(sizeof(float) * n * n);
        float *causal = malloc(sizeof(float) * n * n);
        for (int e = 0; e < n * n; e++) b[e] = NAN;
        alibi_bias_symmetric(b, n, slope);
        alibi_bias(causal, n, slope);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float want = causal[(j <= i ? i : j) * n + (j <= i ? j : i)];
                cr_assert_float_eq(b[i * n + j], want, 1e-6, "n %d: b[%d][%d] = %g", n,
                                   i, j, (double)b[i * n + j]);
            }
        free(b);
        free(causal);
    }
}

// 6 heads: the 4-head slopes 1/4, 1/16, 1/64, 1/256, then slopes 1 and 3 of the
// 8-head sequence, 1/2 and 1/8.
Test(alibi_slopes_mixed, six_heads) {
    float m[7];
    m[6] = 7.0f;
    cr_assert_eq(alibi_slopes_mixed(m, 6), 0);
    const float want[6] = {0.25f, 0.0625f, 0.015625f, 0.00390625f, 0.5f, 0.125f};
    for (int h = 0; h < 6; h++) cr_assert_float_eq(m[h], want[h], 1e-9, "m[%d]", h);
    cr_assert_eq(m[6], 7.0f);
}

Test(alibi_slopes_mixed, three_heads_and_errors) {
    float m[3] = {7, 7, 7};
    cr_assert_eq(alibi_slopes_mixed(m, 0), -1);
    cr_assert_eq(m[0], 7.0f);
    cr_assert_eq(alibi_slopes_mixed(m, 3), 0);
    const float want[3] = {0.0625f, 0.00390625f, 0.25f};
    for (int h = 0; h < 3; h++) cr_assert_float_eq(m[h], want[h], 1e-9, "m[%d]", h);
}

// The authors' recursion, written as they wrote it: get_slopes(n) is the
// power-of-2 sequence of the closest power p <= n, then get_slopes(2p)[0::2].
static inline int authors_slopes(double *out, int n) {
    int p = 1 << (int)floor(log2((double)n));
    double start = exp2(-exp2(-(log2((double)p) - 3)));
    for (int i = 0; i < p; i++) out[i] = start * pow(start, i);
    if (p == n) return n;
    double twice[2048];
    authors_slopes(twice, 2 * p);
    for (int i = 0; i < n - p; i++) out[p + i] = twice[2 * i];
    return n;
}

// Every head count up to 64 and some drawn from the grading seed up to 1000:
// the authors' recursion; a power of 2 gives alibi_slopes.
Test(alibi_slopes_mixed, matches_the_authors_code) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static float got[1001], pow2[1001];
    static double want[1001];
    for (int c = 0; c < 72; c++) {
        int heads = c < 64 ? c + 1 : 65 + (int)(rng_uniform(&rng) * 935);
        got[heads] = 7.0f;
        cr_assert_eq(alibi_slopes_mixed(got, heads), 0);
        cr_assert_eq(got[heads], 7.0f, "heads %d: wrote past the end", heads);
        authors_slopes(want, heads);
        for (int h = 0; h < heads; h++)
            cr_assert(fabs(got[h] - want[h]) <= 1e-6 * want[h],
                      "heads %d: m[%d] = %.9g, want %.9g", heads, h, (double)got[h],
                      want[h]);
        if ((heads & (heads - 1)) == 0) {
            alibi_slopes(pow2, heads);
            for (int h = 0; h < heads; h++) cr_assert_eq(got[h], pow2[h]);
        }
    }
}
