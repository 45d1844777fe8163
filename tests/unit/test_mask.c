// test_mask.c -- mask builders, conventions, statistics, reachability, flow,
// float16 rounding and a padded batch through multi-head attention.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attention/softmax.h"
#include "base/mat.h"
#include "base/rng.h"
#include "layers/multihead.h"
#include "masks/mask.h"

// ---------------------------------------------------------------------------
// builders

Test(mask, causal_by_hand) {
    const unsigned char expect[9] = {1, 0, 0, 1, 1, 0, 1, 1, 1};
    unsigned char m[9];
    mask_causal(m, 3);
    cr_assert_arr_eq(m, expect, 9);
}

Test(mask, band_by_hand) {
    // n = 5, w = 1: the tridiagonal.
    const unsigned char expect[25] = {1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0,
                                      0, 0, 1, 1, 1, 0, 0, 0, 1, 1};
    unsigned char m[25];
    mask_band(m, 5, 1);
    cr_assert_arr_eq(m, expect, 25);
}

Test(mask, band_edges) {
    enum { n = 6 };
    unsigned char m[n * n], full[n * n];
    mask_full(full, n, n);
    mask_band(m, n, 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) cr_assert_eq(m[i * n + j], i == j);
    mask_band(m, n, -1);
    for (int k = 0; k < n * n; k++) cr_assert_eq(m[k], 0);
    mask_band(m, n, n - 1);
    cr_assert_arr_eq(m, full, n * n);
    mask_band(m, n, 100);
    cr_assert_arr_eq(m, full, n * n);
    mask_band(m, n, 3);                     // at most 2 w + 1 per row
    mask_stats_t s = mask_stats(m, n, n);
    cr_assert_eq(s.max_visible, 7 > n ? n : 7);
    cr_assert_eq(s.farthest, 3);
}

Test(mask, random_is_deterministic_with_diagonal) {
    enum { n = 40 };
    unsigned char a[n * n], b[n * n];
    rng_t r1, r2;
    rng_seed(&r1, 5);
    rng_seed(&r2, 5);
    mask_random(a, n, 0.3, &r1);
    mask_random(b, n, 0.3, &r2);
    cr_assert_arr_eq(a, b, n * n);
    int off = 0;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(a[i * n + i], 1);
        for (int j = 0; j < n; j++) off += i != j && a[i * n + j];
    }
    double frac = off / (double)(n * (n - 1));
    cr_assert(fabs(frac - 0.3) < 0.04, "off-diagonal density %f", frac);
    mask_random(a, n, 0.0, &r1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) cr_assert_eq(a[i * n + j], i == j);
    mask_random(a, n, 1.0, &r1);
    for (int k = 0; k < n * n; k++) cr_assert_eq(a[k], 1);
}

Test(mask, padding_from_ids) {
    const int ids[4] = {7, 3, 0, 0};
    unsigned char keep[4], m[16];
    mask_key_padding(ids, 4, keep);
    const unsigned char expect[4] = {1, 1, 0, 0};
    cr_assert_arr_eq(keep, expect, 4);
    mask_padding(ids, 4, m);
    for (int i = 0; i < 4; i++) cr_assert_arr_eq(m + i * 4, expect, 4);
}

Test(mask, and_invert_alias) {
    unsigned char a[4] = {1, 1, 0, 0}, b[4] = {1, 0, 1, 0}, out[4];
    mask_and(a, b, out, 4);
    const unsigned char e_and[4] = {1, 0, 0, 0};
    cr_assert_arr_eq(out, e_and, 4);
    mask_and(a, b, a, 4);                  // out aliases a
    cr_assert_arr_eq(a, e_and, 4);
    unsigned char c[3] = {0, 1, 5};
    mask_invert(c, c, 3);
    const unsigned char e_inv[3] = {1, 0, 0};
    cr_assert_arr_eq(c, e_inv, 3);
}

// ---------------------------------------------------------------------------
// conversions

