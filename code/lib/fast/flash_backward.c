// flash_backward.c -- attention gradients from the row log-sum-exp (see
// flash_backward.h).
#include "fast/flash_backward.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "fast/tile_mm.h"

enum { BQ = FLASH_BQ, BK = FLASH_BK };

// Per-thread tiles: keys and values of the block, transposed (d_k, BK), (d_v, BK);
// weights and their gradients (BQ, BK); both transposed (BK, BQ); the block's dk
// (BK, d_k) and dv (BK, d_v).
static size_t work_floats(int d_k, int d_v) {
    return (size_t)(d_k + d_v) * BK + 4 * (size_t)BQ * BK + (size_t)BK * (d_k + d_v);
}

// One block of bk <= BK keys, rows j0 .. j0 + bk - 1 of one head (sizes in *sh, h
// unused): its dk and dv rows, and its share of dq (added into dq_part). fw of the
// head: q (n, d_k), k (m, d_k), v (m, d_v), lse (n); dout (n, d_v), dd (n)
// -> dk, dv rows j0.., dq_part += .
// Inverts, tile by tile, the forward's (fast/tiled.c, tiled_block)
//   tile_mm(s, qs, kt + (size_t)j0 * d_k, ...);            s = q k^T / sqrt(d_k)
//   p[j + u] = tile_exp2(... (x - ref) * log2e ...);       p = exp(s - ref) / sum
//   tile_mm(acc, p, v + (size_t)j0 * d_v, ...);            out = p v
// snippet: flash_key_block
static void key_block(const flash_saved_t *fw, const float *dout, const float *dd,
                      float *dq_part, float *dk, float *dv, int j0, int bk,
                      const tiled_shape_t *sh, float *work) {
    const float *q = fw->q, *k = fw->k, *v = fw->v, *lse = fw->lse;
    const int n = sh->n, d_k = sh->d_k, d_v = sh->d_v, causal = sh->causal;
    float *kt = work, *vt = kt + (size_t)d_k * BK;             // (d_k, BK), (d_v, BK)
    float *p = vt + (size_t)d_v * BK, *ds = p + BQ * BK;       // (BQ, BK) each
    float *pt = ds + BQ * BK, *dst = pt + BQ * BK;             // (BK, BQ) each
    float *dk_blk = dst + BQ * BK, *dv_blk = dk_blk + (size_t)BK * d_k;
    const float scale = 1.0f / sqrtf((float)d_k), log2e = 1.4426950409f;
    memset(kt, 0, sizeof(float) * (size_t)(d_k + d_v) * BK);   // padding keys: 0
    for (int j = 0; j < bk; j++) {
        for (int c = 0; c < d_k; c++)
            kt[(size_t)c * BK + j] = k[(size_t)(j0 + j) * d_k + c];
        for (int c = 0; c < d_v; c++)
            vt[(size_t)c * BK + j] = v[(size_t)(j0 + j) * d_v + c];
    }
    memset(dk_blk, 0, sizeof(float) * (size_t)BK * (d_k + d_v));
    // causal: queries before j0 see none of these keys
    for (int i0 = causal ? j0 / BQ * BQ : 0; i0 < n; i0 += BQ) {
        const int bq = n - i0 < BQ ? n - i0 : BQ;
        const float *qi = q + (size_t)i0 * d_k, *doi = dout + (size_t)i0 * d_v;
        tile_mm(p, qi, kt, bq, d_k, BK, d_k, BK, BK, 0);       // s = q k^T
        tile_mm(ds, doi, vt, bq, d_v, BK, d_v, BK, BK, 0);     // dp = dout v^T
        for (int i = 0; i < bq; i++) {
            float *pi = p + i * BK, *dsi = ds + i * BK;
            const float li = lse[i0 + i], di = dd[i0 + i];
            const int seen = causal ? i0 + i - j0 + 1 : bk;     // keys j0 + j, j < seen
            for (int j = 0; j < BK; j++) {
                const float pij = tile_exp2((pi[j] * scale - li) * log2e);
                pi[j] = j < seen && j < bk ? pij : 0.0f;        // p = exp(s - L)
                dsi[j] = pi[j] * (dsi[j] - di) * scale;         // ds = p (dp - D)
            }
        }
        for (int i = 0; i < bq; i++)                           // p^T and ds^T
            for (int j = 0; j < BK; j++) {
                pt[j * BQ + i] = p[i * BK + j];
                dst[j * BQ + i] = ds[i * BK + j];
            }
        tile_mm(dv_blk, pt, doi, BK, bq, d_v, BQ, d_v, d_v, 1);    // dv += p^T dout
        tile_mm(dk_blk, dst, qi, BK, bq, d_k, BQ, d_k, d_k, 1);    // dk += ds^T q
        tile_mm(dq_part + (size_t)i0 * d_k, ds, k + (size_t)j0 * d_k, bq, bk, d_k, BK,
                d_k, d_k, 1);                                     // dq += ds k
    }
    memcpy(dk + (size_t)j0 * d_k, dk_blk, sizeof(float) * (size_t)bk * d_k);
    memcpy(dv + (size_t)j0 * d_v, dv_blk, sizeof(float) * (size_t)bk * d_v);
}
// end snippet

