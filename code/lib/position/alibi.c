// alibi.c -- ALiBi: head slopes, bias matrices, causal attention with a bias.
#include "position/alibi.h"

#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "attention/softmax.h"

// snippet: alibi_slopes
int alibi_slopes(float *slopes, int heads) {
    if (heads < 1) return -1;
    // BEGIN SOLUTION
    for (int h = 1; h <= heads; h++)
        slopes[h - 1] = (float)exp2(-8.0 * h / heads);   // ratio 2^(-8/H)
    // END SOLUTION
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
