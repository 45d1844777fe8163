// test_softmax_grad.c -- the gradient with respect to the temperature and the
// entropy's gradient (both graded tasks).
//
// The references go through the probabilities in double, written directly from
// the definitions; every gradient is checked by central differences.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "attention/softmax_grad.h"
#include "base/rng.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 80 };

// p (n,) = softmax(x / t) in double.
static void ref_softmax(const float *x, int n, double t, double *p) {
    double max = -INFINITY, sum = 0;
    for (int i = 0; i < n; i++) max = fmax(max, x[i] / t);
    for (int i = 0; i < n; i++) sum += p[i] = exp(x[i] / t - max);
    for (int i = 0; i < n; i++) p[i] /= sum;
}

// dL/dt of L = r . softmax(x / t) by central differences.
static double fd_temperature(const float *x, const float *r, int n, double t) {
    double p[NMAX], up = 0, down = 0, e = 1e-4 * t;
    ref_softmax(x, n, t + e, p);
    for (int i = 0; i < n; i++) up += r[i] * p[i];
    ref_softmax(x, n, t - e, p);
    for (int i = 0; i < n; i++) down += r[i] * p[i];
    return (up - down) / (2 * e);
}

// Logits (1, 2, 4) and dp = (1, 0, -1) at t = 2; refusals for t <= 0 and inf.
Test(softmax_grad, temperature_by_hand) {
    const float x[3] = {1, 2, 4}, r[3] = {1, 0, -1};
    double got = smgrad_temperature(x, r, 3, 2.0f), fd = fd_temperature(x, r, 3, 2.0);
    cr_assert(fabs(got - fd) <= 1e-5 + 1e-4 * fabs(fd), "dL/dt = %g, want %g", got, fd);
    cr_assert(fd > 0.05, "a hotter softmax moves weight off logit 4 (dp = -1)");
    cr_assert(isnan(smgrad_temperature(x, r, 3, 0.0f)));
    cr_assert(isnan(smgrad_temperature(x, r, 3, INFINITY)));
}

// Random rows from the grading seed: odd sizes, one entry (0), 64 and more,
// temperatures from 0.1 to 10, logits up to ~100 that must not overflow.
Test(softmax_grad, temperature_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 3, 7, 64, 71};
    for (int c = 0; c < 12; c++) {
        int n = sizes[c % 6];
        float x[NMAX], r[NMAX];
        double t = exp(-2.3 + 4.6 * rng_uniform(&rng));
        float scale = c < 6 ? 1.0f : 30.0f;
        for (int i = 0; i < n; i++) {
            x[i] = scale * rng_normal(&rng) + (c % 3 == 2 ? 60.0f : 0.0f);
            r[i] = rng_normal(&rng);
        }
        double got = smgrad_temperature(x, r, n, (float)t);
        double fd = fd_temperature(x, r, n, (float)t);
        cr_assert(fabs(got - fd) <= 1e-4 + 1e-3 * fabs(fd),
                  "n %d t %g: dL/dt = %g, want %g", n, t, got, fd);
    }
}

// H(softmax(x)) in double, with log p_i = x_i - max - log sum (never log 0).
static double ref_entropy(const float *x, int n) {
    double max = -INFINITY, sum = 0, h = 0;
    for (int i = 0; i < n; i++) max = fmax(max, x[i]);
    for (int i = 0; i < n; i++) sum += exp(x[i] - max);
    for (int i = 0; i < n; i++) {
        double lp = x[i] - max - log(sum);
        h -= exp(lp) * lp;
    }
    return h;
}

static void check_entropy(float *x, int n, const char *what) {
    float dx[NMAX];
    for (int i = 0; i < n; i++) dx[i] = NAN;
    double h = smgrad_entropy(x, dx, n), want = ref_entropy(x, n);
    cr_assert(fabs(h - want) <= 1e-5, "%s, n %d: H = %g, want %g", what, n, h, want);
    for (int i = 0; i < n; i++) {
        float keep = x[i];
        x[i] = keep + 1e-2f;
        double up = ref_entropy(x, n);
        x[i] = keep - 1e-2f;
        double down = ref_entropy(x, n);
        x[i] = keep;
        double fd = (up - down) / 2e-2;
        cr_assert(fabs(dx[i] - fd) <= 1e-3 + 1e-3 * fabs(fd),
                  "%s, n %d: dH/dx[%d] = %g, finite difference %g", what, n, i,
                  (double)dx[i], fd);
    }
}

// Uniform logits: H = log n and a zero gradient (a maximum); then a skewed row.
Test(softmax_grad, entropy_by_hand) {
    float u[4] = {3, 3, 3, 3}, dx[4];
    double h = smgrad_entropy(u, dx, 4);
    cr_assert_float_eq(h, log(4.0), 1e-6);
    for (int i = 0; i < 4; i++) cr_assert_float_eq(dx[i], 0.0f, 1e-6);
    float x[3] = {0, 1, -1};
    check_entropy(x, 3, "x = (0, 1, -1)");
}

// Random rows from the grading seed, some with probabilities that underflow to 0
// (logits 200 apart): the entropy and its gradient stay finite and right.
Test(softmax_grad, entropy_random_and_underflowing_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 5);
    static const int sizes[] = {1, 2, 3, 9, 64, 65};
    for (int c = 0; c < 12; c++) {
        int n = sizes[c % 6];
        float x[NMAX];
        for (int i = 0; i < n; i++) x[i] = 1.5f * rng_normal(&rng);
        if (c >= 6) x[0] += 200.0f;   // the rest of the row underflows in float
        if (c >= 6 && n > 1) x[n - 1] = x[0] - 1.0f;
        check_entropy(x, n, c < 6 ? "random" : "underflowing");
    }
}
