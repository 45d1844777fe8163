// dropout.c -- inverted dropout with an explicit random number generator.
#include "attention/dropout.h"

// snippet: dropout_forward
int dropout_forward(const float *x, float *y, unsigned char *keep, int n, float p,
                    rng_t *rng) {
    if (!(p >= 0.0f && p <= 1.0f)) return -1;         // also refuses NaN
    // Survivors are scaled by 1 / (1 - p) to make up for the dropped entries.
    float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    for (int i = 0; i < n; i++) {
        int kept = rng_uniform(rng) >= p;              // P(kept) = 1 - p
        if (keep) keep[i] = (unsigned char)kept;
        y[i] = kept ? x[i] * scale : 0.0f;
    }
    return 0;
}
// end snippet

int dropout_backward(const float *dy, const unsigned char *keep, float *dx, int n,
                     float p) {
    if (!(p >= 0.0f && p <= 1.0f)) return -1;
    float scale = p < 1.0f ? 1.0f / (1.0f - p) : 0.0f;
    for (int i = 0; i < n; i++) dx[i] = keep[i] ? dy[i] * scale : 0.0f;
    return 0;
}
