// sa_grad.c -- self-attention's backward pass with respect to V, S, W_V and W_Q.
#include "attention/sa_grad.h"

#include <math.h>
#include <stdlib.h>

void sagrad_values(const float *a, const float *dout, float *dv, int n, int m,
                   int d_v) {
    if (n < 1 || m < 1 || d_v < 1) return;
    for (int j = 0; j < m; j++)
        for (int c = 0; c < d_v; c++) {
            double acc = 0.0;
            // BEGIN SOLUTION
            for (int i = 0; i < n; i++)
                acc += (double)a[(long)i * m + j] * dout[(long)i * d_v + c];
            acc += dv[(long)j * d_v + c];
            // END SOLUTION
            dv[(long)j * d_v + c] = (float)acc;
        }
}

void sagrad_scores(const float *a, const float *v, const float *dout, float *ds,
                   int n, int m, int d_v, float scale) {
    if (n < 1 || m < 1 || d_v < 1) return;
    for (int i = 0; i < n; i++) {
        const float *ai = a + (long)i * m, *gi = dout + (long)i * d_v;
        float *si = ds + (long)i * m;
        // BEGIN SOLUTION
        double dot = 0.0;   // rowsum(a * dA) of row i
        for (int j = 0; j < m; j++) {
            double da = 0.0;
            for (int c = 0; c < d_v; c++) da += (double)gi[c] * v[(long)j * d_v + c];
            si[j] = (float)da;
            dot += ai[j] * da;
        }
        for (int j = 0; j < m; j++) si[j] = (float)(scale * ai[j] * (si[j] - dot));
        // END SOLUTION
    }
}

void sagrad_wv(const float *x, const float *a, const float *dout, float *dwv, int n,
               int d_model, int d_v) {
    if (n < 1 || d_model < 1 || d_v < 1) return;
    for (int j = 0; j < n; j++) {   // key j: its dV row is sum_i a[i][j] dout_i
        const float *xj = x + (long)j * d_model;
        // BEGIN SOLUTION
        for (int c = 0; c < d_v; c++) {
            double g = 0.0;
            for (int i = 0; i < n; i++)
                g += (double)a[(long)i * n + j] * dout[(long)i * d_v + c];
            for (int r = 0; r < d_model; r++)
                dwv[(long)r * d_v + c] += (float)(xj[r] * g);
        }
        // END SOLUTION
    }
}

// q = x w (n, d_out) in double precision, written as float.
static void project(const float *x, const float *w, float *q, int n, int d_in,
                    int d_out) {
    for (int i = 0; i < n; i++)
        for (int c = 0; c < d_out; c++) {
            double acc = 0.0;
            for (int r = 0; r < d_in; r++)
                acc += (double)x[(long)i * d_in + r] * w[(long)r * d_out + c];
            q[(long)i * d_out + c] = (float)acc;
        }
}

// The forward pass: q, k, v and the weights a (n, n) of the layer.
static void forward(const sagrad_in_t *in, float *q, float *k, float *v, float *a) {
    int n = in->n, dk = in->d_k;
    project(in->x, in->w_q, q, n, in->d_model, dk);
    project(in->x, in->w_k, k, n, in->d_model, dk);
    project(in->x, in->w_v, v, n, in->d_model, in->d_v);
    double scale = 1.0 / sqrt((double)dk);
    for (int i = 0; i < n; i++) {
        float *ai = a + (long)i * n;
        int last = in->causal ? i : n - 1;
        double max = -INFINITY, sum = 0.0;
        for (int j = 0; j < n; j++) {
            const float *qi = q + (long)i * dk, *kj = k + (long)j * dk;
            double s = 0.0;
            for (int c = 0; c < dk; c++) s += (double)qi[c] * kj[c];
            ai[j] = (float)(s * scale);
            if (j <= last && ai[j] > max) max = ai[j];
        }
        for (int j = 0; j < n; j++)
            sum += ai[j] = j <= last ? expf(ai[j] - (float)max) : 0.0f;
        for (int j = 0; j < n; j++) ai[j] = (float)(ai[j] / sum);
    }
}

int sagrad_wq(const sagrad_in_t *in, const float *dout, float *dwq) {
    int n = in->n, dk = in->d_k, dv = in->d_v, dm = in->d_model;
    if (n < 1 || dk < 1 || dv < 1 || dm < 1) return 0;
    size_t nn = (size_t)n * n, qk = (size_t)n * dk;
    float *buf = malloc((2 * nn + 3 * qk + (size_t)n * dv) * sizeof *buf);
    if (!buf) return -1;
    float *a = buf, *ds = a + nn, *q = ds + nn, *k = q + qk, *dq = k + qk, *v = dq + qk;
    forward(in, q, k, v, a);
    // BEGIN SOLUTION
    double scale = 1.0 / sqrt((double)dk);
    for (int i = 0; i < n; i++) {   // dS = A * (dA - rowsum(A * dA)), dA = dout V^T
        const float *ai = a + (long)i * n, *gi = dout + (long)i * dv;
        float *si = ds + (long)i * n;
        double dot = 0.0;
        for (int j = 0; j < n; j++) {
            double da = 0.0;
            for (int c = 0; c < dv; c++) da += (double)gi[c] * v[(long)j * dv + c];
            si[j] = (float)da;
            dot += ai[j] * da;
        }
        for (int j = 0; j < n; j++) si[j] = (float)(ai[j] * (si[j] - dot));
        for (int c = 0; c < dk; c++) {   // row i of dQ = dS K / sqrt(d_k)
            double acc = 0.0;
            for (int j = 0; j < n; j++) acc += (double)si[j] * k[(long)j * dk + c];
            dq[(long)i * dk + c] = (float)(acc * scale);
        }
    }
    for (int r = 0; r < dm; r++)   // dW_Q += X^T dQ
        for (int c = 0; c < dk; c++) {
            double acc = 0.0;
            for (int i = 0; i < n; i++)
                acc += (double)in->x[(long)i * dm + r] * dq[(long)i * dk + c];
            dwq[(long)r * dk + c] += (float)acc;
        }
    // END SOLUTION
    free(buf);
    return 0;
}