Test(mask, additive_equals_masked_softmax) {
    enum { n = 5, m = 7 };
    float s[n * m], a[n * m], bias[n * m];
    unsigned char mask[n * m];
    rng_t rng;
    rng_seed(&rng, 3);
    rng_fill_normal(&rng, s, n * m, 0.0f, 3.0f);
    mask_random(mask, 5, 0.5, &rng);       // (5, 5) into the first 25
    for (int k = 25; k < n * m; k++) mask[k] = k % 2;
    memcpy(a, s, sizeof s);
    softmax_rows_masked(a, mask, n, m);
    float b[n * m];
    memcpy(b, s, sizeof s);
    mask_to_additive(mask, bias, n * m, -INFINITY);
    mat_add(b, bias, n * m);
    softmax_rows(b, n, m);
    cr_assert(mat_max_abs_diff(a, b, n * m) <= 1e-7);
    memcpy(b, s, sizeof s);
    softmax_rows(b, n, m);
    mask_multiply_rows(b, mask, n, m, 1);
    cr_assert(mat_max_abs_diff(a, b, n * m) <= 1e-6);
}

Test(mask, multiply_without_renorm_and_empty_row) {
    float w[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    const unsigned char m[4] = {1, 0, 0, 0};
    mask_multiply_rows(w, m, 1, 4, 0);
    cr_assert_float_eq(w[0] + w[1] + w[2] + w[3], 0.25f, 1e-7);
    float z[3] = {0.2f, 0.3f, 0.5f};
    const unsigned char none[3] = {0, 0, 0};
    mask_multiply_rows(z, none, 1, 3, 1);
    for (int j = 0; j < 3; j++) cr_assert_eq(z[j], 0.0f);
}

// The library's defined result for a fully masked row: zeros, never NaN.
Test(mask, fully_masked_row_is_zero_not_nan) {
    float x[4] = {1.0f, -2.0f, 3.0f, 0.5f};
    const unsigned char none[4] = {0};
    softmax_rows_masked(x, none, 1, 4);
    for (int j = 0; j < 4; j++) cr_assert_eq(x[j], 0.0f);
}

Test(mask, round_half) {
    cr_assert_eq(mask_round_half(1.0f), 1.0f);
    cr_assert_eq(mask_round_half(65504.0f), 65504.0f);
    cr_assert(isinf(mask_round_half(-1e9f)) && mask_round_half(-1e9f) < 0);
    cr_assert(isinf(mask_round_half(65520.0f)));
    cr_assert_eq(mask_round_half(65519.0f), 65504.0f);
    cr_assert_eq(mask_round_half(1.0f + 1.0f / 4096), 1.0f);     // below half a step
    cr_assert_eq(mask_round_half(1.0f + 3.0f / 2048),
                 1.0f + 2.0f / 1024); // tie to even
    cr_assert_eq(mask_round_half(0.1f), 0.0999755859375f);
    cr_assert_eq(mask_round_half(1e-8f), 0.0f);
    cr_assert_eq(mask_round_half(6e-8f), 5.9604644775390625e-08f);   // 2^-24
    cr_assert(isnan(mask_round_half(NAN)));
}

// ---------------------------------------------------------------------------
// statistics (graded: mask_stats' counting loop)

Test(mask, stats_causal_by_hand) {
    unsigned char m[16];
    mask_causal(m, 4);
    mask_stats_t s = mask_stats(m, 4, 4);
    cr_assert_float_eq(s.density, 10.0 / 16, 1e-12);
    cr_assert_float_eq(s.mean_visible, 2.5, 1e-12);
    cr_assert_eq(s.max_visible, 4);
    cr_assert_eq(s.min_visible, 1);
    cr_assert_eq(s.empty_rows, 0);
    cr_assert_eq(s.farthest, 3);
}

Test(mask, stats_padding_and_empty) {
    const int ids[5] = {4, 9, 2, 0, 0};
    unsigned char m[25];
    mask_padding(ids, 5, m);
    mask_stats_t s = mask_stats(m, 5, 5);
    cr_assert_float_eq(s.density, 0.6, 1e-12);
    cr_assert_eq(s.max_visible, 3);
    cr_assert_eq(s.min_visible, 3);
    cr_assert_eq(s.farthest, 4);            // pad query 4 sees key 0
    unsigned char none[6] = {0};
    s = mask_stats(none, 2, 3);
    cr_assert_eq(s.empty_rows, 2);
    cr_assert_eq(s.farthest, -1);
    cr_assert_eq(s.density, 0.0);
    s = mask_stats(none, 0, 3);
    cr_assert_eq(s.farthest, -1);
    const unsigned char rect[6] = {0, 0, 1, 1, 0, 0};   // (2, 3)
    s = mask_stats(rect, 2, 3);
    cr_assert_eq(s.farthest, 2);
    cr_assert_eq(s.empty_rows, 0);
    cr_assert_eq(s.max_visible, 1);
}

// ---------------------------------------------------------------------------
// reachability (graded: the step of mask_reach)

// Naive reference: R_L = (I OR M) R_{L-1} as boolean matrix products.
static void reach_naive(const unsigned char *m, int n, int layers, unsigned char *r) {
    unsigned char *a = malloc((size_t)n * n), *t = malloc((size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i * n + j] = m[i * n + j] || i == j;
            r[i * n + j] = i == j;
        }
    for (int l = 0; l < layers; l++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int v = 0;
                for (int k = 0; k < n; k++) v |= a[i * n + k] && r[k * n + j];
                t[i * n + j] = (unsigned char)v;
            }
        memcpy(r, t, (size_t)n * n);
    }
    free(a);
    free(t);
}

