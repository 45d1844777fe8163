// ffn.c -- widen, ReLU, narrow: the same small network on every token.
#include "layers/ffn.h"

#include <stdlib.h>
#include <string.h>

#include "base/linear.h"

int ffn_alloc(ffn_params_t *p, int d_model, int d_ff) {
    memset(p, 0, sizeof *p);
    if (d_model < 1 || d_ff < 1) return -1;
    p->d_model = d_model;
    p->d_ff = d_ff;
    p->w1 = calloc((size_t)d_model * d_ff, sizeof(float));
    p->b1 = calloc((size_t)d_ff, sizeof(float));
    p->w2 = calloc((size_t)d_ff * d_model, sizeof(float));
    p->b2 = calloc((size_t)d_model, sizeof(float));
    if (!p->w1 || !p->b1 || !p->w2 || !p->b2) {
        ffn_free(p);
        return -1;
    }
    return 0;
}

void ffn_free(ffn_params_t *p) {
    free(p->w1);
    free(p->b1);
    free(p->w2);
    free(p->b2);
    p->w1 = p->b1 = p->w2 = p->b2 = NULL;
}

void ffn_init(ffn_params_t *p, rng_t *rng) {
    linear_init_xavier(rng, p->w1, p->d_model, p->d_ff);
    linear_init_xavier(rng, p->w2, p->d_ff, p->d_model);
    memset(p->b1, 0, (size_t)p->d_ff * sizeof(float));
    memset(p->b2, 0, (size_t)p->d_model * sizeof(float));
}

long ffn_param_count(const ffn_params_t *p) {
    long d = p->d_model, f = p->d_ff;
    return 2 * d * f + f + d;
}

// snippet: ffn_forward
void ffn_forward(const ffn_params_t *p, const float *x, float *hidden, float *y,
                 int n) {
    if (n < 1) return;
    size_t size = (size_t)n * p->d_ff;
    linear_forward(x, p->w1, p->b1, hidden, n, p->d_model, p->d_ff);  // (n, d_ff)
    for (size_t i = 0; i < size; i++)                                  // ReLU
        if (hidden[i] < 0.0f) hidden[i] = 0.0f;
    linear_forward(hidden, p->w2, p->b2, y, n, p->d_ff, p->d_model);  // (n, d_model)
}
// end snippet

void ffn_backward(const ffn_params_t *p, ffn_params_t *g, const float *x,
                  const float *hidden, const float *dy, float *dx, int n,
                  float *scratch) {
    const int d = p->d_model, f = p->d_ff;
    if (n < 1) return;                                     // no rows, no gradient
    float *dh = scratch;                                   // (n, d_ff)
    memset(dh, 0, (size_t)n * f * sizeof(float));
    // forward: y = hidden W_2 + b_2
    linear_backward(hidden, p->w2, dy, dh, g->w2, g->b2, n, f, d);
    // forward: hidden = ReLU(pre)  =>  dpre = dhidden where hidden > 0, else 0
    for (size_t i = 0; i < (size_t)n * f; i++)
        if (hidden[i] <= 0.0f) dh[i] = 0.0f;
    // forward: pre = x W_1 + b_1
    linear_backward(x, p->w1, dh, dx, g->w1, g->b1, n, d, f);
}
