// geglu.c -- GELU-gated unit: forward and backward, elementwise.
#include "layers/geglu.h"

#include <math.h>

static const double SQRT_2_OVER_PI = 0.79788456080286535588;   // sqrt(2 / pi)
static const double GELU_C = 0.044715;

double geglu_gelu(double a) {
    return 0.5 * a * (1.0 + tanh(SQRT_2_OVER_PI * (a + GELU_C * a * a * a)));
}

void geglu_forward(const float *a, const float *b, float *h, long count) {
    for (long i = 0; i < count; i++) {
        double out = 0.0;
        // BEGIN SOLUTION
        out = geglu_gelu(a[i]) * b[i];
        // END SOLUTION
        h[i] = (float)out;
    }
}

void geglu_backward(const float *a, const float *b, const float *dh, float *da,
                    float *db, long count) {
    for (long i = 0; i < count; i++) {
        double x = a[i], g = dh[i];
        // BEGIN SOLUTION
        // Inverts: h = GELU(a) b. With u = sqrt(2/pi) (a + c a^3), t = tanh(u):
        // GELU(a) = a (1 + t) / 2 and dGELU/da = (1 + t) / 2 + a (1 - t^2) u' / 2,
        // u' = sqrt(2/pi) (1 + 3 c a^2).
        double t = tanh(SQRT_2_OVER_PI * (x + GELU_C * x * x * x));
        double du = SQRT_2_OVER_PI * (1.0 + 3.0 * GELU_C * x * x);
        double dgelu = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du;
        da[i] += (float)(g * b[i] * dgelu);
        db[i] += (float)(g * 0.5 * x * (1.0 + t));
        // END SOLUTION
    }
}
