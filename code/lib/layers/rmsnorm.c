// rmsnorm.c -- RMSNorm forward and backward.
#include "layers/rmsnorm.h"

#include <math.h>

// snippet: rmsnorm_forward
int rmsnorm_forward(float *out, float *rstd, const float *x, const float *w, int N,
                    int C, float eps) {
    if (!(eps >= 0.0f) || isinf(eps)) return -1;
    for (int n = 0; n < N && C > 0; n++) {
        const float *x_n = x + (long)n * C;
        double ss = 0.0;
        for (int i = 0; i < C; i++) ss += (double)x_n[i] * x_n[i];
        float r = (float)(1.0 / sqrt(ss / C + eps));
        rstd[n] = r;
        float *out_n = out + (long)n * C;
        for (int i = 0; i < C; i++) out_n[i] = x_n[i] * r * w[i];
    }
    return 0;
}
// end snippet

// snippet: rmsnorm_backward
void rmsnorm_backward(float *dx, float *dw, const float *dout, const float *x,
                      const float *w, const float *rstd, int N, int C) {
    for (int n = 0; n < N && C > 0; n++) {
        const float *x_n = x + (long)n * C, *dout_n = dout + (long)n * C;
        float r = rstd[n];
        // in the forward pass this was: out_n[i] = x_n[i] * r * w[i];
        // with r = (mean(x^2) + eps)^(-1/2), so dr/dx_j = -r^3 x_j / C
        if (!dx) continue;
        double dot = 0.0;                       // sum_i dout_i w_i x_i
        for (int i = 0; i < C; i++) dot += (double)dout_n[i] * w[i] * x_n[i];
        float *dx_n = dx + (long)n * C;
        double k = dot * r * r * r / C;
        for (int i = 0; i < C; i++)
            dx_n[i] += (float)(r * w[i] * dout_n[i] - k * x_n[i]);   // accumulates
    }
    // dw_i = sum over rows of dout_i x_i r, in double one feature at a time
    for (int i = 0; i < C; i++) {
        double s = 0.0;
        for (int n = 0; n < N; n++)
            s += (double)dout[(long)n * C + i] * x[(long)n * C + i] * rstd[n];
        dw[i] += (float)s;                      // accumulates
    }
}
// end snippet
