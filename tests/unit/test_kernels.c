// test_kernels.c -- the nearest-neighbour predictor and the Laplace kernel weights.
//
// Both are graded tasks; the references here are written the other way round
// (distances sorted by a stable insertion, the kernel in log space).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "attention/kernels.h"
#include "base/rng.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 80 };

// Training points 0, 1, 3 with y = 10, 20, 30.
Test(kernels, nearest_by_hand) {
    const float xt[3] = {0, 1, 3}, yt[3] = {10, 20, 30}, xq[4] = {-5, 0.9f, 2.2f, 9};
    float yp[5] = {7, 7, 7, 7, 7};
    cr_assert_eq(kern_nearest_predict(xq, 4, xt, yt, 3, yp), 0);
    const float want[4] = {10, 20, 30, 30};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(yp[i], want[i], "y_pred[%d] = %g", i, yp[i]);
    cr_assert_eq(yp[4], 7.0f);
}

// A query halfway between two points takes the first; no training point: 0.
Test(kernels, nearest_ties_and_empty) {
    const float xt[4] = {2, 0, 4, 0}, yt[4] = {5, 6, 7, 8}, xq[3] = {1, 3, 0};
    float yp[3];
    cr_assert_eq(kern_nearest_predict(xq, 3, xt, yt, 4, yp), 0);
    cr_assert_eq(yp[0], 5.0f, "x = 1 is as near to 2 (j = 0) as to 0 (j = 1)");
    cr_assert_eq(yp[1], 5.0f, "x = 3 is as near to 2 (j = 0) as to 4 (j = 2)");
    cr_assert_eq(yp[2], 6.0f, "x = 0 is at j = 1 and j = 3: the first");
    float one[1] = {9};
    cr_assert_eq(kern_nearest_predict(xq, 1, xt, yt, 0, one), 0);
    cr_assert_eq(one[0], 0.0f, "no training point: 0");
    cr_assert_eq(kern_nearest_predict(xq, -1, xt, yt, 4, yp), -1);
}

// Random points, some repeated, against a brute-force search that compares
// squared distances from the last point backwards.
Test(kernels, nearest_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 5, 9, 64, 77};
    for (int c = 0; c < 6; c++) {
        int n_t = sizes[c], n_q = 1 + (int)(rng_uniform(&rng) * 20);
        float xt[NMAX], yt[NMAX], xq[NMAX], yp[NMAX] = {0};
        for (int j = 0; j < n_t; j++) {
            xt[j] = (float)(int)(rng_uniform(&rng) * 40) - 20;   // integers: ties
            yt[j] = rng_normal(&rng);
        }
        for (int i = 0; i < n_q; i++) xq[i] = (float)(int)(rng_uniform(&rng) * 50) - 25;
        cr_assert_eq(kern_nearest_predict(xq, n_q, xt, yt, n_t, yp), 0);
        for (int i = 0; i < n_q; i++) {
            int best = n_t - 1;
            for (int j = n_t - 2; j >= 0; j--) {
                double u = (double)xq[i] - xt[j], b = (double)xq[i] - xt[best];
                if (u * u <= b * b) best = j;
            }
            cr_assert_eq(yp[i], yt[best],
                         "n_t %d: query %g predicts %g, want %g (j = %d)", n_t, xq[i],
                         yp[i], yt[best], best);
        }
    }
}

// Laplace weights of row i in double, as exp(log-weight - log-normaliser).
static void ref_laplace(const float *xq, int n_q, const float *xt, int n_t, double h,
                        double *w) {
    for (int i = 0; i < n_q; i++) {
        double lse = -INFINITY;
        for (int j = 0; j < n_t; j++) {
            double s = -fabs((double)xq[i] - xt[j]) / h;
            lse = lse > s ? lse + log1p(exp(s - lse)) : s + log1p(exp(lse - s));
        }
        for (int j = 0; j < n_t; j++)
            w[i * n_t + j] = exp(-fabs((double)xq[i] - xt[j]) / h - lse);
    }
}

// x = 0 against points 0 and 1 with h = 1: weights 1 / (1 + e^-1) and the rest.
Test(kernels, laplace_by_hand) {
    const float xq[2] = {0, 3}, xt[2] = {0, 1};
    float w[5] = {7, 7, 7, 7, 7};
    cr_assert_eq(kern_laplace_weights(xq, 2, xt, 2, 1.0f, w), 0);
    double a = 1.0 / (1.0 + exp(-1.0));
    cr_assert_float_eq(w[0], a, 1e-6);
    cr_assert_float_eq(w[1], 1 - a, 1e-6);
    cr_assert_float_eq(w[2], 1 - a, 1e-6, "x = 3 is 3 from 0 and 2 from 1");
    cr_assert_float_eq(w[3], a, 1e-6);
    cr_assert_eq(w[4], 7.0f);
    cr_assert_eq(kern_laplace_weights(xq, 2, xt, 2, 0.0f, w), -1);
    cr_assert_eq(kern_laplace_weights(xq, 2, xt, 2, NAN, w), -1);
    cr_assert_float_eq(w[0], a, 1e-6, "a refused call leaves w alone");
}

// Random queries, some far from every point (no underflow to 0 / 0), odd sizes.
Test(kernels, laplace_random_far_queries_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 1);
    static const int sizes[] = {1, 3, 7, 64, 71};
    for (int c = 0; c < 5; c++) {
        int n_t = sizes[c], n_q = 1 + (int)(rng_uniform(&rng) * 5);
        float xt[NMAX], xq[8], w[8 * NMAX];
        double ref[8 * NMAX], h = 0.05 + rng_uniform(&rng);
        for (int i = 0; i < 8 * NMAX; i++) w[i] = NAN;
        for (int j = 0; j < n_t; j++) xt[j] = 4 * rng_normal(&rng);
        for (int i = 0; i < n_q; i++)
            xq[i] = i % 2 ? 300.0f + 50 * rng_uniform(&rng) : 3 * rng_normal(&rng);
        cr_assert_eq(kern_laplace_weights(xq, n_q, xt, n_t, (float)h, w), 0);
        ref_laplace(xq, n_q, xt, n_t, (float)h, ref);
        for (int i = 0; i < n_q; i++) {
            double sum = 0;
            for (int j = 0; j < n_t; j++) {
                sum += w[i * n_t + j];
                cr_assert(fabs(w[i * n_t + j] - ref[i * n_t + j]) <= 1e-5,
                          "n_t %d h %g: w[%d][%d] = %g, want %g", n_t, h, i, j,
                          (double)w[i * n_t + j], ref[i * n_t + j]);
            }
            cr_assert(fabs(sum - 1) <= 1e-5, "row %d sums to %g", i, sum);
        }
    }
}
