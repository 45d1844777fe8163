// optim.c -- Adam and gradient clipping.
#include "train/optim.h"

#include <math.h>

// snippet: optim_adam_step
void optim_adam_step(optim_adam_t *o, float *w, const float *g) {
    o->step++;
    double c1 = 1.0 - pow(o->beta1, (double)o->step);    // bias corrections
    double c2 = 1.0 - pow(o->beta2, (double)o->step);
    float a = (float)(o->lr / c1), s2 = (float)(1.0 / sqrt(c2));
    if (o->weight_decay != 0.0f) {   // AdamW: decay decoupled from the gradient
        float keep = 1.0f - o->lr * o->weight_decay;
        for (size_t i = 0; i < o->n; i++)
            if (!o->decay || o->decay[i]) w[i] *= keep;
    }
    for (size_t i = 0; i < o->n; i++) {
        o->m[i] = o->beta1 * o->m[i] + (1.0f - o->beta1) * g[i];
        o->v[i] = o->beta2 * o->v[i] + (1.0f - o->beta2) * g[i] * g[i];
        w[i] -= a * o->m[i] / (sqrtf(o->v[i]) * s2 + o->eps);
    }
}
// end snippet

// snippet: optim_clip_norm
double optim_clip_norm(float *g, size_t n, double max_norm) {
    double ss = 0.0;
    for (size_t i = 0; i < n; i++) ss += (double)g[i] * g[i];
    double norm = sqrt(ss);
    if (max_norm > 0 && norm > max_norm) {
        float scale = (float)(max_norm / (norm + 1e-6));
        for (size_t i = 0; i < n; i++) g[i] *= scale;
    }
    return norm;
}
// end snippet
