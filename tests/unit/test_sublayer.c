// test_sublayer.c -- head pruning and the pre-norm sublayers (all four are graded
// tasks).
//
// The references are written here from the definitions, in double: layer norm,
// ReLU network and residual; pruning is compared with a model whose head is
// silenced another way (its value columns zeroed).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/sublayer.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 66, DMAX = 9, FMAX = 66 };

static void fill(rng_t *rng, float *x, int n, float mean, float std) {
    for (int i = 0; i < n; i++) x[i] = mean + std * rng_normal(rng);
}

// ---------------------------------------------------------------------------
// pruning a head

static void check_prune(rng_t *rng, int d, int h, int head, int n) {
    mha_params_t p, q;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    cr_assert_eq(mha_alloc(&q, d, h), 0);
    mha_init(&p, rng);
    fill(rng, p.b_o, d, 0, 0.5f);
    size_t dd = (size_t)d * d;
    memcpy(q.w_q, p.w_q, dd * 4); memcpy(q.w_k, p.w_k, dd * 4);
    memcpy(q.w_v, p.w_v, dd * 4); memcpy(q.w_o, p.w_o, dd * 4);
    memcpy(q.b_o, p.b_o, (size_t)d * 4);
    cr_assert_eq(sublayer_prune_head(&p, head), 0);
    int dk = d / h;
    for (int r = 0; r < d; r++)
        for (int c = 0; c < d; c++) {
            int in = r / dk == head;
            cr_assert_eq(p.w_o[r * d + c], in ? 0.0f : q.w_o[r * d + c],
                         "d %d h %d head %d: w_o[%d][%d] = %g", d, h, head, r, c,
                         (double)p.w_o[r * d + c]);
            cr_assert_eq(p.w_v[r * d + c], q.w_v[r * d + c], "w_v is not changed");
            cr_assert_eq(p.w_q[r * d + c], q.w_q[r * d + c], "w_q is not changed");
        }
    for (int r = 0; r < d; r++)   // the other way to silence the head: V = 0
        for (int c = head * dk; c < (head + 1) * dk; c++) q.w_v[r * d + c] = 0.0f;
    float x[NMAX * DMAX], y1[NMAX * DMAX], y2[NMAX * DMAX];
    fill(rng, x, n * d, 0, 1);
    cr_assert_eq(mha_forward(&p, x, n, x, n, NULL, y1, NULL), 0);
    cr_assert_eq(mha_forward(&q, x, n, x, n, NULL, y2, NULL), 0);
    for (int i = 0; i < n * d; i++)
        cr_assert(fabsf(y1[i] - y2[i]) <= 1e-5f, "output[%d]: %g vs %g", i,
                  (double)y1[i], (double)y2[i]);
    mha_free(&p);
    mha_free(&q);
}

// d_model 4, 2 heads: pruning head 1 zeroes rows 2 and 3 of W_O.
Test(sublayer, prune_by_hand) {
    rng_t rng;
    rng_seed(&rng, 3);
    check_prune(&rng, 4, 2, 1, 3);
    check_prune(&rng, 4, 2, 0, 3);
    mha_params_t p;
    cr_assert_eq(mha_alloc(&p, 4, 2), 0);
    p.w_o[0] = 5;
    cr_assert_eq(sublayer_prune_head(&p, 2), -1);
    cr_assert_eq(sublayer_prune_head(&p, -1), -1);
    cr_assert_eq(p.w_o[0], 5.0f, "a refused call changes nothing");
    mha_free(&p);
}

// Shapes and heads from the grading seed: one head, the last head, odd d_k.
Test(sublayer, prune_random_heads_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int shapes[][2] = {{3, 1}, {9, 3}, {6, 3}, {8, 4}, {5, 5}, {6, 2}};
    for (int c = 0; c < 6; c++) {
        int d = shapes[c][0], h = shapes[c][1];
        int head = c % 2 ? h - 1 : (int)(rng_uniform(&rng) * h);
        check_prune(&rng, d, h, head, 1 + (int)(rng_uniform(&rng) * 6));
    }
}

// ---------------------------------------------------------------------------
// the pre-norm feed-forward sublayer, forward and backward

typedef struct {
    int n, d, f;
    ffn_params_t ffn, g;
    layernorm_params_t ln, gln;
    float x[NMAX * DMAX], r[NMAX * DMAX];
} net_t;

