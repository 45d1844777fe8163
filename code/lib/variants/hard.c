// hard.c -- attention that picks one key instead of mixing all of them.
#include "variants/hard.h"

#include "base/mat.h"

// snippet: hard_forward
void hard_forward(const float *q, const float *k, const float *v,
                  const unsigned char *mask, float *out, int *idx, int n, int m,
                  int d_k, int d_v) {
    for (int i = 0; i < n; i++) {
        int best = -1;
        double best_s = 0.0;
        for (int j = 0; j < m; j++) {
            if (mask && !mask[(long)i * m + j]) continue;
            double s = mat_dot(q + (long)i * d_k, k + (long)j * d_k, d_k);
            if (best < 0 || s > best_s) best = j, best_s = s;   // first max wins
        }
        for (int c = 0; c < d_v; c++)
            out[(long)i * d_v + c] = best >= 0 ? v[(long)best * d_v + c] : 0.0f;
        if (idx) idx[i] = best;
    }
}
// end snippet
