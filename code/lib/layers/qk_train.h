// qk_train.h -- training the query and key projections of one attention layer
// so that its weights match a pattern we know: the smallest complete training
// loop in the book (chapter 3), built from linear_backward and softmax_backward.
//
// Names used for sizes in this file:
//   n = tokens in the sequence, d = width of a token vector x_i (d_model),
//   k = width of a query or key (d_k).
//
// Forward, for a sequence x (n, d) and target positions t (n,):
//   q = x w_q (n, k)     kk = x w_k (n, k)     s = q kk^T / sqrt(k) (n, n)
//   a = softmax of every row of s (n, n)
//   loss = -(1/N) sum over rows i with t_i >= 0 of log a[i][t_i]
// where N is the number of such rows: the cross-entropy between each row's
// attention and the one key it should attend to. t_i = -1 leaves row i out.
// A target weight a[i][t_i] that underflows to 0 is taken as FLT_MIN, so the
// loss stays finite (about 87 per such row) and so do the gradients.
#ifndef QK_TRAIN_H
#define QK_TRAIN_H

// x (n, d), w_q (d, k), w_k (d, k), t (n,) -> q (n, k), kk (n, k), a (n, n),
// returns the loss. Entries of t must be -1 or in 0..n-1. With no row to score
// (every t_i = -1), or n, d or k < 1, returns 0 and computes nothing.
// (torch: F.cross_entropy(s, t, ignore_index=-1) with s = (x@w_q)@(x@w_k).T/sqrt(k))
double qk_forward(const float *x, const float *w_q, const float *w_k, const int *t,
                  int n, int d, int k, float *q, float *kk, float *a);

// What qk_forward made, as its backward pass needs it.
typedef struct {
    const float *q, *kk;   // (n, k) each
    const float *a;        // (n, n)
} qk_saved_t;

// Gradients of qk_forward's loss, accumulated: dw_q (d, k) += dloss/dw_q,
// dw_k (d, k) += dloss/dw_k. Needs what qk_forward made (fw: q, kk, a) and
// scratch of n * n + 2 * n * k floats. Nothing is done in the cases qk_forward skips.
// (torch: loss.backward() on the expression above)
void qk_backward(const float *x, const int *t, const qk_saved_t *fw, int n, int d,
                 int k, float *dw_q, float *dw_k, float *scratch);

#endif
