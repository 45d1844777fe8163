// metrics.c -- token accuracy and exact match of argmax predictions.
#include "train/metrics.h"

#include <stddef.h>

double metrics_token_accuracy(const float *logits, const int *targets, int n, int v,
                              int ignore, int *count) {
    *count = 0;
    if (n < 1 || v < 1) return 0.0;
    long right = 0;
    // BEGIN SOLUTION
    for (int i = 0; i < n; i++) {
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        const float *z = logits + (size_t)i * v;
        int top = 0;
        for (int j = 1; j < v; j++)
            if (z[j] > z[top]) top = j;
        right += top == y;
        (*count)++;
    }
    // END SOLUTION
    return *count ? (double)right / *count : 0.0;
}

double metrics_exact_match(const float *logits, const int *targets, int b, int t, int v,
                           int ignore, int *count) {
    *count = 0;
    if (b < 1 || t < 1 || v < 1) return 0.0;
    long exact = 0;
    // BEGIN SOLUTION
    // a sequence is exact when its token accuracy is 1 (right == counted:
    // the quotient of two equal integers, exactly 1.0)
    for (int s = 0; s < b; s++) {
        int counted;
        const float *z = logits + (size_t)s * t * v;
        double acc = metrics_token_accuracy(z, targets + (size_t)s * t, t, v, ignore,
                                            &counted);
        if (!counted) continue;
        exact += acc >= 1.0;
        (*count)++;
    }
    // END SOLUTION
    return *count ? (double)exact / *count : 0.0;
}
