// test_kv_cache.c -- cached decoding equals the full causal computation;
// cache limits; the work and memory counts.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "base/mat.h"
#include "base/rng.h"
#include "layers/multihead.h"
#include "masks/kv_cache.h"
#include "masks/mask.h"

static void check_equal_full(int n, int d, int h, uint64_t seed) {
    mha_params_t p;
    kv_cache_t c;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    cr_assert_eq(kv_alloc(&c, d, h, n), 0);
    rng_t rng;
    rng_seed(&rng, seed);
    mha_init(&p, &rng);
    rng_fill_normal(&rng, p.b_o, d, 0.0f, 0.1f);
    float *x = malloc(sizeof(float) * n * d), *y = malloc(sizeof(float) * n * d);
    float *full = malloc(sizeof(float) * n * d);
    float *w = malloc(sizeof(float) * h * n), *wf = malloc(sizeof(float) * h * n * n);
    unsigned char *causal = malloc((size_t)n * n);
    rng_fill_normal(&rng, x, n * d, 0.0f, 1.0f);
    mask_causal(causal, n);
    mha_forward(&p, x, n, x, n, causal, full, wf);
    for (int t = 0; t < n; t++) {
        cr_assert_eq(kv_step(&p, &c, x + t * d, y + t * d, w), 0);
        cr_assert_eq(c.len, t + 1);
        for (int i = 0; i < h; i++)             // weights: row t of each head
            for (int j = 0; j <= t; j++)
                cr_assert(fabsf(w[i * (t + 1) + j] - wf[(i * n + t) * n + j]) <= 1e-6f);
    }
    cr_assert(mat_max_abs_diff(y, full, (size_t)n * d) <= 1e-5, "n %d d %d h %d", n, d,
              h);
    float extra[64];
    cr_assert_eq(kv_step(&p, &c, x, extra, NULL), -1);   // full
    kv_reset(&c);
    cr_assert_eq(c.len, 0);
    cr_assert_eq(kv_step(&p, &c, x, y, NULL), 0);
    cr_assert(mat_max_abs_diff(y, full, d) <= 1e-5);    // first token again
    kv_free(&c);
    kv_free(&c);
    mha_free(&p);
    free(x), free(y), free(full), free(w), free(wf), free(causal);
}

Test(kv_cache, equals_full_causal) {
    check_equal_full(1, 4, 1, 1);
    check_equal_full(9, 16, 4, 2);
    check_equal_full(17, 24, 3, 3);
    check_equal_full(33, 64, 8, 4);
}

Test(kv_cache, alloc_errors) {
    kv_cache_t c;
    cr_assert_eq(kv_alloc(&c, 10, 3, 4), -1);
    cr_assert_eq(kv_alloc(&c, 0, 1, 4), -1);
    cr_assert_eq(kv_alloc(&c, 8, 2, 0), -1);
    kv_free(&c);
    mha_params_t p;
    cr_assert_eq(mha_alloc(&p, 8, 2), 0);
    cr_assert_eq(kv_alloc(&c, 8, 4, 3), 0);            // other head count
    float x[8] = {0}, y[8];
    cr_assert_eq(kv_step(&p, &c, x, y, NULL), -1);
    cr_assert_eq(c.len, 0);
    kv_free(&c);
    mha_free(&p);
}

Test(kv_cache, counts) {
    cr_assert_eq(kv_macs_cached(4, 1), 4 * 16 + 2 * 4);
    cr_assert_eq(kv_macs_uncached(4, 3), 4 * 3 * 16 + 2 * 9 * 4);
    for (int t = 1; t < 50; t++)                        // uncached = t * cached
        cr_assert_eq(kv_macs_uncached(64, t), t * kv_macs_cached(64, t));
    cr_assert_eq(kv_macs_cached(0, 5), 0);
    cr_assert_eq(kv_macs_uncached(8, 0), 0);
    cr_assert_eq(kv_bytes_per_token(512, 1), 4096);
    cr_assert_eq(kv_bytes_per_token(768, 12), 73728);
    cr_assert_eq(kv_bytes_per_token(-1, 2), 0);
}
