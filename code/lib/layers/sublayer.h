// sublayer.h -- variations on chapter 4's encoder block: pruning a head, and the
// pre-norm sublayers (forward and backward) that most models since GPT-2 use.
//
// Chapter 4's block is post-norm: y = LayerNorm(x + Sublayer(x)). The pre-norm
// form normalises only the sublayer's input and leaves the residual path bare:
//     y = x + Sublayer(LayerNorm(x)),
// so the gradient reaches x through the identity whatever the sublayer does.
// Every layer norm here uses eps = SUBLAYER_EPS.
#ifndef SUBLAYER_H
#define SUBLAYER_H

#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"

#define SUBLAYER_EPS 1e-5f

// Remove head `head` from p: zero the rows of W_O that read its output (rows
// head d_k .. head d_k + d_k - 1), so mha_forward adds nothing from it; the other
// weights stay as they were. Returns 0; -1 (p untouched) if head is not in
// [0, n_heads). (torch: with torch.no_grad(): mha.out_proj.weight[:, block] = 0)
int sublayer_prune_head(mha_params_t *p, int head);

// x (n, d_model) -> y (n, d_model) = x + FFN(LayerNorm(x)), LayerNorm with ln's
// gamma and beta. y must not overlap x. Allocates n (d_model + d_ff) floats.
// Returns 0 (n = 0: nothing written), -1 if n < 0 or that allocation fails.
// (torch: x + ffn(F.layer_norm(x, (d,), gamma, beta, 1e-5)))
int sublayer_prenorm_ffn(const ffn_params_t *f, const layernorm_params_t *ln,
                         const float *x, float *y, int n);

// x (n, d_model), mask (n, n) or NULL -> y (n, d_model) = x + MHA(z, z, mask) with
// z = LayerNorm(x): self-attention of the normalised tokens. y must not overlap x.
// Returns 0 (n = 0: nothing written), -1 if n < 0 or an allocation fails.
// (torch: z = F.layer_norm(x, ...); x + mha(z, z, z, attn_mask=~mask)[0])
int sublayer_prenorm_attn(const mha_params_t *p, const layernorm_params_t *ln,
                          const float *x, const unsigned char *mask, float *y, int n);

// Backward of sublayer_prenorm_ffn given its input x (n, d_model) and dy (n,
// d_model): accumulates (+=) dx (n, d_model), gf's w1, b1, w2, b2 and gln's gamma
// and beta. Recomputes the forward pass in a workspace of about
// n (3 d_model + 2 d_ff) floats. Returns 0 (n = 0: nothing), -1 if n < 0 or the
// workspace cannot be allocated (nothing accumulated).
// (torch: autograd of sublayer_prenorm_ffn)
int sublayer_prenorm_ffn_backward(const ffn_params_t *f, const layernorm_params_t *ln,
                                  const float *x, const float *dy, float *dx,
                                  ffn_params_t *gf, layernorm_params_t *gln, int n);

#endif