Test(mask, reach_band_grows_by_w) {
    enum { n = 20, w = 2 };
    unsigned char m[n * n], r[n * n], e[n * n];
    mask_band(m, n, w);
    for (int l = 0; l <= 10; l++) {
        cr_assert_eq(mask_reach(m, n, l, r), 0);
        mask_band(e, n, w * l);
        cr_assert_arr_eq(r, e, n * n, "L = %d", l);
    }
}

Test(mask, reach_causal_closed_and_random_matches_naive) {
    enum { n = 12 };
    unsigned char m[n * n], r[n * n], e[n * n];
    mask_causal(m, n);
    for (int l = 1; l <= 4; l++) {
        mask_reach(m, n, l, r);
        cr_assert_arr_eq(r, m, n * n);
    }
    rng_t rng;
    rng_seed(&rng, 11);
    for (int trial = 0; trial < 5; trial++) {
        for (int k = 0; k < n * n; k++) m[k] = rng_uniform(&rng) < 0.12f;
        for (int l = 0; l <= 4; l++) {
            mask_reach(m, n, l, r);
            reach_naive(m, n, l, e);
            cr_assert_arr_eq(r, e, n * n, "trial %d L = %d", trial, l);
        }
    }
    cr_assert_eq(mask_reach(m, n, -1, r), -1);
}

// ---------------------------------------------------------------------------
// flow

Test(mask, flow_by_hand) {
    // Row 0 all on itself; row 1 half on key 0, half on key 1.
    const float w[4] = {1.0f, 0.0f, 0.5f, 0.5f};
    mask_flow_t f = mask_flow(w, 2, 2, 0.01);
    cr_assert_float_eq(f.mean_distance, 0.25, 1e-12);   // (0 + 0.5) / 2
    cr_assert_float_eq(f.entropy, log(2.0) / 2, 1e-7);
    cr_assert_eq(f.farthest, 1);
    f = mask_flow(w, 2, 2, 0.6);
    cr_assert_eq(f.farthest, 0);
    f = mask_flow(w, 0, 2, 0.01);
    cr_assert_eq(f.farthest, -1);
}

// ---------------------------------------------------------------------------
// a padded batch: real tokens give exactly their unpadded outputs

