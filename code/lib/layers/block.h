// block.h -- the Transformer's encoder and decoder blocks (Vaswani et al., 2017).
//
// Both are stacks of sub-layers, each wrapped in "Add & Norm": the sub-layer's
// output is added to its input (a residual connection) and the sum is layer
// normalised. This is the original post-norm arrangement,
//     y = LayerNorm(x + Sublayer(x));
// many later models use pre-norm, y = x + Sublayer(LayerNorm(x)), instead.
//
//   encoder block: self-attention, Add & Norm, FFN, Add & Norm
//   decoder block: causal self-attention, Add & Norm,
//                  cross-attention over the encoder output, Add & Norm,
//                  FFN, Add & Norm
//
// The forward passes allocate their workspace and return 0, or -1 if memory
// ran out or a size is negative. n = 0 writes nothing; m = 0 (an empty encoder
// output) makes the cross-attention contribute only its output bias.
#ifndef BLOCK_H
#define BLOCK_H

#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"
#include "base/rng.h"

// x (n, d), sub (n, d) -> y (n, d) = LayerNorm(x + sub), with ln's gamma and
// beta and eps = LAYERNORM_EPS. y may be the same buffer as x or sub.
// n = 0 (or below): nothing written.
void layernorm_add_norm(const float *x, const float *sub, const layernorm_params_t *ln,
                        float *y, int n);

// snippet: encoder_block_t
typedef struct {
    mha_params_t attn;           // multi-head self-attention
    layernorm_params_t norm1;    // Add & Norm after the attention
    ffn_params_t ffn;            // position-wise feed-forward network
    layernorm_params_t norm2;    // Add & Norm after the FFN
} encoder_block_t;
// end snippet

typedef struct {
    mha_params_t self_attn;      // causal multi-head self-attention over the target
    layernorm_params_t norm1;
    mha_params_t cross_attn; // queries from the target, keys/values from the encoder
    layernorm_params_t norm2;
    ffn_params_t ffn;
    layernorm_params_t norm3;
} decoder_block_t;

// Allocate zeroed attention and FFN weights, gamma = 1, beta = 0. Returns 0;
// -1 for bad sizes (d_model not divisible by n_heads, ...); -2 if memory ran
// out. Either way the block can be passed to *_free.
int encoder_block_alloc(encoder_block_t *b, int d_model, int n_heads, int d_ff);
int decoder_block_alloc(decoder_block_t *b, int d_model, int n_heads, int d_ff);

void encoder_block_free(encoder_block_t *b);
void decoder_block_free(decoder_block_t *b);

// Xavier weights for every attention and FFN layer, in the order of the
// struct fields; biases 0.
void encoder_block_init(encoder_block_t *b, rng_t *rng);
void decoder_block_init(decoder_block_t *b, rng_t *rng);

long encoder_block_param_count(const encoder_block_t *b);
long decoder_block_param_count(const decoder_block_t *b);

// x (n, d_model), mask (n, n) or NULL (1 = visible, e.g. to hide padding)
//   -> y (n, d_model), weights (h, n, n) or NULL
//   h1 = LayerNorm(x + MultiHead(x, x, x))
//   y  = LayerNorm(h1 + FFN(h1))
// y must not overlap x.
// (torch: nn.TransformerEncoderLayer(d_model, h, d_ff, dropout=0, norm_first=False)
//  with its attention's in_proj_bias set to 0; mask as src_mask=~mask)
int encoder_block_forward(const encoder_block_t *b, const float *x, int n,
                          const unsigned char *mask, float *y, float *weights);

// x (n, d_model) the target so far, enc (m, d_model) the encoder output,
// self_mask (n, n) or NULL: hidden positions besides the future ones (padding),
// cross_mask (n, m) or NULL: hidden encoder positions (source padding)
//   -> y (n, d_model), self_w (h, n, n) or NULL, cross_w (h, n, m) or NULL
//   h1 = LayerNorm(x  + MultiHead(x, x, x; causal))    token i sees tokens <= i
//   h2 = LayerNorm(h1 + MultiHead(h1, enc, enc))      every token sees all of enc
//   y  = LayerNorm(h2 + FFN(h2))
// The causal mask is always applied; y must not overlap x or enc.
// (torch: nn.TransformerDecoderLayer(d_model, h, d_ff, dropout=0) with
//  in_proj_bias = 0, called with
//  tgt_mask=nn.Transformer.generate_square_subsequent_mask(n); torch 1.13 has
//  no tgt_is_causal, which later versions add only as a hint)
int decoder_block_forward(const decoder_block_t *b, const float *x, int n,
                          const float *enc, int m, const unsigned char *self_mask,
                          const unsigned char *cross_mask, float *y, float *self_w,
                          float *cross_w);

#endif
