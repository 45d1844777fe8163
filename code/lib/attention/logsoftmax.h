// logsoftmax.h -- the logarithm of the softmax, and its backward pass.
//
// log softmax(x)_i = x_i - log sum_j exp(x_j) = x_i - M - log sum_j exp(x_j - M)
// for any M; M = max(x) keeps every exp() at most 1. Taking log(softmax(x))
// instead loses the entries whose probability underflows to 0 (log 0 = -inf),
// which is why losses are computed from log-probabilities.
#ifndef LOGSOFTMAX_H
#define LOGSOFTMAX_H

// x (n,) -> log softmax(x), in place; finite for any finite x (no overflow for
// huge logits, no -inf for very negative ones). n = 0 (or below): nothing.
// (torch: x.log_softmax(dim=-1))
void logsoftmax(float *x, int n);

// y (n,) = log softmax(x), dy (n,) = dL/dy -> dx (n,) = dL/dx (written, not added):
// dx_i = dy_i - softmax(x)_i sum_j dy_j, with softmax(x)_i = exp(y_i).
// dx may alias dy. n = 0 (or below): nothing. (torch: autograd of log_softmax)
void logsoftmax_backward(const float *y, const float *dy, float *dx, int n);

#endif
