// smooth.c -- label-smoothed cross-entropy and its gradient.
#include "train/smooth.h"
#include "train/xent.h"

#include <math.h>
#include <stddef.h>

double smooth_xent_forward(const float *logits, const int *targets, float *probs, int n,
                           int v, int ignore, float eps, int *count) {
    *count = 0;
    if (!(eps >= 0.0f && eps <= 1.0f)) return NAN;
    double loss = 0.0;
    for (int i = 0; i < n && v > 0; i++) {
        const float *z = logits + (size_t)i * v;
        float *p = probs + (size_t)i * v, mx;   // p: this row's probabilities
        double sum = xent_softmax_row(z, p, v, &mx);
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        double row = 0.0;                        // -sum_j q_j log softmax(z)_j
        // BEGIN SOLUTION
        double lse = mx + log(sum), all = 0.0;   // log softmax(z)_j = z_j - lse
        for (int j = 0; j < v; j++) all += z[j] - lse;
        row = -(1.0 - eps) * (z[y] - lse) - eps / v * all;
        // END SOLUTION
        loss += row;
        (*count)++;
    }
    return loss;
}

void smooth_xent_backward(const float *probs, const int *targets, float *dlogits, int n,
                          int v, int ignore, float eps, float scale) {
    if (!(eps >= 0.0f && eps <= 1.0f)) return;
    for (int i = 0; i < n; i++) {
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        const float *p = probs + (size_t)i * v;
        float *dz = dlogits + (size_t)i * v;
        // BEGIN SOLUTION
        // Inverts: loss = -sum_j q_j log softmax(z)_j  ->  dz = softmax(z) - q,
        // since sum_j q_j = 1.
        for (int j = 0; j < v; j++) {
            double q = (1.0 - eps) * (j == y) + (double)eps / v;
            dz[j] += (float)(scale * (p[j] - q));
        }
        // END SOLUTION
    }
}
