// smooth.h -- cross-entropy with label smoothing (Szegedy et al. 2016), as the
// Transformer was trained (Vaswani et al. 2017, eps = 0.1).
//
// The target distribution of a row with target y is not the one-hot vector but
//     q_j = (1 - eps) [j == y] + eps / V,
// and the row's loss is the cross-entropy -sum_j q_j log softmax(z)_j. With
// eps = 0 it is xent_forward's loss. N = rows, V = vocabulary size; rows whose
// target is `ignore` (or outside 0..V-1) count for nothing, as in xent.h.
#ifndef SMOOTH_H
#define SMOOTH_H

// logits (N, V), targets (N,) -> probs (N, V) = softmax of every row; returns the
// summed smoothed loss over the counted rows (in double), *count = their number.
// Returns NaN (probs untouched, *count = 0) if eps is outside [0, 1] or NaN.
// N = 0 or V = 0: returns 0.
// (torch: F.cross_entropy(logits, targets, ignore_index=ignore,
//  label_smoothing=eps, reduction='sum'))
double smooth_xent_forward(const float *logits, const int *targets, float *probs, int n,
                           int v, int ignore, float eps, int *count);

// probs (N, V) from smooth_xent_forward -> dlogits (N, V) += scale times the
// gradient of the summed smoothed loss with respect to the logits, on counted
// rows (ignored rows get nothing). scale = 1 / count gives the gradient of the
// mean. eps outside [0, 1] or NaN: nothing is written.
// (torch: the .grad of the loss above times scale)
void smooth_xent_backward(const float *probs, const int *targets, float *dlogits, int n,
                          int v, int ignore, float eps, float scale);

#endif
