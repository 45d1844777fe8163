// transformer.h -- the encoder-decoder Transformer of chapter 4, trained.
//
//   source:  x = emb_src[src] * sqrt(d) + PE       (Vaswani et al., 2017, 3.4 and 3.5)
//   encoder: n_enc blocks of block.h, keys at source padding hidden
//   target:  y = emb_tgt[tgt_in] * sqrt(d) + PE
//   decoder: n_dec blocks, causal self-attention, cross-attention over the
//            encoder output with source padding hidden
//   output:  p(next token) = softmax(y_last W_out + b_out)
//
// The same arithmetic as layers/block_train.c (a unit test compares the two
// sentence by sentence), organised for speed: the rows of a whole batch go
// through each projection at once with train/tmat's products, and every
// activation the backward pass needs is kept in one workspace.
//
// B = batch, T = source length (padded), U = target length (padded),
// d = d_model, h = heads, d_k = d / h, V = vocabulary sizes (Vs, Vt).
// Token id 0 (S2S_PAD) is padding in both vocabularies; src_mask (B, T) says
// which source positions are real (1 = visible).
#ifndef TRANSFORMER_H
#define TRANSFORMER_H

#include "base/rng.h"
#include "layers/block.h"
#include "data/pairs.h"

enum { TF_MAX_LAYERS = 6 };

typedef struct {
    int v_src, v_tgt;            // vocabulary sizes
    int d_model, n_heads, d_ff;  // widths, as in chapter 4
    int n_enc, n_dec;            // blocks in the encoder and in the decoder
    int b_max, t_max, u_max;     // the largest batch and lengths the workspace holds
} tf_config_t;

// Views into one flat buffer of parameters (or of their gradients). The blocks
// are the structs of block.h, so block.h and block_train.h work on them.
typedef struct {
    float *emb_src, *emb_tgt;            // (Vs, d), (Vt, d)
    encoder_block_t enc[TF_MAX_LAYERS];
    decoder_block_t dec[TF_MAX_LAYERS];
    float *w_out, *b_out;                // (d, Vt), (Vt,)
} tf_params_t;

// 0 if c describes a model this module can build; -1 otherwise (a size below
// 1, n_heads not dividing d_model, more than TF_MAX_LAYERS blocks).
int tf_config_check(const tf_config_t *c);

// Floats in the flat buffer for this configuration; -1 if the config is bad.
long tf_param_count(const tf_config_t *c);

// Point p's fields into buf (tf_param_count floats). A bad config binds
// nothing: p is zeroed.
void tf_bind(tf_params_t *p, float *buf, const tf_config_t *c);

// Initialise buf as The Annotated Transformer does: every matrix (embeddings
// included) Xavier-uniform, biases 0, layer norms gamma = 1, beta = 0.
void tf_init(float *buf, const tf_config_t *c, rng_t *rng);

typedef struct tf_work tf_work_t;   // activations and scratch, opaque

// Allocate the workspace for c's largest batch. NULL if memory ran out or
// the config is bad.
tf_work_t *tf_work_new(const tf_config_t *c);
void tf_work_free(tf_work_t *w);

// Teacher-forced forward pass on a batch (s2s_batch_t of seq2seq.h: src,
// src_mask (B, T), tgt_in = BOS y_1 ..., tgt_out = y_1 ... EOS, padded with
// S2S_PAD): returns the summed cross-entropy over the non-padding targets and
// sets *count to their number; keeps what tf_backward needs in w.
// Returns -1 (and *count = 0) if the batch exceeds the config or holds an id
// outside the vocabulary.
double tf_forward(const tf_params_t *p, const tf_config_t *c, const s2s_batch_t *bt,
                  tf_work_t *w, int *count);

// Gradient of scale * (the summed loss of the last tf_forward on bt),
// accumulated into g (a view of a gradient buffer: zero it first).
// Returns 0; -1 if a workspace allocation failed (treat the step as lost).
int tf_backward(const tf_params_t *p, tf_params_t *g, const tf_config_t *c,
                const s2s_batch_t *bt, tf_work_t *w, float scale);

// The logits of the last tf_forward: (B, U, Vt), row (b, i) predicting
// tgt_out[b][i]. Valid until the next call on w.
const float *tf_logits(const tf_work_t *w);

// Greedy decoding with a key/value cache (chapter 6): the encoder runs once;
// then one token per step goes through the decoder, each self-attention
// keeping the keys and values of the tokens before it, and each
// cross-attention the keys and values of the encoder output, projected once.
// out (B, u_max) token ids, each row ending at its first EOS and padded with
// S2S_PAD after it; decoding stops once every row has said EOS.
// logits (B, u_max, Vt) or NULL receives each step's logits (0 after EOS);
// cross (B, n_dec, h, u_max, T) or NULL the cross-attention weights.
// Returns 0; -1 if the batch exceeds the config or a source id is out of range.
int tf_greedy(const tf_params_t *p, const tf_config_t *c, const int *src,
              const unsigned char *src_mask, int b, int t_len, int *out, float *logits,
              float *cross, tf_work_t *w);

// One model for train/trainer.h: its configuration, its views into the
// trainer's parameter (w) and gradient (g) buffers, and its workspace.
typedef struct {
    tf_config_t cfg;
    tf_params_t p, g;
    tf_work_t *work;
} tf_model_t;

// trainer_model_t's forward and backward for a tf_model_t (batch: an
// s2s_batch_t).
double tf_model_forward(void *model, const void *batch, int *count);
int tf_model_backward(void *model, const void *batch, float scale);

#endif
