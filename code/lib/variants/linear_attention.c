// linear_attention.c -- phi(Q) (phi(K)^T V): attention without the n x m matrix.
#include "variants/linear_attention.h"

#include <math.h>
#include <stdlib.h>

// snippet: linattn_feature
void linattn_feature(const float *x, float *phi, long count) {
    for (long e = 0; e < count; e++) phi[e] = x[e] > 0.0f ? x[e] + 1.0f : expf(x[e]);
}
// end snippet

int linattn_forward_quadratic(const float *q, const float *k, const float *v,
                              const unsigned char *mask, float *out, float *weights,
                              int n, int m, int d_k, int d_v) {
    if (n < 0 || m < 0 || d_k < 0 || d_v < 0) return -1;
    float *pq = malloc(((size_t)n * d_k + 1) * sizeof(float));
    float *pk = malloc(((size_t)m * d_k + 1) * sizeof(float));
    if (!pq || !pk) {
        free(pq);
        free(pk);
        return -1;
    }
    linattn_feature(q, pq, (long)n * d_k);
    linattn_feature(k, pk, (long)m * d_k);
    for (int i = 0; i < n; i++) {
        float *w = weights + (long)i * m;
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            if (!mask || mask[(long)i * m + j])
                for (int c = 0; c < d_k; c++)
                    s += (double)pq[(long)i * d_k + c] * pk[(long)j * d_k + c];
            w[j] = (float)s;
            sum += s;
        }
        for (int j = 0; j < m; j++) w[j] = sum > 0.0 ? (float)(w[j] / sum) : 0.0f;
        for (int c = 0; c < d_v; c++) {
            double acc = 0.0;
            for (int j = 0; j < m; j++) acc += (double)w[j] * v[(long)j * d_v + c];
            out[(long)i * d_v + c] = (float)acc;
        }
    }
    free(pq);
    free(pk);
    return 0;
}

size_t linattn_work_bytes(int d_k, int d_v) {
    return ((size_t)d_k * d_v + d_k) * sizeof(double) + (size_t)d_k * sizeof(float);
}

// out_i = phi(q_i)^T S / (phi(q_i) . z) for one query; a zero row if z is 0.
static void read_state(const float *phi_q, const double *s, const double *z,
                       float *out, int d_k, int d_v) {
    double den = 0.0;
    for (int c = 0; c < d_k; c++) den += phi_q[c] * z[c];
    for (int e = 0; e < d_v; e++) {
        double num = 0.0;
        for (int c = 0; c < d_k; c++) num += phi_q[c] * s[(long)c * d_v + e];
        out[e] = den > 0.0 ? (float)(num / den) : 0.0f;
    }
}

// S += phi(k_j) v_j^T, z += phi(k_j): key j joins the state.
static void add_key(const float *phi_k, const float *v_j, double *s, double *z,
                    int d_k, int d_v) {
    for (int c = 0; c < d_k; c++) {
        z[c] += phi_k[c];
        for (int e = 0; e < d_v; e++) s[(long)c * d_v + e] += (double)phi_k[c] * v_j[e];
    }
}

// snippet: linattn_forward
int linattn_forward(const float *q, const float *k, const float *v, float *out,
                    int n, int m, int d_k, int d_v) {
    if (n < 0 || m < 0 || d_k < 0 || d_v < 0) return -1;
    double *s = calloc(1, linattn_work_bytes(d_k, d_v));  // S (d_k, d_v), z (d_k,)
    if (!s) return -1;
    double *z = s + (long)d_k * d_v;
    float *phi = (float *)(z + d_k);                         // one row of phi
    for (int j = 0; j < m; j++) {                            // phi(K)^T V, once
        linattn_feature(k + (long)j * d_k, phi, d_k);
        add_key(phi, v + (long)j * d_v, s, z, d_k, d_v);
    }
    for (int i = 0; i < n; i++) {                            // then each query
        linattn_feature(q + (long)i * d_k, phi, d_k);
        read_state(phi, s, z, out + (long)i * d_v, d_k, d_v);
    }
    free(s);
    return 0;
}
// end snippet

// snippet: linattn_causal
int linattn_causal(const float *q, const float *k, const float *v, float *out,
                   int n, int d_k, int d_v) {
    if (n < 0 || d_k < 0 || d_v < 0) return -1;
    double *s = calloc(1, linattn_work_bytes(d_k, d_v));  // the state: S, z
    if (!s) return -1;
    double *z = s + (long)d_k * d_v;
    float *phi = (float *)(z + d_k);
    for (int i = 0; i < n; i++) {
        linattn_feature(k + (long)i * d_k, phi, d_k);     // key i joins the state
        add_key(phi, v + (long)i * d_v, s, z, d_k, d_v);
        linattn_feature(q + (long)i * d_k, phi, d_k);     // query i reads it
        read_state(phi, s, z, out + (long)i * d_v, d_k, d_v);
    }
    free(s);
    return 0;
}
// end snippet
