// relative.c -- attention that knows how far apart two tokens are.
#include "variants/relative.h"

#include <math.h>

#include "attention/softmax.h"

// snippet: relpos_index
void relpos_index(int *idx, int n, int m, int k_max) {
    if (k_max < 0) k_max = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            int off = j - i;                      // how far key j is from query i
            if (off < -k_max) off = -k_max;       // past k_max, offsets look alike
            if (off > k_max) off = k_max;
            idx[i * m + j] = off + k_max;         // shift to a row of the table
        }
}
// end snippet

// snippet: relpos_forward
void relpos_forward(const float *q, const float *k, const float *v,
                    const relpos_t *rel, const unsigned char *mask, float *out,
                    float *weights, int n, int m) {
    const float *emb_k = rel->emb_k, *emb_v = rel->emb_v;
    int d_k = rel->d_k, d_v = rel->d_v, k_max = rel->k_max < 0 ? 0 : rel->k_max;
    double scale = 1.0 / sqrt((double)d_k);
    for (int i = 0; i < n; i++) {
        float *w = weights + (long)i * m;
        for (int j = 0; j < m; j++) {
            int off = j - i < -k_max ? -k_max : (j - i > k_max ? k_max : j - i);
            const float *a_k = emb_k + (long)(off + k_max) * d_k;
            double s = 0.0;                       // q_i . (k_j + a_K(j - i))
            for (int c = 0; c < d_k; c++)
                s += (double)q[(long)i * d_k + c] * (k[(long)j * d_k + c] + a_k[c]);
            w[j] = (float)(s * scale);
        }
        softmax_rows_masked(w, mask ? mask + (long)i * m : 0, 1, m);
        for (int c = 0; c < d_v; c++) {
            double acc = 0.0;                     // sum_j w_ij (v_j + a_V(j - i))
            for (int j = 0; j < m; j++) {
                int off = j - i < -k_max ? -k_max : (j - i > k_max ? k_max : j - i);
                float a_v = emb_v ? emb_v[(long)(off + k_max) * d_v + c] : 0.0f;
                acc += (double)w[j] * (v[(long)j * d_v + c] + a_v);
            }
            out[(long)i * d_v + c] = (float)acc;
        }
    }
}
// end snippet