static void net_new(net_t *t, rng_t *rng, int n, int d, int f) {
    t->n = n, t->d = d, t->f = f;
    cr_assert_eq(ffn_alloc(&t->ffn, d, f), 0);
    cr_assert_eq(ffn_alloc(&t->g, d, f), 0);
    cr_assert_eq(layernorm_alloc(&t->ln, d), 0);
    cr_assert_eq(layernorm_alloc(&t->gln, d), 0);
    fill(rng, t->ffn.w1, d * f, 0, 0.7f);
    fill(rng, t->ffn.b1, f, 0, 0.3f);
    fill(rng, t->ffn.w2, f * d, 0, 0.7f);
    fill(rng, t->ffn.b2, d, 0, 0.3f);
    fill(rng, t->ln.gamma, d, 1, 0.3f);
    fill(rng, t->ln.beta, d, 0, 0.3f);
    fill(rng, t->x, n * d, 0.5f, 2);
    fill(rng, t->r, n * d, 0, 1);
}

static void net_free(net_t *t) {
    ffn_free(&t->ffn); ffn_free(&t->g);
    layernorm_free(&t->ln); layernorm_free(&t->gln);
}

// y = x + relu(LN(x) W1 + b1) W2 + b2 in double, one row at a time.
static void ref_prenorm_ffn(const net_t *t, double *y) {
    int d = t->d, f = t->f;
    for (int i = 0; i < t->n; i++) {
        const float *x = t->x + i * d;
        double mean = 0, var = 0, z[DMAX], h[FMAX];
        for (int c = 0; c < d; c++) mean += x[c] / (double)d;
        for (int c = 0; c < d; c++) var += (x[c] - mean) * (x[c] - mean) / d;
        for (int c = 0; c < d; c++)
            z[c] = t->ln.gamma[c] * (x[c] - mean) / sqrt(var + SUBLAYER_EPS) +
                   t->ln.beta[c];
        for (int k = 0; k < f; k++) {
            h[k] = t->ffn.b1[k];
            for (int c = 0; c < d; c++) h[k] += z[c] * t->ffn.w1[c * f + k];
            h[k] = h[k] > 0 ? h[k] : 0;
        }
        for (int c = 0; c < d; c++) {
            y[i * d + c] = x[c] + t->ffn.b2[c];
            for (int k = 0; k < f; k++) y[i * d + c] += h[k] * t->ffn.w2[k * d + c];
        }
    }
}

static void check_forward(net_t *t) {
    float y[NMAX * DMAX];
    double want[NMAX * DMAX];
    for (int i = 0; i < t->n * t->d; i++) y[i] = NAN;
    cr_assert_eq(sublayer_prenorm_ffn(&t->ffn, &t->ln, t->x, y, t->n), 0);
    ref_prenorm_ffn(t, want);
    for (int i = 0; i < t->n * t->d; i++)
        cr_assert(fabs(y[i] - want[i]) <= 1e-4 * (1 + fabs(want[i])),
                  "n %d d %d d_ff %d: y[%d][%d] = %g, want %g", t->n, t->d, t->f,
                  i / t->d, i % t->d, (double)y[i], want[i]);
}

Test(sublayer, prenorm_ffn_small) {
    rng_t rng;
    rng_seed(&rng, 4);
    net_t t;
    net_new(&t, &rng, 3, 4, 5);
    check_forward(&t);
    net_free(&t);
}

// Shapes from the grading seed: one token, width 1 (LayerNorm gives beta), odd
// widths, 64 hidden units, 64 tokens; inputs far from mean 0 and variance 1.
Test(sublayer, prenorm_ffn_random_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 1);
    static const int shapes[][3] = {{1, 3, 2}, {5, 1, 3}, {4, 7, 64}, {64, 3, 5},
                                    {9, 5, 9}};
    for (int c = 0; c < 5; c++) {
        net_t t;
        net_new(&t, &rng, shapes[c][0], shapes[c][1], shapes[c][2]);
        check_forward(&t);
        net_free(&t);
    }
}

// r . y by the reference, for the finite differences.
static double net_loss(const net_t *t) {
    double y[NMAX * DMAX], l = 0;
    ref_prenorm_ffn(t, y);
    for (int i = 0; i < t->n * t->d; i++) l += t->r[i] * y[i];
    return l;
}

