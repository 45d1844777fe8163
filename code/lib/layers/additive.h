// additive.h -- additive (Bahdanau) attention for one decoder step, batched.
//
//     e_bt     = v . tanh(s_b W_a + k_tb),   k_tb = h_tb U_a   (keys, once per batch)
//     alpha_b  = softmax over the visible t of e_bt
//     c_b      = sum_t alpha_bt h_tb                           (the context)
// (Bahdanau, Cho and Bengio, 2014; W_a s_{i-1} + U_a h_j in their notation.)
//
// B = batch, T = source length, S = query (decoder state) width,
// K = annotation width (2H for a bidirectional encoder), A = attention width.
// Annotations are time-major: ann (T, B, K), keys (T, B, A); mask (B, T),
// 1 = visible. A row with no visible position gets alpha = 0 and c = 0.
// Any size below 1: nothing is read or written.
#ifndef ADDITIVE_H
#define ADDITIVE_H

// ann (T, B, K), u_a (K, A) -> keys (T, B, A) = ann U_a (overwritten).
void addattn_keys_forward(const float *ann, const float *u_a, float *keys, int t_len,
                          int b, int k, int a);

// Gradients of addattn_keys_forward given dkeys: dann += dkeys U_a^T,
// du_a += ann^T dkeys.
void addattn_keys_backward(const float *ann, const float *u_a, const float *dkeys,
                           float *dann, float *du_a, int t_len, int b, int k, int a);

// The sizes of one call, by the legend's letters: T (t_len), B (b), S (sd),
// K (k), A (a).
typedef struct {
    int t_len, b, sd, k, a;
} addattn_dims_t;

// What addattn_forward writes and addattn_backward reads: alpha (B, T), the
// context c (B, K), th (T, B, A) = the tanh values.
typedef struct {
    float *alpha, *c, *th;
} addattn_out_t;

// The gradients addattn_backward accumulates into: ds (B, S), dw_a (S, A),
// dv (A,), dkeys (T, B, A), dann (T, B, K).
typedef struct {
    float *ds, *dw_a, *dv, *dkeys, *dann;
} addattn_grads_t;

// s (B, S), w_a (S, A), v (A,), keys (T, B, A), ann (T, B, K), mask (B, T) or NULL
//   -> o: alpha, c, th. wq: B * A floats of scratch.
void addattn_forward(const addattn_dims_t *d, const float *s, const float *w_a,
                     const float *v, const float *keys, const float *ann,
                     const unsigned char *mask, const addattn_out_t *o, float *wq);

// Gradients given dc (B, K) and what the forward wrote (fw: alpha, th): they
// accumulate (+=) into g. work: B * (T + A) floats.
void addattn_backward(const addattn_dims_t *d, const float *s, const float *w_a,
                      const float *v, const float *ann, const addattn_out_t *fw,
                      const float *dc, addattn_grads_t *g, float *work);

#endif
