// fns_ch09.c -- reference-driver wrappers for the training blocks of
// layers/block_train.h (chapter 9). Each takes dL/dy as its last input and writes
// gradients that start from zero: the inputs' first, then every parameter's in
// the order the forward wrappers of driver.c read them.
//
// Then the trained Transformer of models/transformer.h: embedding_pos_forward /
// embedding_pos_backward (positions from sinusoidal_table, as the model adds them),
// and tf_forward / tf_backward on a whole padded batch (the parameters as one flat
// buffer in tf_bind's layout; the gradient comes back the same way).
#include <string.h>

#include "driver.h"
#include "layers/block.h"
#include "layers/block_train.h"
#include "layers/embedding.h"
#include "position/sinusoidal.h"
#include "models/transformer.h"

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

// Input k (float token ids) as ints.
static int *ids_in(call *c, int k) {
    long n = c->in_len[k];
    int *ids = scratch(c, sizeof(int) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) ids[i] = (int)IN(k)[i];
    return ids;
}

// The sinusoidal table (n, e) the Transformer adds: positions from 0, base 10000.
static float *pe_for(call *c, int n, int e) {
    size_t len = (size_t)n * (size_t)e;
    float *pe = scratch(c, sizeof(float) * (len > 0 ? len : 1));
    sinusoidal_table(pe, n, e, 0, SINUSOIDAL_BASE);
    return pe;
}

// ints n, v, e; table (V, E), ids (n,) -> out (n, E)
FN(embedding_pos_forward) {
    int n = I(0), v = I(1), e = I(2);
    return embedding_pos_forward(IN(0), ids_in(c, 1), pe_for(c, n, e), OUT(0), n, v, e);
}

// ints n, v, e; table, ids, dout (n, E) -> dtable (V, E), from zero
FN(embedding_pos_backward) {
    embedding_pos_backward(ids_in(c, 1), IN(2), zeroed(c, 0), I(0), I(1), I(2));
    return 0;
}

// The whole Transformer of models/transformer.h on one padded batch.
// ints B, T, U, Vs, Vt, d_model, h, d_ff, n_enc, n_dec; reals scale;
// ins: the flat parameter buffer (tf_bind's layout), src (B, T), src_mask (B, T),
// tgt_in (B, U), tgt_out (B, U).
typedef struct {
    tf_config_t cfg;
    tf_params_t p;
    s2s_batch_t bt;
    tf_work_t *w;
    double loss;
    int count;
} tf_run_t;

static int tf_run(call *c, tf_run_t *r) {
    r->cfg = (tf_config_t){.b_max = I(0), .t_max = I(1), .u_max = I(2), .v_src = I(3),
                           .v_tgt = I(4), .d_model = I(5), .n_heads = I(6),
                           .d_ff = I(7), .n_enc = I(8), .n_dec = I(9)};
    if (tf_param_count(&r->cfg) != c->in_len[0]) die(c, "tf: parameter count differs");
    tf_bind(&r->p, IN(0), &r->cfg);
    r->bt = (s2s_batch_t){.b = I(0), .t_len = I(1), .u_len = I(2), .src = ids_in(c, 1),
                          .src_mask = MASK(2), .tgt_in = ids_in(c, 3),
                          .tgt_out = ids_in(c, 4)};
    r->w = tf_work_new(&r->cfg);
    if (!r->w) die(c, "tf_work_new failed");
    r->loss = tf_forward(&r->p, &r->cfg, &r->bt, r->w, &r->count);
    return r->loss < 0 ? -1 : 0;
}

// -> loss (1,), count (1,), logits (B, U, Vt)
FN(tf_forward) {
    tf_run_t r;
    int rc = tf_run(c, &r);
    OUT(0)[0] = (float)r.loss;
    OUT(1)[0] = (float)r.count;
    if (rc == 0) memcpy(OUT(2), tf_logits(r.w), sizeof(float) * (size_t)c->out_len[2]);
    tf_work_free(r.w);
    return rc;
}

// -> the gradient of scale * loss, the flat buffer in tf_bind's layout
FN(tf_backward) {
    tf_run_t r;
    int rc = tf_run(c, &r);
    tf_params_t g;
    tf_bind(&g, zeroed(c, 0), &r.cfg);
    if (rc == 0) rc = tf_backward(&r.p, &g, &r.cfg, &r.bt, r.w, (float)R(0));
    tf_work_free(r.w);
    return rc;
}

const ref_entry REF_fns_ch09[] = {
    ENTRY(blk_encoder_backward),   ENTRY(blk_decoder_backward),
    ENTRY(embedding_pos_forward),  ENTRY(embedding_pos_backward),
    ENTRY(tf_forward),             ENTRY(tf_backward),
    {0}};