// Every gradient against central differences; they start at `start`. An entry
// whose step crosses a ReLU kink (the two one-sided differences disagree) is
// skipped: there the loss has no derivative to compare with.
static void check_backward(net_t *t, float start) {
    int n = t->n, d = t->d, f = t->f;
    float dx[NMAX * DMAX];
    for (int i = 0; i < n * d; i++) dx[i] = start;
    float *grads[6] = {t->g.w1, t->g.b1, t->g.w2, t->g.b2, t->gln.gamma, t->gln.beta};
    float *params[6] = {t->ffn.w1, t->ffn.b1, t->ffn.w2, t->ffn.b2, t->ln.gamma,
                        t->ln.beta};
    const int count[6] = {d * f, f, f * d, d, d, d};
    const char *name[6] = {"dw1", "db1", "dw2", "db2", "dgamma", "dbeta"};
    for (int q = 0; q < 6; q++)
        for (int i = 0; i < count[q]; i++) grads[q][i] = start;
    cr_assert_eq(sublayer_prenorm_ffn_backward(&t->ffn, &t->ln, t->x, t->r, dx, &t->g,
                                               &t->gln, n), 0);
    double mid = net_loss(t);
    for (int q = -1; q < 6; q++) {
        float *p = q < 0 ? t->x : params[q], *g = q < 0 ? dx : grads[q];
        for (int i = 0; i < (q < 0 ? n * d : count[q]); i++) {
            float keep = p[i];
            p[i] = keep + 1e-3f;
            double up = net_loss(t);
            p[i] = keep - 1e-3f;
            double down = net_loss(t);
            p[i] = keep;
            double fd = (up - down) / 2e-3, got = g[i] - start;
            if (fabs(up + down - 2 * mid) > 1e-5) continue;   // a kink
            cr_assert(fabs(got - fd) <= 5e-3 + 1e-2 * fabs(fd),
                      "n %d d %d d_ff %d: %s[%d] = %g, finite difference %g", n, d, f,
                      q < 0 ? "dx" : name[q], i, got, fd);
        }
    }
}

Test(sublayer, prenorm_ffn_backward_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 6);
    net_t t;
    net_new(&t, &rng, 3, 4, 5);
    check_backward(&t, 0.0f);
    net_free(&t);
}

// Shapes from the grading seed (one token, odd widths, 64 hidden units); every
// gradient starts at 0.5 and must be added to.
Test(sublayer, prenorm_ffn_backward_random_accumulate_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 2);
    static const int shapes[][3] = {{1, 3, 2}, {3, 5, 3}, {2, 3, 64}, {5, 2, 7}};
    for (int c = 0; c < 4; c++) {
        net_t t;
        net_new(&t, &rng, shapes[c][0], shapes[c][1], shapes[c][2]);
        check_backward(&t, 0.5f);
        net_free(&t);
    }
}

// ---------------------------------------------------------------------------
// the pre-norm attention sublayer

// y = x + MHA(z, z, mask), z = LN(x) in double, attention by mha_forward_loop.
static void check_attn(rng_t *rng, int n, int d, int h, int causal) {
    mha_params_t p;
    layernorm_params_t ln;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    cr_assert_eq(layernorm_alloc(&ln, d), 0);
    mha_init(&p, rng);
    fill(rng, p.b_o, d, 0, 0.3f);
    fill(rng, ln.gamma, d, 1, 0.3f);
    fill(rng, ln.beta, d, 0, 0.3f);
    static float x[NMAX * DMAX], z[NMAX * DMAX], y[NMAX * DMAX], want[NMAX * DMAX];
    static unsigned char mask[NMAX * NMAX];
    fill(rng, x, n * d, 1, 3);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) mask[i * n + j] = !causal || j <= i;
    for (int i = 0; i < n; i++) {
        double mean = 0, var = 0;
        for (int c = 0; c < d; c++) mean += x[i * d + c] / (double)d;
        for (int c = 0; c < d; c++) var += pow(x[i * d + c] - mean, 2) / d;
        for (int c = 0; c < d; c++)
            z[i * d + c] = (float)(ln.gamma[c] * (x[i * d + c] - mean) /
                                   sqrt(var + SUBLAYER_EPS) + ln.beta[c]);
    }
    cr_assert_eq(mha_forward_loop(&p, z, n, z, n, mask, want, NULL), 0);
    for (int i = 0; i < n * d; i++) y[i] = NAN;
    cr_assert_eq(sublayer_prenorm_attn(&p, &ln, x, mask, y, n), 0);
    for (int i = 0; i < n * d; i++)
        cr_assert(fabsf(y[i] - (x[i] + want[i])) <= 1e-4f * (1 + fabsf(x[i])),
                  "n %d d %d h %d causal %d: y[%d][%d] = %g, want %g", n, d, h, causal,
                  i / d, i % d, (double)y[i], (double)(x[i] + want[i]));
    mha_free(&p);
    layernorm_free(&ln);
}

Test(sublayer, prenorm_attn_small) {
    rng_t rng;
    rng_seed(&rng, 8);
    check_attn(&rng, 3, 4, 2, 0);
}

// Causal masks and shapes from the grading seed: one token, one head, odd widths,
// 64 tokens.
Test(sublayer, prenorm_attn_random_causal_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 3);
    static const int shapes[][3] = {{1, 3, 1}, {5, 6, 3}, {7, 9, 3}, {64, 4, 2}};
    for (int c = 0; c < 4; c++)
        check_attn(&rng, shapes[c][0], shapes[c][1], shapes[c][2], 1);
}
