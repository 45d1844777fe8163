// dropout.h -- inverted dropout, e.g. on attention weights during training.
#ifndef DROPOUT_H
#define DROPOUT_H

#include "base/rng.h"

// x (n,) -> y (n,): every entry is dropped (set to 0) with probability p and
// kept otherwise; kept entries are scaled by 1 / (1 - p), so E[y] = x
// ("inverted" dropout: nothing needs rescaling at test time, where y = x).
// keep (n,) receives 1 = kept, 0 = dropped (may be NULL); y may alias x.
// 0 <= p <= 1; p = 1 drops everything. Draws exactly n numbers from rng.
// Returns 0; -1 (nothing written, nothing drawn) if p < 0, p > 1 or NaN.
// n = 0 (or below): nothing. (torch: F.dropout(x, p, training=True), which
// also refuses p outside [0, 1])
int dropout_forward(const float *x, float *y, unsigned char *keep, int n, float p,
                    rng_t *rng);

// dy (n,), keep (n,) from dropout_forward -> dx (n,) = dy * keep / (1 - p).
// Inverts "y[i] = kept ? x[i] * scale : 0" of dropout_forward; dx may alias dy.
// p = 1: dx = 0. Returns 0; -1 (dx untouched) for p outside [0, 1] or NaN.
int dropout_backward(const float *dy, const unsigned char *keep, float *dx, int n,
                     float p);

#endif
