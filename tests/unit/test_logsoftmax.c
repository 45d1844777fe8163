// test_logsoftmax.c -- log softmax and its backward pass (both graded tasks).
//
// The reference is computed in double as x_i - log(sum_j exp(x_j)) with a
// pairwise log-add; the backward is checked by central differences of a loss.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "attention/logsoftmax.h"
#include "base/rng.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 80 };

// log sum exp of x (n,) in double, one log-add at a time.
static double ref_lse(const float *x, int n) {
    double l = -INFINITY;
    for (int i = 0; i < n; i++) {
        double a = l > x[i] ? l : x[i], b = l > x[i] ? x[i] : l;
        l = a + log1p(exp(b - a));
    }
    return l;
}

Test(logsoftmax, by_hand) {
    float x[4] = {0, 0, 0, 7}, y[3] = {1, 2, 3};
    logsoftmax(x, 3);
    for (int i = 0; i < 3; i++) cr_assert_float_eq(x[i], -log(3.0), 1e-6);
    cr_assert_eq(x[3], 7.0f, "entries past n are not touched");
    logsoftmax(y, 3);
    double l = log(exp(1.0) + exp(2.0) + exp(3.0));
    for (int i = 0; i < 3; i++) cr_assert_float_eq(y[i], i + 1 - l, 1e-6);
    float one[1] = {42};
    logsoftmax(one, 1);
    cr_assert_float_eq(one[0], 0.0f, 1e-7, "log softmax of one entry is log 1 = 0");
}

// Huge and very negative logits: no overflow, and log p stays finite where p
// underflows to 0 (log(softmax) would give -inf there).
Test(logsoftmax, extreme_logits) {
    float x[3] = {1000, 999, -1000};
    logsoftmax(x, 3);
    double l = log1p(exp(-1.0));
    cr_assert_float_eq(x[0], -l, 1e-5);
    cr_assert_float_eq(x[1], -1 - l, 1e-5);
    cr_assert_float_eq(x[2], -2000 - l, 1e-2);
}

// Random rows from the grading seed (one entry, odd sizes, 64 and more), scaled
// up to |x| ~ 300: agreement with the log-add reference, and exp sums to 1.
Test(logsoftmax, random_rows_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 3, 7, 64, 77};
    for (int c = 0; c < 12; c++) {
        int n = sizes[c % 6];
        float x[NMAX], y[NMAX];
        float scale = c < 6 ? 1.0f : 100.0f;
        for (int i = 0; i < n; i++) x[i] = y[i] = scale * rng_normal(&rng);
        logsoftmax(y, n);
        double lse = ref_lse(x, n), total = 0;
        for (int i = 0; i < n; i++) {
            double want = x[i] - lse;
            cr_assert(fabs(y[i] - want) <= 1e-5 * (1 + fabs(want)),
                      "n %d: y[%d] = %.9g, want %.9g", n, i, (double)y[i], want);
            total += exp(y[i]);
        }
        cr_assert(fabs(total - 1) <= 1e-5, "n %d: exp(y) sums to %g", n, total);
    }
}

// L = r . logsoftmax(x), by the reference, for the finite differences.
static double loss(const float *x, const float *r, int n) {
    double lse = ref_lse(x, n), l = 0;
    for (int i = 0; i < n; i++) l += r[i] * (x[i] - lse);
    return l;
}

static void check_backward(float *x, const float *r, int n) {
    float y[NMAX] = {0}, dx[NMAX];
    double lse = ref_lse(x, n);
    for (int i = 0; i < n; i++) y[i] = (float)(x[i] - lse);
    for (int i = 0; i < n; i++) dx[i] = NAN;
    logsoftmax_backward(y, r, dx, n);
    for (int i = 0; i < n; i++) {
        float keep = x[i];
        x[i] = keep + 1e-2f;
        double up = loss(x, r, n);
        x[i] = keep - 1e-2f;
        double down = loss(x, r, n);
        x[i] = keep;
        double fd = (up - down) / 2e-2;
        cr_assert(fabs(dx[i] - fd) <= 1e-3 + 1e-3 * fabs(fd),
                  "n %d: dx[%d] = %g, finite difference %g", n, i, (double)dx[i], fd);
    }
}

// dy with a sum far from 0 and 1, so that every term of the formula shows.
Test(logsoftmax, backward_matches_finite_differences) {
    float x[5] = {0.5f, -1, 2, 0, 1.5f};
    const float r[5] = {1, 2, -0.5f, 3, 0.25f};
    check_backward(x, r, 5);
}

// Random rows and upstream gradients from the grading seed; dx may alias dy.
Test(logsoftmax, backward_random_rows_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 3);
    static const int sizes[] = {1, 2, 5, 9, 64, 70};
    for (int c = 0; c < 6; c++) {
        int n = sizes[c];
        float x[NMAX], r[NMAX];
        for (int i = 0; i < n; i++) {
            x[i] = 2 * rng_normal(&rng);
            r[i] = rng_normal(&rng) + 0.5f;
        }
        check_backward(x, r, n);
        float y[NMAX], d[NMAX], want[NMAX];
        double lse = ref_lse(x, n);
        for (int i = 0; i < n; i++) y[i] = (float)(x[i] - lse);
        for (int i = 0; i < n; i++) d[i] = r[i];
        logsoftmax_backward(y, r, want, n);
        logsoftmax_backward(y, d, d, n);
        for (int i = 0; i < n; i++)
            cr_assert_float_eq(d[i], want[i], 1e-6, "n %d: dx aliasing dy, [%d]", n, i);
    }
}
