// fns_ch09.c -- reference-driver wrappers for the training blocks of
// layers/block_train.h (chapter 9). Each takes dL/dy as its last input and writes
// gradients that start from zero: the inputs' first, then every parameter's in
// the order the forward wrappers of driver.c read them.
#include <string.h>

#include "driver.h"
#include "layers/block.h"
#include "layers/block_train.h"

static float *zeroed(call *c, int k) {
    memset(OUT(k), 0, (size_t)c->out_len[k] * sizeof(float));
    return OUT(k);
}

// Gradient containers bound to consecutive outputs starting at k.
static mha_params_t mha_grad(call *c, int k, int d, int h) {
    return (mha_params_t){.d_model = d,
                          .n_heads = h,
                          .d_k = d / h,
                          .w_q = zeroed(c, k),
                          .w_k = zeroed(c, k + 1),
                          .w_v = zeroed(c, k + 2),
                          .w_o = zeroed(c, k + 3),
                          .b_o = zeroed(c, k + 4)};
}
static layernorm_params_t ln_grad(call *c, int k, int d) {
    return (layernorm_params_t){
        .d = d, .gamma = zeroed(c, k), .beta = zeroed(c, k + 1)};
}
static ffn_params_t ffn_grad(call *c, int k, int d, int f) {
    return (ffn_params_t){.d_model = d,
                          .d_ff = f,
                          .w1 = zeroed(c, k),
                          .b1 = zeroed(c, k + 1),
                          .w2 = zeroed(c, k + 2),
                          .b2 = zeroed(c, k + 3)};
}

// ints n, d_model, h, d_ff; x, attention (5), norm1 (2), ffn (4), norm2 (2), mask, dy
//   -> dx, then the 13 parameter gradients in the same order
FN(blk_encoder_backward) {
    int n = I(0), d = I(1), h = I(2), f = I(3);
    encoder_block_t b = {.attn = mha_from(c, 1, d, h),
                         .norm1 = ln_from(c, 6, d),
                         .ffn = ffn_from(c, 8, d, f),
                         .norm2 = ln_from(c, 12, d)};
    encoder_block_t g = {.attn = mha_grad(c, 1, d, h),
                         .norm1 = ln_grad(c, 6, d),
                         .ffn = ffn_grad(c, 8, d, f),
                         .norm2 = ln_grad(c, 12, d)};
    blk_encoder_cache_t cache;
    blk_encoder_cache_bind(
        &cache, scratch(c, blk_encoder_cache_floats(&b, n) * sizeof(float)), &b, n);
    float *y = scratch(c, (size_t)n * d * sizeof(float));
    int rc = blk_encoder_forward(&b, IN(0), n, MASK(14), &cache, y);
    if (rc == 0)
        rc = blk_encoder_backward(&b, &g, IN(0), n, &cache, IN(15), zeroed(c, 0));
    return rc;
}

// ints n, m, d_model, h, d_ff; x, enc, self-attention (5), norm1 (2),
// cross-attention (5), norm2 (2), ffn (4), norm3 (2), self_mask, cross_mask, dy
//   -> dx, denc, then the 20 parameter gradients in the same order
FN(blk_decoder_backward) {
    int n = I(0), m = I(1), d = I(2), h = I(3), f = I(4);
    decoder_block_t b = {.self_attn = mha_from(c, 2, d, h),
                         .norm1 = ln_from(c, 7, d),
                         .cross_attn = mha_from(c, 9, d, h),
                         .norm2 = ln_from(c, 14, d),
                         .ffn = ffn_from(c, 16, d, f),
                         .norm3 = ln_from(c, 20, d)};
    decoder_block_t g = {.self_attn = mha_grad(c, 2, d, h),
                         .norm1 = ln_grad(c, 7, d),
                         .cross_attn = mha_grad(c, 9, d, h),
                         .norm2 = ln_grad(c, 14, d),
                         .ffn = ffn_grad(c, 16, d, f),
                         .norm3 = ln_grad(c, 20, d)};
    blk_decoder_cache_t cache;
    blk_decoder_cache_bind(
        &cache, scratch(c, blk_decoder_cache_floats(&b, n, m) * sizeof(float)), &b, n,
        m);
    float *y = scratch(c, (size_t)n * d * sizeof(float));
    int rc = blk_decoder_forward(&b, IN(0), n, IN(1), m, MASK(22), MASK(23), &cache, y);
    if (rc == 0)
        rc = blk_decoder_backward(&b, &g, IN(0), n, IN(1), m, &cache, IN(24),
                                  zeroed(c, 0), zeroed(c, 1));
    return rc;
}

const ref_entry REF_fns_ch09[] = {
    ENTRY(blk_encoder_backward), ENTRY(blk_decoder_backward), {0}};
