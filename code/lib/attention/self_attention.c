// self_attention.c -- simplified and trainable self-attention.
#include "attention/self_attention.h"

#include <stdlib.h>

#include "attention/attention.h"
#include "base/linear.h"

// snippet: self_attn_simple
void self_attn_simple(const float *x, const unsigned char *mask,
                           float *out, float *weights, int n, int d) {
    // The same matrix plays all three roles: Q = K = V = x.
    attention_forward(x, x, x, mask, out, weights, n, n, d, d);
}
// end snippet

int self_attn_alloc(self_attn_params_t *p, int d_model, int d_k, int d_v,
                    int with_bias) {
    *p = (self_attn_params_t){.d_model = d_model, .d_k = d_k, .d_v = d_v};
    if (d_model < 1 || d_k < 1 || d_v < 1) return -1;
    p->w_q = calloc((size_t)d_model * d_k, sizeof(float));
    p->w_k = calloc((size_t)d_model * d_k, sizeof(float));
    p->w_v = calloc((size_t)d_model * d_v, sizeof(float));
    int ok = p->w_q && p->w_k && p->w_v;
    if (ok && with_bias) {
        p->b_q = calloc((size_t)d_k, sizeof(float));
        p->b_k = calloc((size_t)d_k, sizeof(float));
        p->b_v = calloc((size_t)d_v, sizeof(float));
        ok = p->b_q && p->b_k && p->b_v;
    }
    if (!ok) {
        self_attn_free(p);
        return -1;
    }
    return 0;
}

void self_attn_free(self_attn_params_t *p) {
    free(p->w_q);
    free(p->w_k);
    free(p->w_v);
    free(p->b_q);
    free(p->b_k);
    free(p->b_v);
    p->w_q = p->w_k = p->w_v = p->b_q = p->b_k = p->b_v = NULL;
}

void self_attn_init(self_attn_params_t *p, rng_t *rng) {
    linear_init_xavier(rng, p->w_q, p->d_model, p->d_k);
    linear_init_xavier(rng, p->w_k, p->d_model, p->d_k);
    linear_init_xavier(rng, p->w_v, p->d_model, p->d_v);
    for (int j = 0; p->b_q && j < p->d_k; j++) p->b_q[j] = p->b_k[j] = 0.0f;
    for (int j = 0; p->b_v && j < p->d_v; j++) p->b_v[j] = 0.0f;
}

// snippet: self_attn_forward
void self_attn_forward(const self_attn_params_t *p, const float *x,
                       const unsigned char *mask, float *q, float *k, float *v,
                       float *weights, float *out, int n) {
    // Three views of the same input, one learned projection each.
    linear_forward(x, p->w_q, p->b_q, q, n, p->d_model, p->d_k);   // Q = x W_Q
    linear_forward(x, p->w_k, p->b_k, k, n, p->d_model, p->d_k);   // K = x W_K
    linear_forward(x, p->w_v, p->b_v, v, n, p->d_model, p->d_v);   // V = x W_V
    // Then chapter 2, unchanged: every query against every key of the same x.
    attention_forward(q, k, v, mask, out, weights, n, n, p->d_k, p->d_v);
}
// end snippet
