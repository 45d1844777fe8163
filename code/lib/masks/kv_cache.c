// kv_cache.c -- one decoding step at a time, with cached keys and values.
#include "masks/kv_cache.h"

#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "base/linear.h"

int kv_alloc(kv_cache_t *c, int d_model, int n_heads, int capacity) {
    memset(c, 0, sizeof *c);
    if (d_model <= 0 || n_heads <= 0 || capacity <= 0 || d_model % n_heads != 0)
        return -1;
    size_t size = (size_t)capacity * d_model;
    c->k = malloc(size * sizeof(float));
    c->v = malloc(size * sizeof(float));
    c->work = malloc(((size_t)3 * d_model + capacity) * sizeof(float));
    if (!c->k || !c->v || !c->work) {
        kv_free(c);
        return -2;
    }
    c->d_model = d_model;
    c->n_heads = n_heads;
    c->d_k = d_model / n_heads;
    c->capacity = capacity;
    return 0;
}

void kv_free(kv_cache_t *c) {
    free(c->k);
    free(c->v);
    free(c->work);
    memset(c, 0, sizeof *c);
}

void kv_reset(kv_cache_t *c) { c->len = 0; }

// snippet: kv_step
int kv_step(const mha_params_t *p, kv_cache_t *c, const float *x, float *out,
            float *weights) {
    int d = p->d_model, h = p->n_heads, d_k = p->d_k, cap = c->capacity;
    if (c->len >= cap || c->d_model != d || c->n_heads != h) return -1;
    float *q = c->work, *ctx = q + d, *kv = ctx + d, *w = kv + d;   // w (len,)
    int t = c->len;                                  // the new token's position
    // 1. Project only the newest token; append its key and value, head by head.
    linear_forward(x, p->w_q, NULL, q, 1, d, d);     // q (1, d_model)
    linear_forward(x, p->w_k, NULL, kv, 1, d, d);
    for (int i = 0; i < h; i++)                      // k -> cache k[i][t]
        memcpy(c->k + ((size_t)i * cap + t) * d_k, kv + i * d_k, d_k * sizeof(float));
    linear_forward(x, p->w_v, NULL, kv, 1, d, d);
    for (int i = 0; i < h; i++)                      // v -> cache v[i][t]
        memcpy(c->v + ((size_t)i * cap + t) * d_k, kv + i * d_k, d_k * sizeof(float));
    c->len = t + 1;
    // 2. In every head, the one query attends to all len cached keys.
    for (int i = 0; i < h; i++) {
        float *wi = weights ? weights + (size_t)i * c->len : w;
        attention_forward(q + i * d_k, c->k + (size_t)i * cap * d_k,
                          c->v + (size_t)i * cap * d_k, NULL, ctx + i * d_k, wi,
                          1, c->len, d_k, d_k);      // ctx head i (1, d_k)
    }
    // 3. The heads are already side by side in ctx: mix them with W_O.
    linear_forward(ctx, p->w_o, p->b_o, out, 1, d, d);
    return 0;
}
// end snippet

// snippet: kv_macs
long long kv_macs_cached(int d_model, int t) {
    if (d_model < 1 || t < 1) return 0;
    long long d = d_model;
    return 4 * d * d            // q, k, v of one token, and W_O
           + 2 * (long long)t * d;   // t scores and a weighted sum of t values
}

long long kv_macs_uncached(int d_model, int t) {
    if (d_model < 1 || t < 1) return 0;
    long long d = d_model, n = t;
    return 4 * n * d * d        // Q, K, V and W_O for all t tokens
           + 2 * n * n * d;     // all t^2 scores and weighted sums
}

long long kv_bytes_per_token(int d_model, int layers) {
    if (d_model < 0 || layers < 0) return 0;
    return 2LL * d_model * layers * (long long)sizeof(float);
}
// end snippet
