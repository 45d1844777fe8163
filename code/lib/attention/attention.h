// attention.h -- scaled dot-product attention, softmax(Q K^T / sqrt(d_k)) V.
//
// Edges: n = 0 writes nothing; m = 0 (no keys) gives empty weight rows and
// zero output rows; d_k = 0 gives scores 0 (so uniform weights), not NaN;
// d_v = 0 writes no output. Negative sizes count as 0.
#ifndef ATTENTION_H
#define ATTENTION_H

// q (n, d_k), k (m, d_k) -> scores (n, m) = q k^T / sqrt(d_k)
void attention_scores(const float *q, const float *k, float *scores,
                      int n, int m, int d_k);

// weights (n, m), v (m, d_v) -> out (n, d_v) = weights v
void attention_combine(const float *weights, const float *v, float *out,
                       int n, int m, int d_v);

// q (n, d_k), k (m, d_k), v (m, d_v), mask (n, m) or NULL
//   -> out (n, d_v), weights (n, m)
// mask: 1 = query i may look at key j, 0 = hidden. A fully hidden row gives
// zero weights and a zero output row.
// (torch: (q @ k.T / d_k ** 0.5).masked_fill(mask == 0, -inf).softmax(-1) @ v,
//  except that torch gives NaN rows where we give 0; torch 2.0 and later have
//  this as F.scaled_dot_product_attention(q, k, v, attn_mask=mask.bool()))
void attention_forward(const float *q, const float *k, const float *v,
                       const unsigned char *mask, float *out, float *weights,
                       int n, int m, int d_k, int d_v);

// ---------------------------------------------------------------------------
// backward (chapter 9 trains with it)

// What attention_forward saw and made, as its backward pass needs them.
typedef struct {
    const float *q, *k, *v;   // (n, d_k), (m, d_k), (m, d_v)
    const float *weights;     // (n, m)
} attn_saved_t;

// Gradients of attention_forward, given what it saw and made (fw: q, k, v,
// weights) and dout (n, d_v) = dLoss/dout. They accumulate (+=); zero them first:
//   dq (n, d_k), dk (m, d_k), dv (m, d_v).
// scratch: n * m floats. Hidden entries have weight 0 and get no gradient; a
// fully hidden row (all weights 0) gives none either. Any size below 1: no
// rows, keys or columns, so nothing is accumulated for them.
// (torch: autograd through (q @ k.T / sqrt(d_k)).softmax(-1) @ v)
void attention_backward(const attn_saved_t *fw, const float *dout, float *dq, float *dk,
                        float *dv, int n, int m, int d_k, int d_v, float *scratch);

#endif
