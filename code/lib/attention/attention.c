// attention.c -- scaled dot-product attention in its four steps.
#include "attention/attention.h"

#include <math.h>

#include "base/mat.h"
#include "attention/softmax.h"

// snippet: attention_scores
void attention_scores(const float *q, const float *k, float *scores,
                      int n, int m, int d_k) {
    float scale = d_k > 0 ? 1.0f / sqrtf((float)d_k) : 0.0f;   // d_k = 0: scores 0
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            scores[i * m + j] = (float)mat_dot(q + i * d_k, k + j * d_k, d_k) * scale;
}
// end snippet

void attention_combine(const float *weights, const float *v, float *out,
                       int n, int m, int d_v) {
    mat_mul(weights, v, out, n, m, d_v);
}

// snippet: attention_forward
void attention_forward(const float *q, const float *k, const float *v,
                       const unsigned char *mask, float *out, float *weights,
                       int n, int m, int d_k, int d_v) {
    attention_scores(q, k, weights, n, m, d_k);   // steps 1-2: q k^T / sqrt(d_k)
    softmax_rows_masked(weights, mask, n, m);     // step 3: rows sum to 1
    attention_combine(weights, v, out, n, m, d_v);  // step 4: weighted sum of v
}
// end snippet

void attention_backward(const attn_saved_t *fw, const float *dout, float *dq, float *dk,
                        float *dv, int n, int m, int d_k, int d_v, float *scratch) {
    const float *q = fw->q, *k = fw->k, *v = fw->v, *weights = fw->weights;
    float *ds = scratch;                                   // (n, m)
    // forward: out = weights v  =>  dweights = dout v^T, dv += weights^T dout
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            ds[i * m + j] = (float)mat_dot(dout + i * d_v, v + j * d_v, d_v);
    for (int j = 0; j < m; j++)
        for (int c = 0; c < d_v; c++) {
            double acc = 0.0;
            for (int i = 0; i < n; i++)
                acc += (double)weights[i * m + j] * dout[i * d_v + c];
            dv[j * d_v + c] += (float)acc;
        }
    // forward: weights = softmax(scores) row by row  =>  dscores = w * (dw - <w, dw>)
    for (int i = 0; i < n; i++)
        softmax_backward(weights + i * m, ds + i * m, ds + i * m, m);
    // forward: scores = q k^T / sqrt(d_k)
    //   =>  dq += ds k / sqrt(d_k), dk += ds^T q / sqrt(d_k)
    const double scale = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < d_k; c++) {
            double acc = 0.0;
            for (int j = 0; j < m; j++) acc += (double)ds[i * m + j] * k[j * d_k + c];
            dq[i * d_k + c] += (float)(acc * scale);
        }
    for (int j = 0; j < m; j++)
        for (int c = 0; c < d_k; c++) {
            double acc = 0.0;
            for (int i = 0; i < n; i++) acc += (double)ds[i * m + j] * q[i * d_k + c];
            dk[j * d_k + c] += (float)(acc * scale);
        }
}
