// test_tiled.c -- the tuned exact attention equals the standard one.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "base/rng.h"
#include "fast/tiled.h"

// tiled_exp against the C library's exp, in double, on a dense grid of [-90, 0].
Test(tiled, exp_relative_error_below_3e7) {
    double worst = 0.0;
    for (int i = 0; i <= 900000; i++) {
        float x = -90.0f + 1e-4f * (float)i;
        double want = exp((double)x), got = tiled_exp(x);
        if (x < -87.0f) {
            cr_assert(got == 0.0, "tiled_exp(%g) = %g, want 0 below -87", x, got);
            continue;
        }
        double rel = fabs(got - want) / want;
        if (rel > worst) worst = rel;
    }
    cr_assert(worst < 3e-7, "largest relative error %.3g", worst);
    cr_assert(tiled_exp(0.0f) == 1.0f);
    cr_assert(tiled_exp(5.0f) == 1.0f, "x > 0 is clamped to 0");
    cr_assert(isnan(tiled_exp(NAN)));
    cr_assert(tiled_exp(-INFINITY) == 0.0f);
}

static void check_against_standard(int h, int n, int m, int d_k, int d_v, float spread,
                                   uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    size_t nq = (size_t)h * n * d_k, nk = (size_t)h * m * d_k, nv = (size_t)h * m * d_v;
    float *q = malloc(nq * sizeof *q), *k = malloc(nk * sizeof *k);
    float *v = malloc(nv * sizeof *v), *fast = malloc((size_t)h * n * d_v * sizeof *fast);
    float *want = malloc((size_t)n * d_v * sizeof *want);
    float *w = malloc((size_t)n * m * sizeof *w);
    cr_assert(q && k && v && fast && want && w);
    rng_fill_normal(&rng, q, (int)nq, 0.0f, spread);
    rng_fill_normal(&rng, k, (int)nk, 0.0f, 1.0f);
    rng_fill_normal(&rng, v, (int)nv, 0.0f, 1.0f);
    cr_assert_eq(tiled_attention_forward(q, k, v, fast, h, n, m, d_k, d_v), 0);
    for (int hh = 0; hh < h; hh++) {
        attention_forward(q + (size_t)hh * n * d_k, k + (size_t)hh * m * d_k,
                          v + (size_t)hh * m * d_v, NULL, want, w, n, m, d_k, d_v);
        for (int i = 0; i < n * d_v; i++) {
            float got = fast[(size_t)hh * n * d_v + i];
            cr_assert(fabsf(got - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]),
                      "h=%d n=%d m=%d d_k=%d d_v=%d: head %d element %d: %.9g vs %.9g", h,
                      n, m, d_k, d_v, hh, i, got, want[i]);
        }
    }
    free(q), free(k), free(v), free(fast), free(want), free(w);
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
                                       ds[(c + 1) % 5], 1.0f, seed);
}

// Scores of size ~100: the running max changes often and exp underflows a lot.
Test(tiled, equals_attention_forward_on_sharp_scores) {
    check_against_standard(2, 70, 300, 16, 16, 30.0f, 99);
    check_against_standard(1, 5, 1000, 64, 32, 100.0f, 98);
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
