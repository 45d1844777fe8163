// sublayer.c -- head pruning and the pre-norm sublayers, forward and backward.
#include "layers/sublayer.h"

#include <stdlib.h>

int sublayer_prune_head(mha_params_t *p, int head) {
    if (head < 0 || head >= p->n_heads) return -1;
    int d = p->d_model, dk = p->d_k;
    // BEGIN SOLUTION
    for (int r = head * dk; r < (head + 1) * dk; r++)
        for (int c = 0; c < d; c++) p->w_o[(long)r * d + c] = 0.0f;
    // END SOLUTION
    return 0;
}

int sublayer_prenorm_ffn(const ffn_params_t *f, const layernorm_params_t *ln,
                         const float *x, float *y, int n) {
    if (n < 0) return -1;
    if (n == 0) return 0;
    int d = f->d_model;
    float *z = malloc((size_t)n * (d + f->d_ff) * sizeof *z);
    if (!z) return -1;
    float *hidden = z + (size_t)n * d;
    // BEGIN SOLUTION
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, y, n);
    for (long i = 0; i < (long)n * d; i++) y[i] += x[i];
    // END SOLUTION
    free(z);
    return 0;
}

int sublayer_prenorm_attn(const mha_params_t *p, const layernorm_params_t *ln,
                          const float *x, const unsigned char *mask, float *y, int n) {
    if (n < 0) return -1;
    if (n == 0) return 0;
    int d = p->d_model, rc = 0;
    float *z = malloc((size_t)n * d * sizeof *z);
    if (!z) return -1;
    // BEGIN SOLUTION
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    rc = mha_forward(p, z, n, z, n, mask, y, NULL);
    for (long i = 0; i < (long)n * d; i++) y[i] += x[i];
    // END SOLUTION
    free(z);
    return rc;
}

int sublayer_prenorm_ffn_backward(const ffn_params_t *f, const layernorm_params_t *ln,
                                  const float *x, const float *dy, float *dx,
                                  ffn_params_t *gf, layernorm_params_t *gln, int n) {
    if (n < 0) return -1;
    if (n == 0) return 0;
    int d = f->d_model, dff = f->d_ff;
    size_t nd = (size_t)n * d, nf = (size_t)n * dff;
    float *z = calloc(3 * nd + 2 * nf, sizeof *z);
    if (!z) return -1;
    float *out = z + nd, *dz = out + nd, *hidden = dz + nd, *scratch = hidden + nf;
    // BEGIN SOLUTION
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, out, n);
    ffn_backward(f, gf, z, hidden, dy, dz, n, scratch);   // dz = dL/dLayerNorm(x)
    layernorm_backward(x, ln->gamma, dz, dx, gln->gamma, gln->beta, n, d, SUBLAYER_EPS);
    for (size_t i = 0; i < nd; i++) dx[i] += dy[i];       // the residual path
    // END SOLUTION
    free(z);
    return 0;
}
