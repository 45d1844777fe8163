// xent.h -- softmax cross-entropy over the vocabulary, padding ignored.
//
// N = rows (batch x target steps), V = vocabulary size.
#ifndef XENT_H
#define XENT_H

// logits (N, V), targets (N,) -> probs (N, V) = softmax of each row; returns
// the summed loss -sum log probs[i][targets[i]] over the rows whose target is
// not ignore (use -1 to ignore nothing), and *count = the number of such rows.
// Targets outside 0..V-1 (other than ignore) count as ignored. N or V below 1: 0.
// (torch: F.cross_entropy(logits, targets, ignore_index=ignore, reduction='sum'))
double xent_forward(const float *logits, const int *targets, float *probs, int n, int v,
                    int ignore, int *count);

// One row: probs (V,) = softmax of logits (V,), the sum of the exponentials
// exp(z_j - max) in double returned, and *mx = the row's max. V below 1:
// returns 0, *mx = 0, nothing written. xent_forward and smooth.h share it.
double xent_softmax_row(const float *z, float *p, int v, float *mx);

// Gradient of scale * (summed loss): dlogits (N, V) += scale * (probs - onehot)
// on counted rows; ignored rows get nothing. With scale = 1 / count this is
// the gradient of the mean (torch's reduction='mean').
void xent_backward(const float *probs, const int *targets, float *dlogits, int n, int v,
                   int ignore, float scale);

#endif
