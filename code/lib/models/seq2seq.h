// seq2seq.h -- an encoder-decoder translation model, with or without attention.
//
//   encoder: embedding, bidirectional GRU -> annotations h_t = [fwd_t; bwd_t]
//   start:   s_0 = tanh([fwd_last; bwd_first] W_init + b_init)
//   step i:  c_i = attention(s_{i-1}, h)       (attention model)
//            c_i = [fwd_last; bwd_first]       (baseline: one fixed vector)
//            s_i = GRU([emb(y_{i-1}); c_i], s_{i-1})
//            p(y_i) = softmax([s_i; c_i] W_out + b_out)
// (Bahdanau, Cho and Bengio, 2014; the baseline is Cho et al., 2014's decoder,
// which also sees one fixed summary of the source at every step.)
//
// B = batch, T = source length, U = target length, E = embedding width,
// H = GRU width, A = attention width, V = vocabulary sizes (Vs source, Vt target).
// Token id 0 is padding in both vocabularies; masks are (B, T), 1 = visible.
#ifndef SEQ2SEQ_H
#define SEQ2SEQ_H

#include "base/rng.h"
#include "layers/gru.h"
#include "data/pairs.h"

typedef struct {
    int v_src, v_tgt, e, h, a;
    int attention;            // 1: additive attention; 0: the fixed-context baseline
    int b_max, t_max, u_max;  // the largest batch and lengths the workspace holds
} s2s_config_t;

// Views into one flat buffer of parameters (or of their gradients).
typedef struct {
    float *emb_src, *emb_tgt;     // (Vs, E), (Vt, E)
    gru_params_t enc_f, enc_b;    // input E, hidden H
    float *w_init, *b_init;       // (2H, H), (H,)
    float *w_a, *u_a, *v_a;       // (H, A), (2H, A), (A,); NULL without attention
    gru_params_t dec;             // input E + 2H, hidden H
    float *w_out, *b_out;         // (3H, Vt), (Vt,)
} s2s_params_t;

// 0 if c describes a model this module can build; -1 otherwise (a size
// below 1; A below 1 with attention).
int s2s_config_check(const s2s_config_t *c);

// Floats in the flat buffer for this configuration; -1 if the config is bad.
long s2s_param_count(const s2s_config_t *c);

// Point p's fields into buf (s2s_param_count floats). A bad config binds
// nothing (p zeroed); s2s_init then does nothing either.
void s2s_bind(s2s_params_t *p, float *buf, const s2s_config_t *c);

// Initialise buf: embeddings N(0, 1), every other weight U(-k, k) with
// k = 1 / sqrt(H) (PyTorch's GRU default), biases too.
void s2s_init(float *buf, const s2s_config_t *c, rng_t *rng);

typedef struct s2s_work s2s_work_t;   // activations and scratch, opaque

// Allocate the workspace for c's largest batch. NULL if memory ran out or
// the config is bad.
s2s_work_t *s2s_work_new(const s2s_config_t *c);
void s2s_work_free(s2s_work_t *w);

// Teacher-forced forward pass: returns the summed cross-entropy over the
// non-padding targets and sets *count to their number; keeps what backward
// needs in w. Returns -1 (and *count = 0) if the batch exceeds the config.
double s2s_forward(const s2s_params_t *p, const s2s_config_t *c, const s2s_batch_t *bt,
                   s2s_work_t *w, int *count);

// Gradient of scale * (the summed loss of the last s2s_forward on bt),
// accumulated into g (a view of a gradient buffer: zero it first).
void s2s_backward(const s2s_params_t *p, s2s_params_t *g, const s2s_config_t *c,
                  const s2s_batch_t *bt, s2s_work_t *w, float scale);

// Greedy decoding of a batch: out (B, u_max) token ids, each row ending at its
// first EOS and padded with S2S_PAD after it (a row that never says EOS fills
// all u_max); decoding stops once every row has said EOS.
// alpha (B, u_max, T) or NULL receives the attention weights of
// each output step (zeros for the baseline and after EOS).
// Returns 0; -1 if the batch exceeds the config.
int s2s_greedy(const s2s_params_t *p, const s2s_config_t *c, const int *src,
               const unsigned char *src_mask, int b, int t_len, int *out,
               float *alpha, s2s_work_t *w);

// Beam search decoding (data/beam.h) of n sentences at once: src (n, t_len),
// src_mask (n, t_len) -> out (n, u_max) each sentence's best hypothesis, ending
// at its EOS if it finished and padded with S2S_PAD; score (n,) its total log
// probability under the model. The decoder runs on n beam rows (n beam <= b_max),
// a sentence's hypotheses side by side. beam = 1 is greedy decoding: the same
// tokens as s2s_greedy. Returns 0; -1 (nothing written) if n < 1, beam < 1,
// n beam or t_len exceeds the config, or memory ran out.
int s2s_beam(const s2s_params_t *p, const s2s_config_t *c, const int *src,
             const unsigned char *src_mask, int n, int t_len, int beam, int *out,
             double *score, s2s_work_t *w);

// One model for train/trainer.h: its configuration, its views into the
// trainer's parameter (w) and gradient (g) buffers, and its workspace.
typedef struct {
    s2s_config_t cfg;
    s2s_params_t p, g;
    s2s_work_t *work;
} s2s_model_t;

// trainer_model_t's forward and backward for an s2s_model_t (batch: an
// s2s_batch_t). backward returns 0.
double s2s_model_forward(void *model, const void *batch, int *count);
int s2s_model_backward(void *model, const void *batch, float scale);

#endif
