// test_additive.c -- Bahdanau attention: weights are a masked distribution,
// a hand-checked case, and every gradient against finite differences.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "layers/additive.h"

enum { B = 2, T = 4, S = 3, K = 5, A = 3 };
static const addattn_dims_t DIMS = {T, B, S, K, A};

typedef struct {
    float s[B * S], w_a[S * A], u_a[K * A], v[A], ann[T * B * K], r[B * K];
    unsigned char mask[B * T];
} setup_t;

static void make(setup_t *st, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, st->s, B * S, 0, 1);
    rng_fill_normal(&rng, st->w_a, S * A, 0, 0.8f);
    rng_fill_normal(&rng, st->u_a, K * A, 0, 0.8f);
    rng_fill_normal(&rng, st->v, A, 0, 1);
    rng_fill_normal(&rng, st->ann, T * B * K, 0, 1);
    rng_fill_normal(&rng, st->r, B * K, 0, 1);
    const unsigned char m[B * T] = {1, 1, 1, 1, 1, 0, 1, 0};
    memcpy(st->mask, m, sizeof m);
}

// L = sum c * r, in double.
static double loss(const setup_t *st, float *alpha) {
    float keys[T * B * A], c[B * K], th[T * B * A], wq[B * A];
    addattn_keys_forward(st->ann, st->u_a, keys, T, B, K, A);
    addattn_forward(&DIMS, st->s, st->w_a, st->v, keys, st->ann, st->mask,
                    &(addattn_out_t){alpha, c, th}, wq);
    double l = 0;
    for (int i = 0; i < B * K; i++) l += (double)c[i] * st->r[i];
    return l;
}

Test(additive, weights_are_a_masked_distribution) {
    setup_t st;
    make(&st, 1);
    float alpha[B * T];
    loss(&st, alpha);
    for (int b = 0; b < B; b++) {
        double sum = 0;
        for (int t = 0; t < T; t++) {
            if (!st.mask[b * T + t]) cr_assert_eq(alpha[b * T + t], 0.0f);
            cr_assert(alpha[b * T + t] >= 0);
            sum += alpha[b * T + t];
        }
        cr_assert_float_eq(sum, 1.0, 1e-6);
    }
}

// v = 0: every score is 0, so the weights are uniform over the visible
// positions and the context is the mean of their annotations.
Test(additive, zero_v_gives_the_mean_of_visible_annotations) {
    setup_t st;
    make(&st, 2);
    memset(st.v, 0, sizeof st.v);
    float keys[T * B * A], c[B * K], th[T * B * A], wq[B * A], alpha[B * T];
    addattn_keys_forward(st.ann, st.u_a, keys, T, B, K, A);
    addattn_forward(&DIMS, st.s, st.w_a, st.v, keys, st.ann, st.mask,
                    &(addattn_out_t){alpha, c, th}, wq);
    for (int j = 0; j < K; j++) {   // row 1 sees t = 0 and t = 2
        float want = (st.ann[(0 * B + 1) * K + j] + st.ann[(2 * B + 1) * K + j]) / 2;
        cr_assert_float_eq(c[1 * K + j], want, 1e-6);
    }
}

static void check(float *x, const float *g, int n, setup_t *st, const char *what) {
    float alpha[B * T];
    for (int i = 0; i < n; i++) {
        float keep = x[i], eps = 1e-2f;
        x[i] = keep + eps;
        double lp = loss(st, alpha);
        x[i] = keep - eps;
        double lm = loss(st, alpha);
        x[i] = keep;
        double num = (lp - lm) / (2 * eps);
        cr_assert(fabs(num - g[i]) <= 2e-3 + 1e-2 * fabs(num),
                  "%s[%d]: numeric %.6f, backward %.6f", what, i, num, g[i]);
    }
}

Test(additive, gradients_match_finite_differences) {
    setup_t st;
    make(&st, 3);
    float keys[T * B * A], c[B * K], th[T * B * A], wq[B * A], alpha[B * T];
    float ds[B * S] = {0}, dw[S * A] = {0}, dv[A] = {0}, dkeys[T * B * A] = {0};
    float dann[T * B * K] = {0}, du[K * A] = {0}, work[B * (T + A)];
    addattn_keys_forward(st.ann, st.u_a, keys, T, B, K, A);
    addattn_out_t o = {alpha, c, th};
    addattn_forward(&DIMS, st.s, st.w_a, st.v, keys, st.ann, st.mask, &o, wq);
    addattn_grads_t g = {ds, dw, dv, dkeys, dann};
    addattn_backward(&DIMS, st.s, st.w_a, st.v, st.ann, &o, st.r, &g, work);
    addattn_keys_backward(st.ann, st.u_a, dkeys, dann, du, T, B, K, A);
    check(st.s, ds, B * S, &st, "s");
    check(st.w_a, dw, S * A, &st, "w_a");
    check(st.v, dv, A, &st, "v");
    check(st.u_a, du, K * A, &st, "u_a");
    check(st.ann, dann, T * B * K, &st, "ann");
}
