// geglu.h -- the GELU-gated unit, SwiGLU's sibling (Shazeer 2020, "GLU variants
// improve Transformer": GEGLU), elementwise on the two hidden halves:
//     h = GELU(a) * b,   GELU(a) = a/2 (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))
// (the tanh form of GPT-2 and BERT; a = x W_1, b = x W_3 as in swiglu.h).
// count = N F entries of a, b and h.
#ifndef GEGLU_H
#define GEGLU_H

// The tanh form of GELU above, in double. (torch: F.gelu(x, approximate='tanh'))
double geglu_gelu(double a);

// a (count,), b (count,) -> h (count,) = GELU(a) * b. count <= 0: nothing.
// h may be a or b. (torch: F.gelu(a, approximate='tanh') * b)
void geglu_forward(const float *a, const float *b, float *h, long count);

// Gradients of geglu_forward given dh (count,): accumulates (+=) da (count,)
// and db (count,). Derive dGELU/da from the tanh form; sums in double.
// count <= 0: nothing. (torch: autograd of geglu_forward)
void geglu_backward(const float *a, const float *b, const float *dh, float *da,
                    float *db, long count);

#endif