Test(mask, padded_batch_equals_unpadded_exactly) {
    enum { b = 3, n = 7, d = 12, h = 3 };
    const int lens[b] = {7, 4, 1};
    mha_params_t p;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    rng_t rng;
    rng_seed(&rng, 21);
    mha_init(&p, &rng);
    float x[b * n * d], out[b * n * d], alone[n * d], w[b * h * n * n];
    rng_fill_normal(&rng, x, b * n * d, 0.0f, 1.0f);
    unsigned char keep[b * n], causal[n * n], c2[n * n];
    for (int s = 0; s < b; s++)
        for (int j = 0; j < n; j++) keep[s * n + j] = j < lens[s];
    mask_causal(causal, n);
    for (int use_causal = 0; use_causal < 2; use_causal++) {
        cr_assert_eq(mask_mha_batch(&p, x, b, n, keep, use_causal ? causal : NULL, out,
                                    w), 0);
        for (int s = 0; s < b; s++) {
            int len = lens[s];
            mask_causal(c2, len);
            mha_forward(&p, x + s * n * d, len, x + s * n * d, len,
                        use_causal ? c2 : NULL, alone, NULL);
            cr_assert_eq(mat_max_abs_diff(alone, out + s * n * d, (size_t)len * d),
                         0.0);
            for (int hq = 0; hq < h * n; hq++)       // no weight on padded keys
                for (int j = len; j < n; j++)
                    cr_assert_eq(w[((size_t)s * h * n + hq) * n + j], 0.0f);
        }
    }
    mha_free(&p);
}

// ---------------------------------------------------------------------------
// graded tasks the chapter does not print: the prefix-LM mask, the causal
// window, transitivity, and the fewest layers between two positions

// The grading seed (GRADER_SEED; a fixed one when unset): hidden tests draw their
// masks from it, so no submission can know them in advance.
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// mask (n, m) <- each entry visible with probability p.
static inline void random_rect(unsigned char *mask, int n, int m, double p,
                               rng_t *rng) {
    for (int i = 0; i < n * m; i++) mask[i] = rng_uniform(rng) < p;
}

// Statistics of random rectangular masks against a count written the other way
// round (columns outer, distances from the key's side).
Test(mask, stats_random_masks_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {9, 4}, {17, 17}};
    for (int c = 0; c < 6; c++) {
        int n = sizes[c][0], m = sizes[c][1];
        unsigned char mask[17 * 17];
        random_rect(mask, n, m, 0.2 + 0.6 * rng_uniform(&rng), &rng);
        int count[17] = {0}, far = -1, total = 0;
        for (int j = m - 1; j >= 0; j--)
            for (int i = 0; i < n; i++)
                if (mask[i * m + j]) {
                    count[i]++, total++;
                    far = abs(j - i) > far ? abs(j - i) : far;
                }
        int mx = 0, mn = m, empty = 0;
        for (int i = 0; i < n; i++) {
            mx = count[i] > mx ? count[i] : mx;
            mn = count[i] < mn ? count[i] : mn;
            empty += count[i] == 0;
        }
        mask_stats_t s = mask_stats(mask, n, m);
        cr_assert_eq(s.farthest, far, "(%d, %d): farthest %d, want %d", n, m,
                     s.farthest, far);
        cr_assert_eq(s.max_visible, mx, "(%d, %d): max_visible", n, m);
        cr_assert_eq(s.min_visible, mn, "(%d, %d): min_visible", n, m);
        cr_assert_eq(s.empty_rows, empty, "(%d, %d): empty_rows", n, m);
        cr_assert_float_eq(s.density, (double)total / (n * m), 1e-12, "(%d, %d)", n, m);
    }
}

Test(mask, window_causal_by_hand) {
    // n = 5, w = 1: the diagonal and the one below it.
    const unsigned char expect[25] = {1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0,
                                      0, 0, 1, 1, 0, 0, 0, 0, 1, 1};
    unsigned char m[25];
    memset(m, 7, sizeof m);
    mask_window_causal(m, 5, 1);
    cr_assert_arr_eq(m, expect, 25);
}

