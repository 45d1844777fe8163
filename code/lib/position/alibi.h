// alibi.h -- attention with linear biases (ALiBi, Press et al. 2022).
//
// No position vectors at all: each head h adds -m_h (i - j) to the score of
// query i on key j <= i (causal language model), a penalty that grows
// linearly with the distance. The slopes m_h are fixed, not learned: for H
// heads, the geometric sequence m_h = 2^(-8h / H), h = 1..H (for H = 8:
// 1/2, 1/4, ..., 1/256).
#ifndef ALIBI_H
#define ALIBI_H

// slopes (heads,) <- m_h = 2^(-8 h / heads), h = 1 .. heads.
// Returns 0; -1 (nothing written) if heads < 1.
// (Press et al.'s code gives the same for a power of 2; for other head
// counts it mixes two power-of-2 sequences instead.)
int alibi_slopes(float *slopes, int heads);

// -> bias (n, n): bias[i][j] = -slope (i - j) for j <= i, 0 for j > i
// (those keys are in the future: a causal mask hides them).
// n == 0 writes nothing.
// (torch: -slope * (i - j).clamp(min=0) with i, j from torch.arange(n))
void alibi_bias(float *bias, int n, float slope);

// q (n, d_k), k (n, d_k), v (n, d_v) -> out (n, d_v), weights (n, n):
// causal attention with one head's bias,
//   weights = softmax(q k^T / sqrt(d_k) + bias, keys j <= i only)
// (the bias is not divided by sqrt(d_k)); weights above the diagonal are 0.
// Needs d_k >= 1. n == 0 writes nothing. Returns 0; -1 (outputs not written)
// if a size is negative or memory for the mask ran out.
// (torch: s = q @ k.T / sqrt(d_k) + bias; s.masked_fill(j > i, -inf)
//  .softmax(-1) @ v)
int alibi_attention(const float *q, const float *k, const float *v, float slope,
                    float *out, float *weights, int n, int d_k, int d_v);

// -> bias (n, n): bias[i][j] = -slope |i - j|, the bidirectional ALiBi of an
// encoder (every key visible; the penalty grows with the distance either way).
// n <= 0 writes nothing.
// (torch: -slope * (i - j).abs() with i, j from torch.arange(n))
void alibi_bias_symmetric(float *bias, int n, float slope);

// slopes (heads,) <- the slopes of Press et al.'s code for any number of heads:
// with p the largest power of 2 <= heads, the first p are alibi_slopes for p
// heads, 2^(-8 h / p), h = 1 .. p; the other heads - p are every other slope of
// the 2p-head sequence starting with its first, 2^(-8 (2 h - 1) / (2 p)),
// h = 1 .. heads - p (slopes p never used, halfway between the first ones). A
// power of 2 gives alibi_slopes exactly. Returns 0; -1 (nothing written) if
// heads < 1.
// (torch: get_slopes(heads) in github.com/ofirpress/attention_with_linear_biases)
int alibi_slopes_mixed(float *slopes, int heads);

#endif
