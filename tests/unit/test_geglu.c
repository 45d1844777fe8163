// test_geglu.c -- the GELU-gated unit (graded: forward and backward).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "layers/geglu.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// GELU (tanh form) of 1, -1, 2: 0.841192, -0.158808, 1.954598; times b.
Test(geglu, forward_by_hand) {
    const float a[4] = {1, -1, 2, 0}, b[4] = {1, 2, -0.5f, 3};
    float h[5] = {7, 7, 7, 7, 7};
    geglu_forward(a, b, h, 4);
    cr_assert_float_eq(h[0], 0.841192f, 1e-6);
    cr_assert_float_eq(h[1], -0.317616f, 1e-6);
    cr_assert_float_eq(h[2], -0.977299f, 1e-6);
    cr_assert_float_eq(h[3], 0.0f, 1e-7);
    cr_assert_eq(h[4], 7.0f);
}

// Random a (large ones too: GELU(a) -> a for a >> 0, -> 0 for a << 0) against
// the formula written out in double, in place (h = a).
Test(geglu, forward_random_in_place) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    float a[301], b[301], keep[301];
    long n = 1 + (long)(rng_uniform(&rng) * 300);
    rng_fill_normal(&rng, a, (int)n, 0, 4);
    rng_fill_normal(&rng, b, (int)n, 0, 1);
    a[0] = 30.0f;
    for (long i = 0; i < n; i++) keep[i] = a[i];
    geglu_forward(a, b, a, n);
    for (long i = 0; i < n; i++) {
        double x = keep[i], c = sqrt(2.0 / acos(-1.0));
        double want = x * (0.5 + 0.5 * tanh(c * x * (1.0 + 0.044715 * x * x))) * b[i];
        cr_assert(fabs(a[i] - want) <= 1e-5 * (1 + fabs(want)), "h[%ld] = %g, want %g",
                  i, (double)a[i], want);
    }
}

// Central differences of sum_i r_i GELU(a_i) b_i; gradients start from 1 and must
// be added to.
static void check_backward(const float *a0, const float *b0, const float *r, long n) {
    float a[64] = {0}, b[64] = {0}, da[64], db[64];
    for (long i = 0; i < n; i++) a[i] = a0[i], b[i] = b0[i], da[i] = db[i] = 1.0f;
    geglu_backward(a, b, r, da, db, n);
    for (long i = 0; i < n; i++) {
        double h = 1e-3;
        double fa =
            r[i] * b[i] * (geglu_gelu(a[i] + h) - geglu_gelu(a[i] - h)) / (2 * h);
        double fb = r[i] * geglu_gelu(a[i]);
        cr_assert(fabs((da[i] - 1.0) - fa) <= 1e-4 + 1e-3 * fabs(fa),
                  "da[%ld] = %g, finite difference %g (a = %g)", i, da[i] - 1.0, fa,
                  (double)a[i]);
        cr_assert(fabs((db[i] - 1.0) - fb) <= 1e-4 + 1e-3 * fabs(fb),
                  "db[%ld] = %g, want %g", i, db[i] - 1.0, fb);
    }
}

Test(geglu, backward_by_finite_differences) {
    const float a[5] = {-2, -0.5f, 0, 0.7f, 1.5f}, b[5] = {1, -2, 0.5f, 3, -1};
    const float r[5] = {1, 0.5f, -1, 2, 1};
    check_backward(a, b, r, 5);
}

Test(geglu, backward_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 10; c++) {
        float a[64], b[64], r[64];
        long n = 1 + (long)(rng_uniform(&rng) * 63);
        rng_fill_normal(&rng, a, (int)n, 0, 2.5f);
        rng_fill_normal(&rng, b, (int)n, 0, 1);
        rng_fill_normal(&rng, r, (int)n, 0, 1);
        check_backward(a, b, r, n);
    }
}