Test(mask, window_causal_edges) {
    unsigned char m[16], c[16], d[16] = {0};
    memset(m, 7, sizeof m);
    mask_window_causal(m, 4, 3);             // w = n - 1: the causal mask
    mask_causal(c, 4);
    cr_assert_arr_eq(m, c, 16);
    mask_window_causal(m, 4, 0);             // w = 0: the diagonal
    for (int i = 0; i < 4; i++) d[i * 5] = 1;
    cr_assert_arr_eq(m, d, 16);
    mask_window_causal(m, 4, -1);            // w < 0: nothing
    for (int i = 0; i < 16; i++) cr_assert_eq(m[i], 0, "w = -1: m[%d] = %d", i, m[i]);
}

// Random n and w: the window equals the causal mask AND the band of half-width w.
Test(mask, window_causal_is_causal_and_band) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 12; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 19), w = (int)(rng_uniform(&rng) * n) - 1;
        unsigned char got[20 * 20], causal[20 * 20], band[20 * 20];
        memset(got, 9, sizeof got);
        mask_window_causal(got, n, w);
        mask_causal(causal, n);
        mask_band(band, n, w);
        mask_and(causal, band, causal, (size_t)n * n);
        for (int i = 0; i < n * n; i++)
            cr_assert_eq(got[i], causal[i], "n %d, w %d: entry (%d, %d) = %d", n, w,
                         i / n, i % n, got[i]);
    }
}

// n = 4, prefix = 2: the first two see each other, the last two are causal.
Test(mask, prefix_lm_by_hand) {
    const unsigned char expect[16] = {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1};
    unsigned char m[16];
    memset(m, 7, sizeof m);
    mask_prefix_lm(m, 4, 2);
    cr_assert_arr_eq(m, expect, 16);
}

// No prefix (0, negative, or one token, which sees only itself) is the causal
// mask; a prefix of the whole sequence or longer is the full mask.
Test(mask, prefix_lm_edges) {
    unsigned char m[25], c[25], f[25];
    mask_causal(c, 5);
    mask_full(f, 5, 5);
    const int prefixes[5] = {0, -3, 1, 5, 9};
    for (int k = 0; k < 5; k++) {
        memset(m, 7, sizeof m);
        mask_prefix_lm(m, 5, prefixes[k]);
        cr_assert_arr_eq(m, prefixes[k] >= 5 ? f : c, 25, "prefix %d", prefixes[k]);
    }
}

// Random n and prefix against a reference written from the other side: start
// full and hide each future key j > i that lies past the prefix (j >= prefix);
// then the prefix block is symmetric and every row from the prefix on is causal.
Test(mask, prefix_lm_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 12; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 19);
        int p = (int)(rng_uniform(&rng) * (n + 5)) - 2;
        unsigned char got[20 * 20], want[20 * 20];
        memset(got, 9, sizeof got);
        mask_prefix_lm(got, n, p);
        mask_full(want, n, n);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (j >= p) want[i * n + j] = 0;
        for (int i = 0; i < n * n; i++)
            cr_assert_eq(got[i], want[i], "n %d, prefix %d: entry (%d, %d) = %d", n, p,
                         i / n, i % n, got[i]);
        for (int i = 0; i < n && i < p; i++)
            for (int j = 0; j < n && j < p; j++)
                cr_assert_eq(got[i * n + j], got[j * n + i], "prefix block symmetric");
    }
}

Test(mask, transitive_by_hand) {
    unsigned char m[25];
    mask_causal(m, 5);
    cr_assert_eq(mask_is_transitive(m, 5), 1, "causal");
    mask_full(m, 5, 5);
    cr_assert_eq(mask_is_transitive(m, 5), 1, "full");
    mask_band(m, 5, 1);
    cr_assert_eq(mask_is_transitive(m, 5), 0, "band w = 1");
    mask_band(m, 5, 0);
    cr_assert_eq(mask_is_transitive(m, 5), 1, "diagonal");
}

