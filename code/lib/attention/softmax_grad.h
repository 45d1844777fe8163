// softmax_grad.h -- two gradients through a softmax that chapter 2 derives the
// pieces of: with respect to the temperature, and of the entropy.
//
// p = softmax(x / t). Through the softmax, dL/dz = p * (dL/dp - <p, dL/dp>)
// (softmax_backward); z = x / t gives dz_i / dt = -x_i / t^2.
// The entropy H(p) = -sum_i p_i log p_i measures how spread a row of weights is.
#ifndef SOFTMAX_GRAD_H
#define SOFTMAX_GRAD_H

// x (n,) logits, dp (n,) = dL/dp with p = softmax(x / t) -> dL/dt.
// n = 0 (or below): 0. t <= 0, inf or NaN: NaN.
// (torch: autograd of (x / t).softmax(-1) with respect to t, given dp)
double smgrad_temperature(const float *x, const float *dp, int n, float t);

// x (n,) logits -> returns H(softmax(x)) = -sum_i p_i log p_i (natural log) and
// writes dx (n,) = dH/dx = -p * (log p + H). Finite for any finite x, also when
// some p_i underflow to 0 (their log p_i is x_i - max - log sum, not log 0).
// n = 0 (or below): returns 0, writes nothing.
// (torch: H = -(p * x.log_softmax(-1)).sum(); H.backward())
double smgrad_entropy(const float *x, float *dx, int n);

#endif
