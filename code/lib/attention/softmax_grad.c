// softmax_grad.c -- gradients with respect to the temperature and of the entropy.
#include "attention/softmax_grad.h"

#include <math.h>

double smgrad_temperature(const float *x, const float *dp, int n, float t) {
    if (!(t > 0.0f) || isinf(t)) return NAN;
    if (n < 1) return 0.0;
    double dt = 0.0;
    // BEGIN SOLUTION
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0, pdp = 0.0;
    for (int i = 0; i < n; i++) sum += exp((x[i] - max) / t);
    for (int i = 0; i < n; i++) pdp += exp((x[i] - max) / t) / sum * dp[i];
    for (int i = 0; i < n; i++) {
        double p = exp((x[i] - max) / t) / sum;
        dt += p * (dp[i] - pdp) * (-(double)x[i] / ((double)t * t));
    }
    // END SOLUTION
    return dt;
}

double smgrad_entropy(const float *x, float *dx, int n) {
    if (n < 1) return 0.0;
    double h = 0.0;
    // BEGIN SOLUTION
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp(x[i] - max);
    double lse = max + log(sum);
    for (int i = 0; i < n; i++) h -= exp(x[i] - lse) * (x[i] - lse);
    for (int i = 0; i < n; i++) dx[i] = (float)(-exp(x[i] - lse) * (x[i] - lse + h));
    // END SOLUTION
    return h;
}
