// linear.h -- the linear (fully connected) layer y = x W + b.
//
// Every learned projection in the book is one of these: W_Q, W_K, W_V in
// chapter 3, the per-head and output projections in chapter 4, the
// feed-forward layers of a Transformer block. W is stored (d_in, d_out), so a
// row of x times W is a row of y; PyTorch's nn.Linear stores the transpose.
//
// Edges: a size of 0 (or below) writes nothing, except that d_in = 0 makes
// y = b (a sum of nothing, plus the bias) and the init functions draw nothing.
#ifndef LINEAR_H
#define LINEAR_H

#include "base/rng.h"

// x (n, d_in), w (d_in, d_out), b (d_out,) or NULL -> y (n, d_out) = x w + b
// (torch: y = x @ w + b, i.e. F.linear(x, w.T, b))
void linear_forward(const float *x, const float *w, const float *b, float *y,
                    int n, int d_in, int d_out);

// Gradients of linear_forward, given dy (n, d_out) = dLoss/dy.
// They accumulate (+=) so one weight can be used several times; zero them
// first. Any of dx, dw, db may be NULL to skip it.
//   dx (n, d_in)     += dy w^T
//   dw (d_in, d_out) += x^T dy
//   db (d_out,)      += sum over rows of dy
void linear_backward(const float *x, const float *w, const float *dy,
                     float *dx, float *dw, float *db, int n, int d_in, int d_out);

// w (d_in, d_out) <- independent U(-bound, bound) samples.
void linear_init_uniform(rng_t *rng, float *w, int d_in, int d_out, float bound);

// w (d_in, d_out) <- independent N(0, std^2) samples.
void linear_init_normal(rng_t *rng, float *w, int d_in, int d_out, float std);

// w (d_in, d_out) <- Xavier / Glorot uniform: U(-a, a), a = sqrt(6 / (d_in + d_out)),
// so Var(w) = 2 / (d_in + d_out) and activations keep roughly unit variance.
// (torch: nn.init.xavier_uniform_)
void linear_init_xavier(rng_t *rng, float *w, int d_in, int d_out);

#endif
