// swiglu.h -- the gated feed-forward network of LLaMA-style blocks (Shazeer
// 2020, "GLU variants improve Transformer"), without biases:
//     FFN(x) = (SiLU(x W_1) * (x W_3)) W_2,    SiLU(a) = a sigmoid(a)
// with * elementwise: W_1 makes a gate, W_3 the values it lets through.
// N rows (tokens), C width, F hidden width.
#ifndef SWIGLU_H
#define SWIGLU_H

// snippet: swiglu_params_t
typedef struct {
    int C, F;     // token width, hidden width
    float *w1;    // (C, F) gate
    float *w3;    // (C, F) up
    float *w2;    // (F, C) down
} swiglu_params_t;
// end snippet

// Number of parameters: 3 C F.
long swiglu_param_count(const swiglu_params_t *p);

// x (N, C) -> out (N, C); act (3, N, F) keeps a = x W_1 (N, F), then
// b = x W_3 (N, F), then h = SiLU(a) * b (N, F) for the backward pass. out must
// not overlap x or act. N <= 0, or C or F < 0: nothing written.
// (torch: F.linear(F.silu(F.linear(x, W1.T)) * F.linear(x, W3.T), W2.T))
void swiglu_forward(const swiglu_params_t *p, float *out, float *act, const float *x,
                    int N);

// Scratch floats swiglu_backward needs: 2 N F (dL/da and dL/db).
long swiglu_scratch_floats(const swiglu_params_t *p, int N);

// Gradients of swiglu_forward from dout (N, C), its input x (N, C) and the act
// (N, 3F) it kept. Accumulates (+=) into g's w1, w3, w2 (shaped like p's) and
// dx (N, C), which may be NULL; dx must not overlap x or dout. scratch:
// swiglu_scratch_floats(p, N) floats. N <= 0: nothing.
void swiglu_backward(const swiglu_params_t *p, swiglu_params_t *g, float *dx,
                     const float *dout, const float *x, const float *act, int N,
                     float *scratch);

#endif
