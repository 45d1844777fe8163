// gpt.h -- a decoder-only language model of today's shape, small (chapter 10).
//
//   x = wte[tokens]                                   (tied_embed.h)
//   L blocks, pre-norm, no biases:
//     a = RMSNorm(x) n1;  q = RoPE(a W_q), k = RoPE(a W_k), v = a W_v
//     x = x + GQA(q, k, v) W_o                        (causal; gqa.h)
//     x = x + SwiGLU(RMSNorm(x) n2)                   (swiglu.h)
//   logits = RMSNorm(x) nf wte^T                      (the same table: tied)
//
// With post_norm set, each block normalises after each residual addition
// instead, as chapter 9's Transformer does (the ablation of chapter 10):
//     x = RMSNorm(x + GQA(...) W_o) n1;  x = RMSNorm(x + SwiGLU(x)) n2
// with the same parameters, q, k, v projected from x itself.
//
// B sequences, T time steps, N = B T rows, C width, L layers, NH query heads,
// NKV key/value heads, HS = C / NH head size, F SwiGLU hidden width,
// V vocabulary. Every matrix is (in, out): y = x W.
#ifndef GPT_H
#define GPT_H

#include <stdint.h>
#include <stdio.h>

#include "base/rng.h"
#include "layers/swiglu.h"

enum { GPT_MAX_LAYERS = 8 };

typedef struct {
    int V, C, L, NH, NKV, F;   // sizes (legend above)
    int B_max, T_max;          // the largest batch and context the workspace holds
    double rope_base;          // RoPE's base (10000 in the paper)
    int post_norm;             // 0: pre-norm (the model above); 1: post-norm
} gpt_config_t;

// Views into one flat buffer of parameters (or of their gradients), in this
// order: wte, then per layer n1 wq wk wv wo n2 and the SwiGLU's w1 w3 w2, then
// nf. The norms are the scales n1, n2 (C,) and nf (C,).
typedef struct {
    float *wte;                          // (V, C) embedding and output layer
    struct {
        float *n1, *wq, *wk, *wv, *wo;   // (C,), (C, NH HS), (C, NKV HS) x 2,
                                         // (NH HS, C)
        float *n2;                       // (C,)
        swiglu_params_t ffn;             // w1, w3 (C, F), w2 (F, C)
    } layer[GPT_MAX_LAYERS];
    float *nf;                           // (C,)
} gpt_params_t;

// 0 if c describes a model this module can build; -1 otherwise (a size below
// 1, NH not dividing C, NKV not dividing NH, an odd head size, more than
// GPT_MAX_LAYERS layers, rope_base <= 0).
int gpt_config_check(const gpt_config_t *c);

// Floats in the flat buffer; -1 if the config is bad.
long gpt_param_count(const gpt_config_t *c);

// Point p's fields into buf (gpt_param_count floats). A bad config (see
// gpt_config_check) binds nothing: p is zeroed. So do gpt_init and
// gpt_decay_mask nothing on a bad config.
void gpt_bind(gpt_params_t *p, float *buf, const gpt_config_t *c);

// Initialise buf as GPT-2 does: every matrix normal(0, 0.02), the two output
// projections of each block (W_o, W_2) normal(0, 0.02 / sqrt(2 L)), norms 1.
void gpt_init(float *buf, const gpt_config_t *c, rng_t *rng);

// mask (gpt_param_count bytes) for AdamW's weight decay, in gpt_bind's order:
// 1 for the embedding and every matrix, 0 for the norms' scales (n1, n2, nf),
// which decay would pull towards 0 instead of their neutral value 1.
void gpt_decay_mask(unsigned char *mask, const gpt_config_t *c);

typedef struct gpt_work gpt_work_t;   // activations and scratch, opaque

// Allocate the workspace for B_max x T_max. NULL if memory ran out or the
// config is bad.
gpt_work_t *gpt_work_new(const gpt_config_t *c);
void gpt_work_free(gpt_work_t *w);

