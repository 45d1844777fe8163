// block_train.h -- training versions of the encoder and decoder blocks of block.h:
// forward passes that keep their activations, and the backward passes that use them.
//
// The caller owns every buffer, as in llm.c: blk_*_cache_floats() says how many
// floats one block's activations take for a sequence, blk_*_cache_bind() points
// a cache struct into such a buffer, the forward fills it and the backward reads
// it. Gradients accumulate (+=) into a struct shaped like the parameters: an
// encoder_block_t / decoder_block_t allocated with encoder_block_alloc /
// decoder_block_alloc (all zeros) serves as the gradient container.
//
// The forwards compute exactly what encoder_block_forward / decoder_block_forward
// compute, bit for bit (a unit test checks it).
#ifndef BLOCK_TRAIN_H
#define BLOCK_TRAIN_H

#include <stddef.h>

#include "layers/block.h"
#include "layers/multihead.h"

// ---------------------------------------------------------------------------
// Parameters as a list of tensors (for an optimiser, gradient clipping, zeroing)

enum { BLK_ENCODER_TENSORS = 13, BLK_DECODER_TENSORS = 20 };

// The parameter arrays of b in the order of its struct fields (an mha_params_t
// gives w_q, w_k, w_v, w_o, b_o; an ffn_params_t w1, b1, w2, b2; a layer norm
// gamma, beta): ptr[k] holds len[k] floats. ptr and len must have room for
// BLK_*_TENSORS entries. Returns that count; the lengths sum to
// encoder_block_param_count(b) / decoder_block_param_count(b).
int blk_encoder_tensors(const encoder_block_t *b, float **ptr, size_t *len);
int blk_decoder_tensors(const decoder_block_t *b, float **ptr, size_t *len);

// Every parameter of g set to 0: the gradient container before a backward pass
// (encoder_block_alloc / decoder_block_alloc leave gamma = 1).
void blk_encoder_zero(encoder_block_t *g);
void blk_decoder_zero(decoder_block_t *g);

// ---------------------------------------------------------------------------
// Activation caches

// What blk_encoder_backward needs from the forward pass, for n tokens.
typedef struct {
    mha_cache_t attn;   // the self-attention's queries, keys, values, weights, ctx
    float *s1;          // (n, d_model) x + MultiHead(x, x, x), before norm1
    float *h1;          // (n, d_model) LayerNorm(s1): the first Add & Norm's output
    float *hidden;      // (n, d_ff) ReLU(h1 W_1 + b_1)
    float *s2;          // (n, d_model) h1 + FFN(h1), before norm2
} blk_encoder_cache_t;

// What blk_decoder_backward needs, for n target tokens and m encoder tokens.
typedef struct {
    mha_cache_t self_attn;    // causal self-attention (n queries, n keys)
    float *s1;                // (n, d_model) x + MultiHead(x, x, x; causal)
    float *h1;                // (n, d_model) LayerNorm(s1)
    mha_cache_t cross_attn;   // cross-attention (n queries, m keys from enc)
    float *s2;                // (n, d_model) h1 + MultiHead(h1, enc, enc)
    float *h2;                // (n, d_model) LayerNorm(s2)
    float *hidden;            // (n, d_ff) ReLU(h2 W_1 + b_1)
    float *s3;                // (n, d_model) h2 + FFN(h2), before norm3
} blk_decoder_cache_t;

// Floats one block's cache takes for n tokens (and m encoder tokens); 0 if
// n < 1 or m < 1.
size_t blk_encoder_cache_floats(const encoder_block_t *b, int n);
size_t blk_decoder_cache_floats(const decoder_block_t *b, int n, int m);

// Point c's arrays into buf, which holds blk_*_cache_floats(b, n[, m]) floats.
void blk_encoder_cache_bind(blk_encoder_cache_t *c, float *buf,
                            const encoder_block_t *b, int n);
void blk_decoder_cache_bind(blk_decoder_cache_t *c, float *buf,
                            const decoder_block_t *b, int n, int m);

// x (n, d_model), mask (n, n) or NULL (1 = visible) -> y (n, d_model), c filled
//   h1 = LayerNorm(x + MultiHead(x, x, x))
//   y  = LayerNorm(h1 + FFN(h1))
// y equals encoder_block_forward's, bit for bit; y must not overlap x or c.
// Returns 0; -1 if n < 1 (nothing written) or a workspace allocation failed.
// (torch: nn.TransformerEncoderLayer(d_model, h, d_ff, dropout=0), norm_first=False)
int blk_encoder_forward(const encoder_block_t *b, const float *x, int n,
                        const unsigned char *mask, blk_encoder_cache_t *c, float *y);

// Gradients of blk_encoder_forward, given its input x (n, d_model), the cache it
// filled and dy (n, d_model) = dLoss/dy. Accumulate (+=) into g (every parameter
// of b) and dx (n, d_model), which may be NULL. dx must not overlap dy.
// Returns 0; -1 if n < 1 or a workspace allocation failed (then g and dx may
// hold part of the gradient: treat the step as lost).
// (torch: autograd through nn.TransformerEncoderLayer)
int blk_encoder_backward(const encoder_block_t *b, encoder_block_t *g, const float *x,
                         int n, const blk_encoder_cache_t *c, const float *dy,
                         float *dx);

// x (n, d_model) the target, enc (m, d_model) the encoder output,
// self_mask (n, n) or NULL (hidden target positions besides the future ones),
// cross_mask (n, m) or NULL (hidden encoder positions) -> y (n, d_model), c filled
//   h1 = LayerNorm(x  + MultiHead(x, x, x; causal))
//   h2 = LayerNorm(h1 + MultiHead(h1, enc, enc))
//   y  = LayerNorm(h2 + FFN(h2))
// The causal mask is always applied, as in decoder_block_forward, whose y this
// equals bit for bit. y must not overlap x, enc or c.
// Returns 0; -1 if n < 1 or m < 1 (nothing written) or an allocation failed.
// (torch: nn.TransformerDecoderLayer(d_model, h, d_ff, dropout=0), norm_first=False,
//  tgt_mask = causal and not self_mask, memory_mask = not cross_mask)
int blk_decoder_forward(const decoder_block_t *b, const float *x, int n,
                        const float *enc, int m, const unsigned char *self_mask,
                        const unsigned char *cross_mask, blk_decoder_cache_t *c,
                        float *y);

// Gradients of blk_decoder_forward, given its inputs x (n, d_model) and
// enc (m, d_model), the cache it filled and dy (n, d_model). Accumulate (+=)
// into g, dx (n, d_model) and denc (m, d_model) (the cross-attention's keys and
// values: sum it over the decoder blocks that read the same encoder output);
// dx and denc may be NULL and must not overlap dy or each other.
// Returns 0; -1 if n < 1, m < 1 or a workspace allocation failed (then the
// accumulators may hold part of the gradient).
// (torch: autograd through nn.TransformerDecoderLayer)
int blk_decoder_backward(const decoder_block_t *b, decoder_block_t *g, const float *x,
                         int n, const float *enc, int m, const blk_decoder_cache_t *c,
                         const float *dy, float *dx, float *denc);

#endif
