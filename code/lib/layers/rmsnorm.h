// rmsnorm.h -- root-mean-square layer normalisation (Zhang and Sennrich 2019),
// the norm of LLaMA-style blocks: no mean subtracted, no shift, one learned
// scale per feature:
//     y = x / sqrt(mean(x^2) + eps) * w
// N rows (tokens, B x T), C features.
#ifndef RMSNORM_H
#define RMSNORM_H

#define RMSNORM_EPS 1e-5f

// x (N, C), w (C,) -> out (N, C) = x * rstd * w, and rstd (N,) =
// 1 / sqrt(mean(x^2) + eps) per row, kept for the backward pass. out may be
// x. N or C <= 0: nothing written. Returns 0; -1 (nothing written) if eps < 0,
// inf or NaN. (torch 1.13 has no RMSNorm: x * torch.rsqrt(x.pow(2).mean(-1,
// keepdim=True) + eps) * w; torch >= 2.4: nn.RMSNorm)
int rmsnorm_forward(float *out, float *rstd, const float *x, const float *w, int N,
                    int C, float eps);

// Gradients of rmsnorm_forward from dout (N, C), its input x (N, C), w (C,)
// and the rstd (N,) it kept. Accumulates (+=) into dx (N, C) and dw (C,);
// dx may be NULL. dx must not overlap x or dout. N or C <= 0: nothing. Sums
// over rows and features run in double.
void rmsnorm_backward(float *dx, float *dw, const float *dout, const float *x,
                      const float *w, const float *rstd, int N, int C);

#endif