// A batch of B windows of T + 1 tokens each: tokens (B, T + 1). Position t of
// window b is fed tokens[b][t] and must predict tokens[b][t + 1].
typedef struct {
    int B, T;
    const int *tokens;
} gpt_batch_t;

// Forward pass: returns the summed next-token cross-entropy (nats) over the
// B T predictions and sets *count = B T; keeps what gpt_backward needs in w.
// Returns -1 (*count = 0) if the batch exceeds the config or holds an id
// outside 0..V-1.
double gpt_forward(const gpt_params_t *p, const gpt_config_t *c, const gpt_batch_t *bt,
                   gpt_work_t *w, int *count);

// Gradient of scale * (the summed loss of the last gpt_forward on bt),
// accumulated into g (zero it first). Returns 0; -1 if bt differs in shape
// from the last forward, or no forward on a batch preceded.
int gpt_backward(const gpt_params_t *p, const gpt_params_t *g, const gpt_config_t *c,
                 const gpt_batch_t *bt, gpt_work_t *w, float scale);

// The logits (B, T, V) and the attention weights of layer l, (B, NH, T, T), of
// the last gpt_forward. Valid until the next call on w.
const float *gpt_logits(const gpt_work_t *w);
const float *gpt_attention(const gpt_work_t *w, int l);

// tokens (n,) -> logits (V,) predicting token n + 1 by the full forward pass
// over all n tokens (B = 1, T = n: the recomputation a KV cache saves).
// Returns 0; -1 if n is outside 1..T_max or an id is out of range.
int gpt_next_logits(const gpt_params_t *p, const gpt_config_t *c, const int *tokens,
                    int n, gpt_work_t *w, float *logits);

// The key/value cache of one sequence: for every layer the keys (after RoPE)
// and values of the tokens so far, (T_max, NKV HS) each, plus row buffers.
typedef struct gpt_cache gpt_cache_t;

gpt_cache_t *gpt_cache_new(const gpt_config_t *c);   // NULL: out of memory/bad config
void gpt_cache_free(gpt_cache_t *k);
void gpt_cache_reset(gpt_cache_t *k);                // back to no tokens
int gpt_cache_len(const gpt_cache_t *k);             // tokens so far

// Feed one token at the next position: its keys and values join the cache and
// logits (V,) predicts the token after it. Same arithmetic, row for row, as
// gpt_forward, so the logits equal gpt_next_logits' bit for bit. Returns 0;
// -1 if the cache is full (T_max tokens) or token is out of range.
int gpt_cache_step(const gpt_params_t *p, const gpt_config_t *c, gpt_cache_t *k,
                   int token, float *logits);

// Pick the next token from logits (V,): temperature <= 0 is greedy (the
// largest logit, the smallest id on ties); otherwise softmax(logits / temp),
// keeping only the top_k most probable (top_k <= 0: all), then the smallest
// set of those whose probability reaches top_p (top_p >= 1: all), and draws
// from what is left with rng. scratch: 2 V floats (rng and scratch are
// not used, and may be NULL, when greedy). Returns the token id; -1 if V < 1.
int gpt_sample(const float *logits, int V, float temperature, int top_k, float top_p,
               rng_t *rng, float *scratch);

// One model for train/trainer.h: its configuration, its views into the
// trainer's parameter (w) and gradient (g) buffers, and its workspace.
typedef struct {
    gpt_config_t cfg;
    gpt_params_t p, g;
    gpt_work_t *work;
} gpt_model_t;

// trainer_model_t's forward and backward for a gpt_model_t (batch: a
// gpt_batch_t).
double gpt_model_forward(void *model, const void *batch, int *count);
int gpt_model_backward(void *model, const void *batch, float scale);

// Write the parameters buf (gpt_param_count floats) to f in the format
// described in gpt.c (a header of int32 sizes, then float32 values, all
// little-endian). Returns 0; -1 on a bad config, a post-norm config (the
// format describes the pre-norm model only) or a write error (the caller
// owns f: open, close, and the file's name).
int gpt_save(FILE *f, const gpt_config_t *c, const float *buf);

#endif
