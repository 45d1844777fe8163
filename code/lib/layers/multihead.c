// multihead.c -- multi-head attention, fused and as a loop over heads.
#include "layers/multihead.h"

#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "base/linear.h"
#include "base/mat.h"

int mha_alloc(mha_params_t *p, int d_model, int n_heads) {
    memset(p, 0, sizeof *p);
    if (d_model <= 0 || n_heads <= 0 || d_model % n_heads != 0) return -1;
    size_t dd = (size_t)d_model * d_model;
    *p = (mha_params_t){
            .d_model = d_model, .n_heads = n_heads, .d_k = d_model / n_heads};
    p->w_q = calloc(dd, sizeof(float));
    p->w_k = calloc(dd, sizeof(float));
    p->w_v = calloc(dd, sizeof(float));
    p->w_o = calloc(dd, sizeof(float));
    p->b_o = calloc((size_t)d_model, sizeof(float));
    if (!p->w_q || !p->w_k || !p->w_v || !p->w_o || !p->b_o) {
        mha_free(p);
        return -2;
    }
    return 0;
}

void mha_free(mha_params_t *p) {
    free(p->w_q);
    free(p->w_k);
    free(p->w_v);
    free(p->w_o);
    free(p->b_o);
    p->w_q = p->w_k = p->w_v = p->w_o = p->b_o = NULL;
}

// snippet: mha_init
void mha_init(mha_params_t *p, rng_t *rng) {
    int d = p->d_model;
    // Each matrix is one (d_model, d_model) layer: fan_in = fan_out = d_model,
    // so every entry is drawn from U(-a, a) with a = sqrt(6 / (2 d_model)).
    linear_init_xavier(rng, p->w_q, d, d);
    linear_init_xavier(rng, p->w_k, d, d);
    linear_init_xavier(rng, p->w_v, d, d);
    linear_init_xavier(rng, p->w_o, d, d);
    memset(p->b_o, 0, (size_t)d * sizeof(float));
}
// end snippet

long mha_param_count(const mha_params_t *p) {
    long d = p->d_model;
    return 4 * d * d + d;   // W_Q, W_K, W_V, W_O and b_O
}

// ---------------------------------------------------------------------------
// split and concat: pure index arithmetic, no arithmetic on the values

// snippet: split_heads
void mha_split_heads(const float *x, float *heads, int n, int n_heads, int d_k) {
    int d_model = n_heads * d_k;
    for (int h = 0; h < n_heads; h++)
        for (int i = 0; i < n; i++)
            for (int c = 0; c < d_k; c++)
                // x[i][h d_k + c]  ->  heads[h][i][c]
                heads[(h * n + i) * d_k + c] = x[i * d_model + h * d_k + c];
}
// end snippet

// snippet: concat_heads
void mha_concat_heads(const float *heads, float *x, int n, int n_heads, int d_k) {
    int d_model = n_heads * d_k;
    for (int h = 0; h < n_heads; h++)
        for (int i = 0; i < n; i++)
            for (int c = 0; c < d_k; c++)
                // heads[h][i][c]  ->  x[i][h d_k + c]
                x[i * d_model + h * d_k + c] = heads[(h * n + i) * d_k + c];
}
// end snippet

// ---------------------------------------------------------------------------
// the fused forward pass: one projection for all heads

// snippet: mha_forward
int mha_forward(const mha_params_t *p, const float *xq, int n, const float *xkv, int m,
                const unsigned char *mask, float *out, float *weights) {
    int d = p->d_model, h = p->n_heads, d_k = p->d_k;
    if (n < 0 || m < 0) return -1;
    size_t nd = (size_t)n * d, md = (size_t)m * d;
    size_t size = 4 * nd + 4 * md + (weights ? 0 : (size_t)h * n * m);
    float *ws = malloc((size + 1) * sizeof(float));
    if (!ws) return -1;
    float *q = ws, *q_h = q + nd, *ctx_h = q_h + nd, *ctx = ctx_h + nd;   // (n, d)
    float *k = ctx + nd, *v = k + md, *k_h = v + md, *v_h = k_h + md;     // (m, d)
    float *w = weights ? weights : v_h + md;                             // (h, n, m)

    // 1. Project once for all heads: Q = xq W_Q, K = xkv W_K, V = xkv W_V.
    linear_forward(xq, p->w_q, NULL, q, n, d, d);      // q (n, d_model)
    linear_forward(xkv, p->w_k, NULL, k, m, d, d);     // k (m, d_model)
    linear_forward(xkv, p->w_v, NULL, v, m, d, d);     // v (m, d_model)
    // 2. Split: column block i of each becomes head i.
    mha_split_heads(q, q_h, n, h, d_k);                // q_h (h, n, d_k)
    mha_split_heads(k, k_h, m, h, d_k);                // k_h (h, m, d_k)
    mha_split_heads(v, v_h, m, h, d_k);                // v_h (h, m, d_k)
    // 3. Scaled dot-product attention in every head (chapter 2).
    for (int i = 0; i < h; i++)
        attention_forward(q_h + (size_t)i * n * d_k, k_h + (size_t)i * m * d_k,
                          v_h + (size_t)i * m * d_k, mask,
                          ctx_h + (size_t)i * n * d_k, w + (size_t)i * n * m,
                          n, m, d_k, d_k);             // ctx_h (h, n, d_k)
    // 4. Concat the heads side by side again.
    mha_concat_heads(ctx_h, ctx, n, h, d_k);           // ctx (n, d_model)
    // 5. Mix them: out = ctx W_O + b_O.
    linear_forward(ctx, p->w_o, p->b_o, out, n, d, d); // out (n, d_model)
    free(ws);
    return 0;
}
// end snippet