int flash_attention_backward(const flash_saved_t *fw, const float *dout, float *dq,
                             float *dk, float *dv, const tiled_shape_t *shape) {
    const float *q = fw->q, *k = fw->k, *v = fw->v, *out = fw->out, *lse = fw->lse;
    const int h = shape->h, n = shape->n, m = shape->m, d_k = shape->d_k;
    const int d_v = shape->d_v, causal = shape->causal;
    if (h < 1 || n < 1 || m < 1 || d_k < 1 || d_v < 1) return -1;
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    // D_i = dout_i . out_i, and one dq per thread past the first (dq is the first)
    float *dd = malloc(sizeof(float) * (size_t)h * n);
    const size_t nq = (size_t)h * n * d_k;                 // floats in dq
    float *parts = NULL;
    if (threads > 1) parts = calloc((size_t)(threads - 1) * nq, sizeof *parts);
    if (!dd || (threads > 1 && !parts)) {
        free(dd), free(parts);
        return -1;
    }
    for (size_t i = 0; i < (size_t)h * n; i++) {
        double s = 0.0;                                 // in double: every ds
        for (int c = 0; c < d_v; c++) s += (double)dout[i * d_v + c] * out[i * d_v + c];
        dd[i] = (float)s;                               // of the row subtracts it
    }
    memset(dq, 0, sizeof(float) * nq);
    const int blocks = (m + BK - 1) / BK;
    const long tasks = (long)h * blocks;
    int failed = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads) reduction(| : failed)
#endif
    {
        int me = 0;
#ifdef _OPENMP
        me = omp_get_thread_num();
#endif
        float *mine = me == 0 ? dq : parts + (size_t)(me - 1) * nq;
        float *work = malloc(sizeof(float) * work_floats(d_k, d_v));
        if (!work) failed = 1;
#ifdef _OPENMP
#pragma omp for schedule(static, 1)
#endif
        for (long t = 0; t < tasks; t++) {
            if (!work) continue;
            const int head = (int)(t / blocks), j0 = (int)(t % blocks) * BK;
            const int bk = m - j0 < BK ? m - j0 : BK;
            const size_t hq = (size_t)head * n, hk = (size_t)head * m;
            if (causal && j0 >= n) {                    // no query sees these keys
                memset(dk + (hk + j0) * d_k, 0, sizeof(float) * (size_t)bk * d_k);
                memset(dv + (hk + j0) * d_v, 0, sizeof(float) * (size_t)bk * d_v);
                continue;
            }
            const flash_saved_t head_fw = {q + hq * d_k, k + hk * d_k, v + hk * d_v,
                                           out + hq * d_v, lse + hq};
            key_block(&head_fw, dout + hq * d_v, dd + hq, mine + hq * d_k,
                      dk + hk * d_k, dv + hk * d_v, j0, bk, shape, work);
        }
        free(work);
    }
    for (int t = 1; t < threads; t++)                   // the copies, in thread order
        for (size_t e = 0; e < nq; e++) dq[e] += parts[(size_t)(t - 1) * nq + e];
    free(dd), free(parts);
    return failed ? -1 : 0;
}
