// online.c -- softmax-weighted sums one block of keys at a time.
#include "variants/online.h"

#include <math.h>
#include <stdlib.h>

#include "base/mat.h"

void online_init(online_state_t *st, double *acc, int d_v) {
    st->max = -INFINITY;
    st->sum = 0.0;
    st->acc = acc;
    st->d_v = d_v;
    for (int c = 0; c < d_v; c++) acc[c] = 0.0;
}

// snippet: online_update
void online_update(online_state_t *st, const float *scores, const float *v, int count) {
    float block_max = -INFINITY;
    for (int e = 0; e < count; e++)
        if (scores[e] > block_max) block_max = scores[e];
    if (block_max == -INFINITY) return;           // nothing visible in this block
    float new_max = block_max > st->max ? block_max : st->max;
    double rescale = exp((double)st->max - new_max);  // exp(M - M'), 0 if M = -inf
    st->sum *= rescale;
    for (int c = 0; c < st->d_v; c++) st->acc[c] *= rescale;
    for (int e = 0; e < count; e++) {
        if (scores[e] == -INFINITY) continue;     // a hidden key adds nothing
        double p = expf(scores[e] - new_max);     // in (0, 1]: cannot overflow
        st->sum += p;
        for (int c = 0; c < st->d_v; c++) st->acc[c] += p * v[(long)e * st->d_v + c];
    }
    st->max = new_max;
}
// end snippet

void online_finish(const online_state_t *st, float *out) {
    for (int c = 0; c < st->d_v; c++)
        out[c] = st->sum > 0.0 ? (float)(st->acc[c] / st->sum) : 0.0f;
}

// snippet: online_softmax
void online_softmax(float *x, int n) {
    float max = -INFINITY;
    double sum = 0.0;                 // sum of exp(x_j - max) over the x_j seen
    for (int j = 0; j < n; j++) {     // pass 1: max and sum together
        if (x[j] > max) {
            sum *= exp((double)max - x[j]);   // old terms, relative to the new max
            max = x[j];
        }
        sum += exp((double)x[j] - max);
    }
    for (int j = 0; j < n; j++) x[j] = (float)(exp((double)x[j] - max) / sum);
}
// end snippet

size_t online_work_bytes(int d_v, int block) {
    size_t scores = (size_t)(block > 0 ? (block + 1) / 2 * 2 : 2);   // acc aligned
    return scores * sizeof(float) + (size_t)(d_v > 0 ? d_v : 1) * sizeof(double);
}

// snippet: online_attention
int online_attention(const float *q, const float *k, const float *v,
                     const unsigned char *mask, float *out, int n, int m, int d_k,
                     int d_v, int block) {
    if (block < 1 || n < 0 || m < 0 || d_k < 0 || d_v < 0) return -1;
    float *s = malloc(online_work_bytes(d_v, block));   // block scores, then acc
    if (!s) return -1;
    double *acc = (double *)(s + (block + 1) / 2 * 2);
    float scale = 1.0f / sqrtf((float)d_k);
    for (int i = 0; i < n; i++) {
        online_state_t st;
        online_init(&st, acc, d_v);
        for (int j0 = 0; j0 < m; j0 += block) {          // one block of keys
            int count = m - j0 < block ? m - j0 : block;
            for (int e = 0; e < count; e++) {
                int j = j0 + e;
                s[e] = mask && !mask[(long)i * m + j]
                           ? -INFINITY
                           : (float)mat_dot(q + (long)i * d_k, k + (long)j * d_k, d_k)
                                 * scale;
            }
            online_update(&st, s, v + (long)j0 * d_v, count);
        }
        online_finish(&st, out + (long)i * d_v);
    }
    free(s);
    return 0;
}
// end snippet