// ---------------------------------------------------------------------------
// the naive forward pass: h independent heads

// w (rows, cols) -> part (rows, width): columns [col0, col0 + width) of w.
static void slice_columns(const float *w, float *part, int rows, int cols, int col0,
                          int width) {
    for (int r = 0; r < rows; r++)
        memcpy(part + (size_t)r * width, w + (size_t)r * cols + col0,
               (size_t)width * sizeof(float));
}

// snippet: mha_forward_loop
int mha_forward_loop(const mha_params_t *p, const float *xq, int n, const float *xkv,
                     int m, const unsigned char *mask, float *out, float *weights) {
    int d = p->d_model, h = p->n_heads, d_k = p->d_k;
    if (n < 0 || m < 0) return -1;
    size_t wsize = (size_t)d * d_k, nk = (size_t)n * d_k, mk = (size_t)m * d_k;
    size_t size = 3 * wsize + 2 * nk + 2 * mk + (size_t)n * d + (size_t)n * m;
    float *ws = malloc((size + 1) * sizeof(float));
    if (!ws) return -1;
    float *w_q = ws, *w_k = w_q + wsize, *w_v = w_k + wsize;   // (d_model, d_k)
    float *q = w_v + wsize, *ctx = q + nk;                     // (n, d_k)
    float *k = ctx + nk, *v = k + mk;                          // (m, d_k)
    float *part = v + mk;                                      // (n, d_model)
    float *w_one = part + (size_t)n * d;                       // (n, m)

    memset(out, 0, (size_t)n * d * sizeof(float));
    for (int i = 0; i < h; i++) {
        // Head i's own projections: its d_k columns of W_Q, W_K, W_V.
        slice_columns(p->w_q, w_q, d, d, i * d_k, d_k);
        slice_columns(p->w_k, w_k, d, d, i * d_k, d_k);
        slice_columns(p->w_v, w_v, d, d, i * d_k, d_k);
        linear_forward(xq, w_q, NULL, q, n, d, d_k);       // q (n, d_k)
        linear_forward(xkv, w_k, NULL, k, m, d, d_k);      // k (m, d_k)
        linear_forward(xkv, w_v, NULL, v, m, d, d_k);      // v (m, d_k)
        float *w_i = weights ? weights + (size_t)i * n * m : w_one;
        attention_forward(q, k, v, mask, ctx, w_i, n, m, d_k, d_k);  // head_i (n, d_k)
        // Its share of the output: head_i W_O^i, where W_O^i is rows
        // [i d_k, (i+1) d_k) of W_O -- a contiguous (d_k, d_model) block.
        linear_forward(ctx, p->w_o + (size_t)i * d_k * d, NULL, part, n, d_k, d);
        mat_add(out, part, n * d);                         // out += head_i W_O^i
    }
    mat_add_row(out, p->b_o, n, d);                        // out += b_O
    free(ws);
    return 0;
}
// end snippet

// ---------------------------------------------------------------------------
// Training

size_t mha_cache_floats(const mha_params_t *p, int n, int m) {
    if (n < 0 || m < 0) return 0;
    const size_t d = (size_t)p->d_model, h = (size_t)p->n_heads;
    return 2 * (size_t)n * d + 2 * (size_t)m * d + h * (size_t)n * m;
}

