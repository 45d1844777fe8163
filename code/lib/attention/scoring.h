// scoring.h -- how well does a query match a key? Four answers side by side.
//
// A scoring function f(q, k) turns a query vector and a key vector into one
// number, the score. Softmax over the scores of all keys gives the attention
// weights (soft attention); putting all weight on the best key gives hard
// attention.
//
// Edges: a width of 0 (or below) gives the score 0 (the dot product of empty
// vectors), never NaN; score_hard with m = 0 writes nothing.
#ifndef SCORING_H
#define SCORING_H

// q (d,), k (d,) -> q . k                          (torch: q @ k)
float score_dot(const float *q, const float *k, int d);

// q (d,), k (d,) -> q . k / sqrt(d)                (torch: q @ k / d ** 0.5)
float score_scaled_dot(const float *q, const float *k, int d);

// q (d,), k (d,) -> q . k / (|q| |k|), in [-1, 1]; 0 if q or k is all zeros.
// (torch: F.cosine_similarity(q, k, dim=0))
float score_cosine(const float *q, const float *k, int d);

// The additive (MLP) score of Bahdanau et al.: v^T tanh(W_q q + W_k k).
// Query and key may have different sizes; d_h is the hidden size.
typedef struct {
    const float *w_q;   // (d_h, d_q)
    const float *w_k;   // (d_h, d_k)
    const float *v;     // (d_h,)
    int d_q, d_k, d_h;
} additive_params_t;

// q (d_q,), k (d_k,) -> v^T tanh(W_q q + W_k k)
// (torch: v @ torch.tanh(W_q @ q + W_k @ k))
float score_additive(const additive_params_t *p, const float *q, const float *k);

// scores (m,) -> weights (m,): 1 at the first largest score, 0 elsewhere.
// (torch: F.one_hot(scores.argmax(), m))
void score_hard(const float *scores, float *weights, int m);

#endif
