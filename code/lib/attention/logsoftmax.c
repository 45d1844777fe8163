// logsoftmax.c -- log softmax forward and backward.
#include "attention/logsoftmax.h"

#include <math.h>

void logsoftmax(float *x, int n) {
    if (n < 1) return;
    // BEGIN SOLUTION
    float max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp((double)x[i] - max);
    double lse = max + log(sum);
    for (int i = 0; i < n; i++) x[i] = (float)(x[i] - lse);
    // END SOLUTION
}

void logsoftmax_backward(const float *y, const float *dy, float *dx, int n) {
    if (n < 1) return;
    // BEGIN SOLUTION
    double total = 0.0;
    for (int i = 0; i < n; i++) total += dy[i];
    for (int i = 0; i < n; i++) dx[i] = (float)(dy[i] - exp((double)y[i]) * total);
    // END SOLUTION
}