// Strictly causal (j < i): transitive, although M^2 != M (M^2 skips one step).
// A single edge 0 -> 1 whose only path back is through a hidden diagonal.
Test(mask, transitive_without_the_diagonal) {
    unsigned char m[25];
    mask_causal(m, 5);
    for (int i = 0; i < 5; i++) m[i * 6] = 0;
    cr_assert_eq(mask_is_transitive(m, 5), 1, "strictly causal");
    const unsigned char one[4] = {0, 1, 0, 0};
    cr_assert_eq(mask_is_transitive(one, 2), 1, "0 sees 1 only");
    const unsigned char two[9] = {0, 1, 0, 0, 0, 1, 0, 0, 0};   // 0 -> 1 -> 2
    cr_assert_eq(mask_is_transitive(two, 3), 0, "0 sees 1, 1 sees 2");
    const unsigned char last[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};  // 2 -> 1 -> 0
    cr_assert_eq(mask_is_transitive(last, 3), 0, "2 sees 1, 1 sees 0");
}

// Random masks (sparse ones are often transitive, dense ones rarely): against
// the boolean product (I M)^2 from mask_reach, transitive iff two layers without
// the residual see nothing one layer does not.
Test(mask, transitive_random_masks_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    int seen[2] = {0, 0};
    for (int c = 0; c < 60; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 9);
        unsigned char m[81];
        random_rect(m, n, n, 0.04 + 0.3 * rng_uniform(&rng), &rng);
        int want = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int two = 0;
                for (int k = 0; k < n; k++) two |= m[i * n + k] && m[k * n + j];
                if (two && !m[i * n + j]) want = 0;
            }
        seen[want]++;
        cr_assert_eq(mask_is_transitive(m, n), want, "case %d (n = %d)", c, n);
    }
    cr_assert(seen[0] > 0 && seen[1] > 0);
}

Test(mask, min_layers_band_by_hand) {
    // n = 7, w = 2: j arrives after ceil(|i - j| / 2) layers.
    int d[49];
    unsigned char m[49];
    mask_band(m, 7, 2);
    cr_assert_eq(mask_min_layers(m, 7, d), 0);
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            cr_assert_eq(d[i * 7 + j], (abs(i - j) + 1) / 2, "depth[%d][%d] = %d", i, j,
                         d[i * 7 + j]);
}

Test(mask, min_layers_causal_chain_and_never) {
    // Query i sees only i - 1: j < i arrives after i - j layers, j > i never.
    unsigned char m[36] = {0};
    for (int i = 1; i < 6; i++) m[i * 6 + i - 1] = 1;
    int d[36];
    memset(d, 0x55, sizeof d);
    cr_assert_eq(mask_min_layers(m, 6, d), 0);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            cr_assert_eq(d[i * 6 + j], j <= i ? i - j : -1, "depth[%d][%d] = %d", i, j,
                         d[i * 6 + j]);
    cr_assert_eq(mask_min_layers(m, -1, d), -1);
}

// Random sparse masks: depth[i][j] <= L exactly where L layers of mask_reach
// reach, for every L up to n.
Test(mask, min_layers_agrees_with_reach_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 10; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 12);
        unsigned char m[144], reach[144];
        int d[144];
        random_rect(m, n, n, 0.05 + 0.2 * rng_uniform(&rng), &rng);
        cr_assert_eq(mask_min_layers(m, n, d), 0);
        for (int layers = 0; layers <= n; layers++) {
            cr_assert_eq(mask_reach(m, n, layers, reach), 0);
            for (int i = 0; i < n * n; i++)
                cr_assert_eq(d[i] >= 0 && d[i] <= layers, reach[i] != 0,
                             "n %d, %d layers: depth[%d][%d] = %d, reach %d", n, layers,
                             i / n, i % n, d[i], reach[i]);
        }
    }
}
