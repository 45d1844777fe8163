// test_qk_train.c -- the attention-pattern loss and its hand-written backward.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "base/rng.h"
#include "layers/qk_train.h"

enum { N = 5, D = 6, K = 4 };

// By hand: with w_q = 0 every score is 0, every row of a is uniform 1/n, and
// the loss is log(n) whichever targets are scored.
Test(qk_train, zero_queries_give_log_n) {
    float x[N * D], w_q[D * K] = {0}, w_k[D * K], q[N * K], kk[N * K], a[N * N];
    rng_t rng;
    rng_seed(&rng, 3);
    rng_fill_normal(&rng, x, N * D, 0, 1);
    rng_fill_normal(&rng, w_k, D * K, 0, 1);
    int t[N] = {-1, 0, 1, 2, 3};
    cr_assert_float_eq(qk_forward(x, w_q, w_k, t, N, D, K, q, kk, a), log(N), 1e-6);
    for (int i = 0; i < N * N; i++) cr_assert_float_eq(a[i], 1.0 / N, 1e-6);
}

Test(qk_train, nothing_scored_is_zero_and_no_gradient) {
    float x[N * D] = {0}, w[D * K] = {0}, q[N * K], kk[N * K], a[N * N];
    float dw_q[D * K] = {0}, dw_k[D * K] = {0}, scratch[N * N + 2 * N * K];
    int t[N] = {-1, -1, -1, -1, -1};
    cr_assert_eq(qk_forward(x, w, w, t, N, D, K, q, kk, a), 0.0);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, N, D, K, dw_q, dw_k, scratch);
    for (int i = 0; i < D * K; i++) cr_assert(dw_q[i] == 0.0f && dw_k[i] == 0.0f);
    cr_assert_eq(qk_forward(x, w, w, t, 0, D, K, q, kk, a), 0.0);
}

static double loss_at(const float *x, const float *w_q, const float *w_k,
                      const int *t) {
    float q[N * K], kk[N * K], a[N * N];
    return qk_forward(x, w_q, w_k, t, N, D, K, q, kk, a);
}

// Every entry of dw_q and dw_k against a central difference of the loss.
Test(qk_train, backward_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 11);
    for (int trial = 0; trial < 5; trial++) {
        float x[N * D], w_q[D * K], w_k[D * K], q[N * K], kk[N * K], a[N * N];
        float dw_q[D * K] = {0}, dw_k[D * K] = {0}, scratch[N * N + 2 * N * K];
        rng_fill_normal(&rng, x, N * D, 0, 1);
        rng_fill_normal(&rng, w_q, D * K, 0, 0.7f);
        rng_fill_normal(&rng, w_k, D * K, 0, 0.7f);
        int t[N];
        for (int i = 0; i < N; i++) t[i] = (int)(rng_next(&rng) % (N + 1)) - 1;
        t[trial % N] = trial % N;   // at least one scored row
        qk_forward(x, w_q, w_k, t, N, D, K, q, kk, a);
        qk_backward(x, t, &(qk_saved_t){q, kk, a}, N, D, K, dw_q, dw_k, scratch);
        for (int which = 0; which < 2; which++) {
            float *w = which ? w_k : w_q, *g = which ? dw_k : dw_q;
            for (int i = 0; i < D * K; i++) {
                const float eps = 1e-2f, keep = w[i];
                w[i] = keep + eps;
                double up = loss_at(x, w_q, w_k, t);
                w[i] = keep - eps;
                double down = loss_at(x, w_q, w_k, t);
                w[i] = keep;
                double fd = (up - down) / (2.0 * eps);
                cr_assert(fabs(fd - g[i]) <= 2e-3 + 2e-2 * fabs(fd),
                          "trial %d, %s[%d]: backward %.6g, finite difference %.6g",
                          trial, which ? "w_k" : "w_q", i, g[i], fd);
            }
        }
    }
}

// Gradients accumulate: a second backward adds the same amount again.
Test(qk_train, backward_accumulates) {
    float x[N * D], w_q[D * K], w_k[D * K], q[N * K], kk[N * K], a[N * N];
    float g1[D * K] = {0}, g2[D * K] = {0}, h[D * K] = {0}, scratch[N * N + 2 * N * K];
    rng_t rng;
    rng_seed(&rng, 5);
    rng_fill_normal(&rng, x, N * D, 0, 1);
    rng_fill_normal(&rng, w_q, D * K, 0, 1);
    rng_fill_normal(&rng, w_k, D * K, 0, 1);
    int t[N] = {1, 2, 3, 4, 0};
    qk_forward(x, w_q, w_k, t, N, D, K, q, kk, a);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, N, D, K, g1, h, scratch);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, N, D, K, g2, h, scratch);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, N, D, K, g2, h, scratch);
    for (int i = 0; i < D * K; i++) cr_assert_float_eq(g2[i], 2.0f * g1[i], 1e-5f);
}

// An underflowed target weight gives a finite loss, not infinity.
Test(qk_train, underflowed_target_stays_finite) {
    float x[2 * 1] = {1, -1}, w_q[1] = {200}, w_k[1] = {200};
    float q[2], kk[2], a[4], dw_q[1] = {0}, dw_k[1] = {0}, scratch[4 + 4];
    int t[2] = {1, -1};   // row 0 scores 40000 on itself and -40000 on key 1
    double loss = qk_forward(x, w_q, w_k, t, 2, 1, 1, q, kk, a);
    cr_assert(isfinite(loss) && loss > 80.0, "loss %g", loss);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, 2, 1, 1, dw_q, dw_k, scratch);
    cr_assert(isfinite(dw_q[0]) && isfinite(dw_k[0]));
}
