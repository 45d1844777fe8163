// fmath.c -- tanh for the training loops (see fmath.h).
#include "base/fmath.h"

#include <math.h>

float tanh_fast(float x) {
    float a = fabsf(x);
    if (a < 0x1p-12f) return x;         // x^3/3 is under half a unit of x: keeps -0
    if (a < 0.125f) {                   // x - x^3/3 + 2x^5/15 - 17x^7/315 + 62x^9/2835
        float x2 = x * x;
        float p = 62.0f / 2835.0f;
        p = p * x2 - 17.0f / 315.0f;
        p = p * x2 + 2.0f / 15.0f;
        p = p * x2 - 1.0f / 3.0f;
        return x + x * x2 * p;
    }
    float t = expf(-2.0f * a);          // in (0, 0.78]: no cancellation below
    return copysignf((1.0f - t) / (1.0f + t), x);
}