void mha_cache_bind(mha_cache_t *c, float *buf, const mha_params_t *p, int n, int m) {
    const size_t d = (size_t)p->d_model;
    n = n < 0 ? 0 : n;
    m = m < 0 ? 0 : m;
    c->q_h = buf;
    c->k_h = c->q_h + (size_t)n * d;
    c->v_h = c->k_h + (size_t)m * d;
    c->ctx = c->v_h + (size_t)m * d;
    c->w = c->ctx + (size_t)n * d;
}

int mha_forward_cache(const mha_params_t *p, const float *xq, int n, const float *xkv,
                      int m, const unsigned char *mask, mha_cache_t *c, float *out) {
    int d = p->d_model, h = p->n_heads, d_k = p->d_k;
    if (n < 0 || m < 0) return -1;
    if (n == 0) return 0;
    float *ws = malloc(((size_t)n * d + 2 * (size_t)m * d + 1) * sizeof(float));
    if (!ws) return -1;
    float *q = ws, *k = q + (size_t)n * d, *v = k + (size_t)m * d;
    linear_forward(xq, p->w_q, NULL, q, n, d, d);      // the steps of mha_forward,
    linear_forward(xkv, p->w_k, NULL, k, m, d, d);     // with every activation kept
    linear_forward(xkv, p->w_v, NULL, v, m, d, d);
    mha_split_heads(q, c->q_h, n, h, d_k);
    mha_split_heads(k, c->k_h, m, h, d_k);
    mha_split_heads(v, c->v_h, m, h, d_k);
    float *ctx_h = q;                                  // q is free again: (h, n, d_k)
    for (int i = 0; i < h; i++)
        attention_forward(c->q_h + (size_t)i * n * d_k, c->k_h + (size_t)i * m * d_k,
                          c->v_h + (size_t)i * m * d_k, mask,
                          ctx_h + (size_t)i * n * d_k, c->w + (size_t)i * n * m, n, m,
                          d_k, d_k);
    mha_concat_heads(ctx_h, c->ctx, n, h, d_k);
    linear_forward(c->ctx, p->w_o, p->b_o, out, n, d, d);
    free(ws);
    return 0;
}

int mha_backward(const mha_params_t *p, mha_params_t *g, const float *xq, int n,
                 const float *xkv, int m, const mha_cache_t *c, const float *dout,
                 float *dxq, float *dxkv) {
    int d = p->d_model, h = p->n_heads, d_k = p->d_k;
    if (n < 0 || m < 0) return -1;
    if (n == 0) return 0;
    size_t nd = (size_t)n * d, md = (size_t)m * d;
    float *ws = calloc(2 * nd + 2 * nd + 4 * md + (size_t)n * m + 1, sizeof(float));
    if (!ws) return -1;
    float *dctx = ws, *dctx_h = dctx + nd, *dq_h = dctx_h + nd, *dq = dq_h + nd;
    float *dk_h = dq + nd, *dv_h = dk_h + md, *dk = dv_h + md, *dv = dk + md;
    float *scratch = dv + md;                                        // (n, m)
    // forward: out = ctx W_O + b_O
    linear_backward(c->ctx, p->w_o, dout, dctx, g->w_o, g->b_o, n, d, d);
    // forward: ctx = concat(ctx_h)  =>  dctx_h = split(dctx)
    mha_split_heads(dctx, dctx_h, n, h, d_k);
    // forward: ctx_h[i] = attention(q_h[i], k_h[i], v_h[i]) in every head
    for (int i = 0; i < h; i++) {
        size_t qi = (size_t)i * n * d_k, ki = (size_t)i * m * d_k;
        const attn_saved_t fw = {c->q_h + qi, c->k_h + ki, c->v_h + ki,
                                 c->w + (size_t)i * n * m};
        attention_backward(&fw, dctx_h + qi, dq_h + qi, dk_h + ki, dv_h + ki, n, m, d_k,
                           d_k, scratch);
    }
    // forward: q_h = split(q), and so on  =>  dq = concat(dq_h)
    mha_concat_heads(dq_h, dq, n, h, d_k);
    mha_concat_heads(dk_h, dk, m, h, d_k);
    mha_concat_heads(dv_h, dv, m, h, d_k);
    // forward: q = xq W_Q, k = xkv W_K, v = xkv W_V
    linear_backward(xq, p->w_q, dq, dxq, g->w_q, NULL, n, d, d);
    linear_backward(xkv, p->w_k, dk, dxkv, g->w_k, NULL, m, d, d);
    linear_backward(xkv, p->w_v, dv, dxkv, g->w_v, NULL, m, d, d);
    free(ws);
    return 0;
}
