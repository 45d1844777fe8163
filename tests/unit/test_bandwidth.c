// test_bandwidth.c -- leave-one-out prediction and the derivative of a prediction
// with respect to the kernel width h.
//
// Both are graded tasks. The reference prediction here is computed in double with
// a running log-sum-exp; the derivative is checked against central differences
// of that reference, never against a formula like the one the task implements.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "attention/bandwidth.h"
#include "base/rng.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 80 };

// The Gaussian Nadaraya-Watson prediction at x from the points j != skip
// (skip = -1: all of them); 0 when no point is left.
static double ref_predict(double x, const float *xt, const float *yt, int n_t,
                          double h, int skip) {
    double lse = -INFINITY, num = 0.0;   // num = sum exp(s_j - lse) y_j, rescaled
    for (int j = 0; j < n_t; j++) {
        if (j == skip) continue;
        double s = -(x - xt[j]) * (x - xt[j]) / (2 * h * h);
        if (s > lse) {
            num = num * exp(lse - s) + yt[j];
            lse = s;
        } else {
            num += exp(s - lse) * yt[j];
        }
    }
    if (lse == -INFINITY) return 0.0;
    double den = 0.0;
    for (int j = 0; j < n_t; j++)
        if (j != skip) den += exp(-(x - xt[j]) * (x - xt[j]) / (2 * h * h) - lse);
    return num / den;
}

// Points 0, 1, 2 with y = 0, 3, 6 and h = 1: leaving out the middle one gives 3
// by symmetry; leaving out 0 weighs 3 and 6 by 1 and e^-3/2 (distances 1 and 2).
Test(bandwidth, loo_by_hand) {
    const float x[3] = {0, 1, 2}, y[3] = {0, 3, 6};
    float loo[4] = {7, 7, 7, 7};
    cr_assert_eq(bw_loo_predict(x, y, 3, 1.0f, loo), 0);
    double e = exp(-1.5);
    cr_assert_float_eq(loo[0], (3 + 6 * e) / (1 + e), 1e-5);
    cr_assert_float_eq(loo[1], 3.0f, 1e-5);
    cr_assert_float_eq(loo[2], (3 + 0 * e) / (1 + e), 1e-5);
    cr_assert_eq(loo[3], 7.0f);
    cr_assert_eq(bw_loo_predict(x, y, 3, -1.0f, loo), -1);
}

// Random data from the grading seed: one point, odd sizes, a row of 64 and more,
// and a far outlier whose own kernel would swamp the others if it were not left out.
Test(bandwidth, loo_random_with_outliers_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 5, 9, 64, 79};
    for (int c = 0; c < 6; c++) {
        int n = sizes[c];
        float x[NMAX], y[NMAX], loo[NMAX];
        double h = 0.2 + rng_uniform(&rng);
        for (int j = 0; j < n; j++) {
            x[j] = 3 * rng_normal(&rng);
            y[j] = rng_normal(&rng);
        }
        if (n > 2) x[n / 2] = 500.0f + 100 * rng_uniform(&rng);   // the outlier
        cr_assert_eq(bw_loo_predict(x, y, n, (float)h, loo), 0);
        for (int i = 0; i < n; i++) {
            double want = ref_predict(x[i], x, y, n, (float)h, i);
            cr_assert(fabs(loo[i] - want) <= 1e-4 * (1 + fabs(want)),
                      "n %d h %g: y_loo[%d] = %g, want %g", n, h, i, (double)loo[i],
                      want);
        }
    }
}

// dfdh of every query against central differences of the reference in h.
static void check_dh(const float *xq, int n_q, const float *xt, const float *yt,
                     int n_t, float h) {
    float d[NMAX];
    cr_assert_eq(bw_predict_dh(xq, n_q, xt, yt, n_t, h, d), 0);
    for (int i = 0; i < n_q; i++) {
        double e = 1e-4 * h;
        double fd = (ref_predict(xq[i], xt, yt, n_t, h + e, -1) -
                     ref_predict(xq[i], xt, yt, n_t, h - e, -1)) / (2 * e);
        cr_assert(fabs(d[i] - fd) <= 1e-3 + 1e-3 * fabs(fd),
                  "n_t %d h %g: dfdh[%d] at x = %g is %g, finite difference %g", n_t,
                  (double)h, i, (double)xq[i], (double)d[i], fd);
    }
}

Test(bandwidth, dh_matches_finite_differences) {
    const float xt[4] = {-1, 0, 0.5f, 2}, yt[4] = {1, -2, 0.5f, 3};
    const float xq[3] = {-0.5f, 0.25f, 1.5f};
    check_dh(xq, 3, xt, yt, 4, 0.7f);
    float d[2] = {7, 7};
    cr_assert_eq(bw_predict_dh(xq, 1, xt, yt, 4, 0.0f, d), -1);
    cr_assert_eq(d[0], 7.0f, "a refused call leaves dfdh alone");
}

// Random sizes from the grading seed (one point: the derivative is 0), rows of 64
// and more, and queries far from every point, where an unshifted kernel is 0 / 0.
Test(bandwidth, dh_random_far_queries_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 7);
    static const int sizes[] = {1, 3, 8, 64, 75};
    for (int c = 0; c < 5; c++) {
        int n_t = sizes[c], n_q = 2 + (int)(rng_uniform(&rng) * 6);
        float xt[NMAX], yt[NMAX], xq[8];
        float h = (float)(0.3 + rng_uniform(&rng));
        for (int j = 0; j < n_t; j++) {
            xt[j] = 2 * rng_normal(&rng);
            yt[j] = rng_normal(&rng);
        }
        for (int i = 0; i < n_q; i++) xq[i] = 2 * rng_normal(&rng);
        xq[0] = 200.0f + 100 * rng_uniform(&rng);   // far: every kernel below e^-10000
        check_dh(xq, n_q, xt, yt, n_t, h);
        if (n_t == 1) {
            float d[8];
            bw_predict_dh(xq, n_q, xt, yt, n_t, h, d);
            for (int i = 0; i < n_q; i++) cr_assert_eq(d[i], 0.0f);
        }
    }
}
