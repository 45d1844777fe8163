// topk.c -- attention over each query's top-k keys.
#include "variants/topk.h"

#include <math.h>
#include <stdlib.h>

int topk_forward(const float *q, const float *k, const float *v, float *out, int n,
                 int m, int d_k, int d_v, int top) {
    if (top < 1 || n < 0 || m < 0 || d_k < 0 || d_v < 0) return -1;
    float *s = malloc((size_t)(m > 0 ? m : 1) * sizeof *s);
    if (!s) return -1;
    double scale = d_k > 0 ? 1.0 / sqrt((double)d_k) : 0.0;
    for (int i = 0; i < n; i++) {
        float *o = out + (long)i * d_v;
        for (int c = 0; c < d_v; c++) o[c] = 0.0f;
        for (int j = 0; j < m; j++) {
            double dot = 0.0;
            for (int c = 0; c < d_k; c++)
                dot += (double)q[(long)i * d_k + c] * k[(long)j * d_k + c];
            s[j] = (float)(dot * scale);
        }
        // BEGIN SOLUTION
        float max = -INFINITY;
        for (int j = 0; j < m; j++)
            if (s[j] > max) max = s[j];
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            int rank = 0;   // how many keys beat j: larger, or equal and earlier
            for (int l = 0; l < m; l++) rank += s[l] > s[j] || (s[l] == s[j] && l < j);
            double w = rank < top ? exp((double)s[j] - max) : 0.0;
            sum += w;
            for (int c = 0; c < d_v; c++) o[c] += (float)(w * v[(long)j * d_v + c]);
        }
        for (int c = 0; c < d_v && sum > 0.0; c++) o[c] = (float)(o[c] / sum);
        // END SOLUTION
    }
    free(s);
    return 0;
}
