// test_rng.c -- the explicit random number generator: determinism, ranges,
// moments.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "helpers.h"

// The same seed gives the same stream; a different seed a different one.
Test(rng, same_seed_same_stream) {
    rng_t a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
        cr_assert_eq(x, y, "step %d", i);
        differ += x != z;
    }
    cr_assert_gt(differ, 990);
}

// Seed 0 is valid: the state is never zero (xorshift would stay at zero).
Test(rng, seed_zero_is_valid) {
    rng_t r;
    rng_seed(&r, 0);
    cr_assert_neq(r.state, 0);
    uint64_t first = rng_next(&r);
    int same = 0;
    for (int i = 0; i < 100; i++) same += rng_next(&r) == first;
    cr_assert_eq(same, 0);
}

// A known value pins the algorithm: a change to rng.c would silently change
// every number in the book. splitmix64(0) = 0xE220A8397B1DCDAF, then one
// xorshift64* step.
Test(rng, first_value_of_seed_zero) {
    rng_t r;
    rng_seed(&r, 0);
    cr_assert_eq(r.state, 0xE220A8397B1DCDAFull);
    uint64_t x = 0xE220A8397B1DCDAFull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    cr_assert_eq(rng_next(&r), x * 0x2545F4914F6CDD1Dull);
}

// rng_uniform lies in [0, 1); over many draws its mean is 1/2 and its
// variance 1/12, each within a few standard errors.
Test(rng, uniform_range_and_moments) {
    enum { N = 200000 };
    static float x[N];
    rng_t r;
    rng_seed(&r, 7);
    for (int i = 0; i < N; i++) {
        x[i] = rng_uniform(&r);
        cr_assert(x[i] >= 0.0f && x[i] < 1.0f, "x[%d] = %g", i, (double)x[i]);
    }
    stats_t s = stats_of(x, N);
    cr_assert_float_eq(s.mean, 0.5, 5 * sqrt(1.0 / 12 / N));
    cr_assert_float_eq(s.std * s.std, 1.0 / 12, 0.002);
    cr_assert_lt(s.min, 0.001);
    cr_assert_gt(s.max, 0.999);
}

// rng_fill_uniform maps to [lo, hi).
Test(rng, fill_uniform_range) {
    float x[1000];
    rng_t r;
    rng_seed(&r, 8);
    rng_fill_uniform(&r, x, 1000, -2.0f, 3.0f);
    for (int i = 0; i < 1000; i++) cr_assert(x[i] >= -2.0f && x[i] < 3.0f);
}

// N(mean, std^2) samples: mean and std within a few standard errors, finite,
// and about 68% within one std (the normal, not some other bell).
Test(rng, normal_moments) {
    enum { N = 200000 };
    static float x[N];
    rng_t r;
    rng_seed(&r, 9);
    rng_fill_normal(&r, x, N, 3.0f, 2.0f);
    int within = 0;
    for (int i = 0; i < N; i++) {
        cr_assert(isfinite(x[i]));
        within += fabsf(x[i] - 3.0f) < 2.0f;
    }
    stats_t s = stats_of(x, N);
    cr_assert_float_eq(s.mean, 3.0, 5 * 2.0 / sqrt(N));
    cr_assert_float_eq(s.std, 2.0, 0.02);
    cr_assert_float_eq((double)within / N, 0.6827, 0.005);
}

// n = 0 writes nothing.
Test(rng, fill_zero_writes_nothing) {
    float x[1] = {123.0f};
    rng_t r;
    rng_seed(&r, 1);
    rng_fill_normal(&r, x, 0, 0.0f, 1.0f);
    rng_fill_uniform(&r, x, 0, 0.0f, 1.0f);
    cr_assert_float_eq(x[0], 123.0f, 0.0);
}
