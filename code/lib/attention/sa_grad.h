// sa_grad.h -- the backward pass of chapter 3's self-attention, piece by piece.
//
// Forward (no biases): Q = X W_Q, K = X W_K, V = X W_V, S = Q K^T / sqrt(d_k),
// A = softmax of each row of S over its visible keys, out = A V. Given
// dout = dL/dout, the chain rule runs backwards through each product:
//     dV = A^T dout,   dA = dout V^T,   dS = A * (dA - rowsum(A * dA)),
//     dW_V = X^T dV,   dQ = dS K / sqrt(d_k),   dW_Q = X^T dQ.
#ifndef SA_GRAD_H
#define SA_GRAD_H

// The inputs of one self-attention layer: x (n, d_model), w_q and w_k
// (d_model, d_k), w_v (d_model, d_v); causal = 1: query i sees keys j <= i.
typedef struct {
    int n, d_model, d_k, d_v, causal;
    const float *x, *w_q, *w_k, *w_v;
} sagrad_in_t;

// a (n, m) attention weights, dout (n, d_v) -> dv (m, d_v) += a^T dout.
// Any size below 1: nothing. (torch: the grad of a @ v with respect to v)
void sagrad_values(const float *a, const float *dout, float *dv, int n, int m,
                   int d_v);

// a (n, m) weights, v (m, d_v), dout (n, d_v) -> ds (n, m) = dL/dS (written) for
// the raw products S = Q K^T before the factor `scale`: with dA = dout v^T,
// ds = scale * a * (dA - rowsum(a * dA)). A hidden key (a = 0) gets 0.
// Any size below 1: nothing. (torch: the grad of ((s * scale).softmax(-1) @ v))
void sagrad_scores(const float *a, const float *v, const float *dout, float *ds,
                   int n, int m, int d_v, float scale);

// x (n, d_model), a (n, n) weights, dout (n, d_v) -> dwv (d_model, d_v) +=
// x^T (a^T dout). Any size below 1: nothing.
// (torch: the grad of a @ (x @ w_v) with respect to w_v)
void sagrad_wv(const float *x, const float *a, const float *dout, float *dwv, int n,
               int d_model, int d_v);

// The whole layer's gradient with respect to W_Q: in (the layer), dout (n, d_v)
// -> dwq (d_model, d_k) += X^T (dS K) / sqrt(d_k), recomputing the forward pass.
// Allocates a workspace of about n (n + d_k + d_v) floats. Returns 0 (a size
// below 1: nothing), -1 if the workspace cannot be allocated (dwq untouched).
// (torch: autograd of the forward above with respect to w_q)
int sagrad_wq(const sagrad_in_t *in, const float *dout, float *dwq);

#endif
