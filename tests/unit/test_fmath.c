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
