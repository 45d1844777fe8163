// xent.c -- softmax cross-entropy and its gradient, probs - onehot.
#include "train/xent.h"

#include <math.h>
#include <stddef.h>

#include "base/fmath.h"

double xent_softmax_row(const float *z, float *p, int v, float *mx) {
    *mx = 0.0f;
    if (v < 1) return 0.0;
    float m = z[0];
    for (int j = 1; j < v; j++) m = z[j] > m ? z[j] : m;
    double sum = 0.0;
    for (int j = 0; j < v; j++) p[j] = z[j] - m;
    expf_n(p, (size_t)v);
    for (int j = 0; j < v; j++) sum += p[j];
    for (int j = 0; j < v; j++) p[j] = (float)(p[j] / sum);
    *mx = m;
    return sum;
}

double xent_forward(const float *logits, const int *targets, float *probs, int n, int v,
                    int ignore, int *count) {
    double loss = 0.0;
    *count = 0;
    for (int i = 0; i < n && v > 0; i++) {
        const float *z = logits + (size_t)i * v;
        float mx;
        double sum = xent_softmax_row(z, probs + (size_t)i * v, v, &mx);
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        loss += -((double)(z[y] - mx) - log(sum));    // -log softmax(z)[y]
        (*count)++;
    }
    return loss;
}

// snippet: xent_backward
void xent_backward(const float *probs, const int *targets, float *dlogits, int n, int v,
                   int ignore, float scale) {
    for (int i = 0; i < n; i++) {
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        // Inverts: loss = -log softmax(z)[y]  ->  dz = softmax(z) - onehot(y)
        const float *p = probs + (size_t)i * v;
        float *dz = dlogits + (size_t)i * v;
        for (int j = 0; j < v; j++) dz[j] += scale * (p[j] - (float)(j == y));
    }
}
// end snippet
