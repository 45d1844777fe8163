// optim.h -- Adam (Kingma and Ba, 2015) and gradient-norm clipping.
//
// P = number of parameters, all in one flat buffer with a matching gradient.
#ifndef OPTIM_H
#define OPTIM_H

#include <stddef.h>

typedef struct {
    float lr, beta1, beta2, eps;
    float weight_decay;  // AdamW's decoupled decay (0: plain Adam)
    const unsigned char *decay;   // (P,) 1 = parameter i decays, or NULL: all do
    long step;           // steps taken so far
    float *m, *v;        // (P,) first and second moment estimates, caller-owned
    size_t n;            // P
} optim_adam_t;

// One Adam step (torch.optim.Adam, weight_decay 0); with weight_decay wd != 0
// first w *= 1 - lr wd, as torch.optim.AdamW (Loshchilov and Hutter, 2019),
// for the parameters that decay (torch: a parameter group with weight_decay 0
// for the rest; norms' scales and biases usually do not decay):
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   w -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
// The caller zeroes m and v before the first step.
void optim_adam_step(optim_adam_t *o, float *w, const float *g);

// Scale g (P,) so its Euclidean norm is at most max_norm (Pascanu et al.,
// 2013); returns the norm before clipping (in double). max_norm <= 0: no
// clipping. (torch: nn.utils.clip_grad_norm_)
double optim_clip_norm(float *g, size_t n, double max_norm);

#endif
