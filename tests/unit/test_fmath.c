// test_fmath.c -- tanh_fast against tanh in double, within fmath.h's bound.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/fmath.h"

static double rel_error(float x) {
    double r = tanh((double)x);
    return r == 0.0 ? fabs((double)tanh_fast(x)) : fabs(tanh_fast(x) - r) / fabs(r);
}

// Every 97th positive float, both signs (the whole range of floats in a few
// seconds under ASan), and the worst point of the full scan in fmath.h.
Test(fmath, tanh_fast_within_its_bound) {
    double worst = 0.0;
    for (uint64_t u = 1; u < 0x7f800000u; u += 97) {
        uint32_t b = (uint32_t)u;
        float x;
        memcpy(&x, &b, sizeof x);
        double e = fmax(rel_error(x), rel_error(-x));
        if (e > worst) worst = e;
    }
    worst = fmax(worst, rel_error(0.126274168f));
    cr_assert(worst <= TANH_FAST_REL_ERROR, "worst relative error %.3g > %.3g", worst,
              TANH_FAST_REL_ERROR);
    cr_assert(worst > TANH_FAST_REL_ERROR / 4, "the bound %.3g is loose: worst %.3g",
              TANH_FAST_REL_ERROR, worst);
}

Test(fmath, tanh_fast_edges) {
    cr_assert_eq(tanh_fast(0.0f), 0.0f);
    cr_assert(signbit(tanh_fast(-0.0f)));
    cr_assert_eq(tanh_fast(INFINITY), 1.0f);
    cr_assert_eq(tanh_fast(-INFINITY), -1.0f);
    cr_assert(isnan(tanh_fast(NAN)));
    cr_assert_eq(tanh_fast(1e-30f), 1e-30f);            // tiny x: tanh x = x
    cr_assert_eq(tanh_fast(-20.0f), -1.0f);
    for (float x = -3.0f; x < 3.0f; x += 0.01f)         // odd
        cr_assert_eq(tanh_fast(-x), -tanh_fast(x), "x = %g", x);
}

// expf_n, tanh_fast_n and sigmoid_n against expf, tanh_fast and 1 / (1 + expf(-x))
// one float at a time: the same bits. Every 4099th bit pattern of all 2^32 (both
// signs, NaNs, infinities, subnormals, the |x| >= 88 lanes that fall back to expf),
// in runs of 8191 (so the last floats of each run take the one-at-a-time tail).
// All 2^32 compared once the same way found no difference (3.5 minutes: not here).
static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
static float sigmoid1(float x) { return 1.0f / (1.0f + expf(-x)); }

Test(fmath, row_functions_give_the_one_float_bits) {
    enum { RUN = 8191 };
    static float e[RUN], t[RUN], s[RUN];
    uint64_t u = 0, bad = 0;
    while (u < 0x100000000ull) {
        size_t n = 0;
        for (; n < RUN && u < 0x100000000ull; n++, u += 4099) {
            uint32_t b = (uint32_t)u;
            memcpy(&e[n], &b, sizeof e[n]);
            t[n] = s[n] = e[n];
        }
        float x0[RUN];
        memcpy(x0, e, n * sizeof *x0);
        expf_n(e, n);
        tanh_fast_n(t, n);
        sigmoid_n(s, n);
        for (size_t i = 0; i < n; i++) {
            float x = x0[i];
            if (!same_bits(e[i], expf(x)) || !same_bits(t[i], tanh_fast(x)) ||
                !same_bits(s[i], sigmoid1(x))) {
                if (bad++ < 3)
                    cr_log_error("x = %a: expf %a/%a, tanh %a/%a, sigmoid %a/%a",
                                 (double)x, (double)e[i], (double)expf(x), (double)t[i],
                                 (double)tanh_fast(x), (double)s[i],
                                 (double)sigmoid1(x));
            }
        }
    }
    cr_assert_eq(bad, 0, "%llu floats with other bits than one at a time",
                 (unsigned long long)bad);
}

// The edges, in every lane of a vector and in the tail: each length 0..21.
Test(fmath, row_functions_edges) {
    const float xs[] = {
        0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.0f, 88.72283f, 89.0f, -87.9f,
        -103.97f, -104.0f, 0x1p-149f, 1e-30f, 0.124999f, 0.125f, -0.125f, 0x1p-12f,
        -0x1p-13f, 20.0f, -44.5f,
        // the two floats of [-88, 88] whose expf changes if x 32/ln 2 - k is
        // rounded before the subtraction instead of fused (found by a full scan)
        0x1.04845ep+5f, -0x1.f8cbb2p+5f};
    enum { M = sizeof xs / sizeof xs[0] };
    for (size_t n = 0; n < M; n++) {
        for (size_t k = 0; k < M; k++) {          // the edges rotated through the lanes
            float e[M], t[M], s[M];
            for (size_t i = 0; i < n; i++) e[i] = t[i] = s[i] = xs[(i + k) % M];
            expf_n(e, n);
            tanh_fast_n(t, n);
            sigmoid_n(s, n);
            for (size_t i = 0; i < n; i++) {
                float x = xs[(i + k) % M];
                cr_assert(same_bits(e[i], expf(x)), "expf_n(%a), n %zu", (double)x, n);
                cr_assert(same_bits(t[i], tanh_fast(x)), "tanh_fast_n(%a), n %zu",
                          (double)x, n);
                cr_assert(same_bits(s[i], sigmoid1(x)), "sigmoid_n(%a), n %zu",
                          (double)x, n);
            }
        }
    }
}
