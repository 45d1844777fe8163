// fns_ch04.c -- reference-driver wrappers for the backward passes of chapter 4's
// layers (trained in chapter 9). Each takes dL/dout as its last input and
// writes gradients that start from zero.
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "driver.h"
#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"

static float *zeroed(call *c, int k) {
    memset(OUT(k), 0, (size_t)c->out_len[k] * sizeof(float));
    return OUT(k);
}

// ints n, m, d_k, d_v; q, k, v, mask, dout -> dq, dk, dv
FN(attention_backward) {
    int n = I(0), m = I(1), d_k = I(2), d_v = I(3);
    float *w = scratch(c, (size_t)n * m * sizeof(float));
    float *out = scratch(c, (size_t)n * d_v * sizeof(float));
    float *work = scratch(c, (size_t)n * m * sizeof(float));
    attention_forward(IN(0), IN(1), IN(2), MASK(3), out, w, n, m, d_k, d_v);
    const attn_saved_t fw = {IN(0), IN(1), IN(2), w};
    attention_backward(&fw, IN(4), zeroed(c, 0), zeroed(c, 1), zeroed(c, 2), n, m, d_k,
                       d_v, work);
    return 0;
}

// ints n, d; real eps; x, gamma, beta, dy -> dx, dgamma, dbeta
FN(layernorm_backward) {
    return layernorm_backward(IN(0), IN(1), IN(3), zeroed(c, 0), zeroed(c, 1), zeroed(c, 2),
                              I(0), I(1), (float)R(0));
}

// ints n, d, f; x, W_1, b_1, W_2, b_2, dy -> dx, dW_1, db_1, dW_2, db_2
FN(ffn_backward) {
    int n = I(0), d = I(1), f = I(2);
    ffn_params_t p = ffn_from(c, 1, d, f);
    ffn_params_t g = {.d_model = d, .d_ff = f, .w1 = zeroed(c, 1), .b1 = zeroed(c, 2),
                      .w2 = zeroed(c, 3), .b2 = zeroed(c, 4)};
    float *hidden = scratch(c, (size_t)n * f * sizeof(float));
    float *y = scratch(c, (size_t)n * d * sizeof(float));
    float *work = scratch(c, (size_t)n * f * sizeof(float));
    ffn_forward(&p, IN(0), hidden, y, n);
    ffn_backward(&p, &g, IN(0), hidden, IN(5), zeroed(c, 0), n, work);
    return 0;
}

// ints n, m, d, h, self; xq, xkv, W_Q, W_K, W_V, W_O, b_O, mask, dout
//   -> dxq, dxkv (zero when self: keys and values come from xq), dW_Q, dW_K,
//      dW_V, dW_O, db_O
FN(mha_backward) {
    int n = I(0), self = I(4), m = self ? n : I(1), d = I(2);
    mha_params_t p = mha_from(c, 2, d, I(3));
    mha_params_t g = {.d_model = d, .n_heads = I(3), .d_k = d / I(3), .w_q = zeroed(c, 2),
                      .w_k = zeroed(c, 3), .w_v = zeroed(c, 4), .w_o = zeroed(c, 5),
                      .b_o = zeroed(c, 6)};
    const float *xkv = self ? IN(0) : IN(1);
    float *dxq = zeroed(c, 0), *dxkv = self ? dxq : zeroed(c, 1);
    if (self) zeroed(c, 1);
    mha_cache_t cache;
    mha_cache_bind(&cache, scratch(c, mha_cache_floats(&p, n, m) * sizeof(float)), &p, n, m);
    float *out = scratch(c, (size_t)n * d * sizeof(float));
    int rc = mha_forward_cache(&p, IN(0), n, xkv, m, MASK(7), &cache, out);
    if (rc == 0) rc = mha_backward(&p, &g, IN(0), n, xkv, m, &cache, IN(8), dxq, dxkv);
    return rc;
}

const ref_entry REF_fns_ch04[] = {ENTRY(attention_backward), ENTRY(layernorm_backward),
                                  ENTRY(ffn_backward), ENTRY(mha_backward), {0}};
