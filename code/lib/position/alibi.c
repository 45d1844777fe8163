// alibi.c -- ALiBi: head slopes, bias matrices, causal attention with a bias.
#include "position/alibi.h"

#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "attention/softmax.h"

// snippet: alibi_slopes
int alibi_slopes(float *slopes, int heads) {
    if (heads < 1) return -1;
    for (int h = 1; h <= heads; h++)
        slopes[h - 1] = (float)exp2(-8.0 * h / heads);   // ratio 2^(-8/H)
    return 0;
}
// end snippet

// snippet: alibi_bias
void alibi_bias(float *bias, int n, float slope) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            bias[(long)i * n + j] = j <= i ? -slope * (float)(i - j) : 0.0f;
}
// end snippet

int alibi_attention(const float *q, const float *k, const float *v, float slope,
                    float *out, float *weights, int n, int d_k, int d_v) {
    if (n < 0 || d_k < 0 || d_v < 0) return -1;
    if (n == 0) return 0;
    unsigned char *causal = malloc((size_t)n * n);
    if (!causal) return -1;
    attention_scores(q, k, weights, n, n, d_k);          // q k^T / sqrt(d_k)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            causal[(long)i * n + j] = j <= i;
            if (j <= i) weights[(long)i * n + j] -= slope * (float)(i - j);
        }
    softmax_rows_masked(weights, causal, n, n);
    attention_combine(weights, v, out, n, n, d_v);
    free(causal);
    return 0;
}

void alibi_bias_symmetric(float *bias, int n, float slope) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float b = 0.0f;
            // BEGIN SOLUTION
            b = -slope * (float)abs(i - j);
            // END SOLUTION
            bias[(long)i * n + j] = b;
        }
}

int alibi_slopes_mixed(float *slopes, int heads) {
    if (heads < 1) return -1;
    int p = 1;
    while (p <= heads / 2) p *= 2;               // the largest power of 2 <= heads
    // BEGIN SOLUTION
    for (int h = 1; h <= p; h++) slopes[h - 1] = (float)exp2(-8.0 * h / p);
    for (int h = 1; h <= heads - p; h++)         // 2p heads' slopes 1, 3, 5, ...
        slopes[p + h - 1] = (float)exp2(-8.0 * (2 * h - 1) / (2 * p));
    // END SOLUTION
    return 0;
}
