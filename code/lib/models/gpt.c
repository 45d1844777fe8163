// gpt.c -- the decoder-only model of gpt.h: forward, backward, KV-cache decoding,
// sampling, saving.
#include "models/gpt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tmat.h"
#include "layers/gqa.h"
#include "layers/rmsnorm.h"
#include "layers/tied_embed.h"
#include "position/rope_rows.h"
#include "train/xent.h"

int gpt_config_check(const gpt_config_t *c) {
    if (c->V < 1 || c->C < 1 || c->L < 1 || c->NH < 1 || c->NKV < 1 || c->F < 1 ||
        c->B_max < 1 || c->T_max < 1 || c->L > GPT_MAX_LAYERS || c->C % c->NH ||
        c->NH % c->NKV || (c->C / c->NH) % 2 || !(c->rope_base > 0.0) ||
        (c->post_norm != 0 && c->post_norm != 1))
        return -1;
    return 0;
}

// The layout of the parameter buffer, written once: the tensors in buffer order
// (wte; per layer n1 wq wk wv wo n2 w1 w3 w2; nf), each with its size, its
// kind and the field of gpt_params_t that views it. gpt_param_count, gpt_bind,
// gpt_init and gpt_decay_mask all walk this list.
typedef enum {
    EMBEDDING,    // wte: initialised N(0, 0.02), decays
    MATRIX,       // initialised N(0, 0.02), decays
    OUT_MATRIX,   // wo, w2, which add into the residual stream: N(0, 0.02 / sqrt(2L))
    NORM          // n1, n2, nf: initialised 1, no decay
} tensor_kind_t;

typedef struct {
    const char *name;
    int layer;            // 0..L-1, or -1 outside the blocks
    long n;               // floats
    tensor_kind_t kind;
    float **view;         // the field of p that points at it
} tensor_t;

enum { MAX_TENSORS = 2 + 9 * GPT_MAX_LAYERS };

static int put(tensor_t *t, int i, const char *name, int layer, long n,
               tensor_kind_t kind, float **view) {
    t[i] = (tensor_t){name, layer, n, kind, view};
    return i + 1;
}

// t (MAX_TENSORS) <- the tensors of a checked config c, views into p; returns
// their number.
static int gpt_tensors(gpt_params_t *p, const gpt_config_t *c, tensor_t *t) {
    long C = c->C, HS = C / c->NH, qC = c->NH * HS, kvC = c->NKV * HS, F = c->F;
    int i = put(t, 0, "wte", -1, c->V * C, EMBEDDING, &p->wte);
    for (int l = 0; l < c->L; l++) {
        i = put(t, i, "n1", l, C, NORM, &p->layer[l].n1);
        i = put(t, i, "wq", l, C * qC, MATRIX, &p->layer[l].wq);
        i = put(t, i, "wk", l, C * kvC, MATRIX, &p->layer[l].wk);
        i = put(t, i, "wv", l, C * kvC, MATRIX, &p->layer[l].wv);
        i = put(t, i, "wo", l, qC * C, OUT_MATRIX, &p->layer[l].wo);
        i = put(t, i, "n2", l, C, NORM, &p->layer[l].n2);
        i = put(t, i, "w1", l, C * F, MATRIX, &p->layer[l].ffn.w1);
        i = put(t, i, "w3", l, C * F, MATRIX, &p->layer[l].ffn.w3);
        i = put(t, i, "w2", l, F * C, OUT_MATRIX, &p->layer[l].ffn.w2);
    }
    return put(t, i, "nf", -1, C, NORM, &p->nf);
}

long gpt_param_count(const gpt_config_t *c) {
    if (gpt_config_check(c)) return -1;
    gpt_params_t p;
    tensor_t t[MAX_TENSORS];
    long total = 0;
    for (int i = 0, n = gpt_tensors(&p, c, t); i < n; i++) total += t[i].n;
    return total;
}

void gpt_bind(gpt_params_t *p, float *buf, const gpt_config_t *c) {
    memset(p, 0, sizeof *p);
    if (gpt_config_check(c)) return;
    tensor_t t[MAX_TENSORS];
    for (int i = 0, n = gpt_tensors(p, c, t); i < n; buf += t[i].n, i++)
        *t[i].view = buf;
    for (int l = 0; l < c->L; l++) p->layer[l].ffn.C = c->C, p->layer[l].ffn.F = c->F;
}

void gpt_init(float *buf, const gpt_config_t *c, rng_t *rng) {
    if (gpt_config_check(c)) return;
    gpt_params_t p;
    tensor_t t[MAX_TENSORS];
    float std = 0.02f, std_out = 0.02f / sqrtf(2.0f * (float)c->L);
    for (int i = 0, n = gpt_tensors(&p, c, t); i < n; buf += t[i].n, i++) {
        if (t[i].kind == NORM)
            for (long j = 0; j < t[i].n; j++) buf[j] = 1.0f;
        else
            rng_fill_normal(rng, buf, (int)t[i].n, 0.0f,
                            t[i].kind == OUT_MATRIX ? std_out : std);
    }
}

// snippet: gpt_decay_mask
void gpt_decay_mask(unsigned char *mask, const gpt_config_t *c) {
    if (gpt_config_check(c)) return;
    gpt_params_t p;
    tensor_t t[MAX_TENSORS];
    for (int i = 0, n = gpt_tensors(&p, c, t); i < n; mask += t[i].n, i++)
        memset(mask, t[i].kind != NORM, (size_t)t[i].n);   // 1: decays
}
// end snippet

// What one layer keeps for its backward pass (N rows). Post-norm uses the
// same fields for its own order (block_forward_post says which is which).
typedef struct {
    float *x_in;         // (N, C) the residual stream entering the layer
    float *a, *rstd1;    // (N, C) RMSNorm(x_in) n1, (N,)
    float *q, *k, *v;    // (N, NH HS), (N, NKV HS) x 2, after RoPE
    float *att;          // (B, NH, T, T)
    float *o;            // (N, NH HS) attention output before W_o
    float *x_mid;        // (N, C) x_in + o W_o
    float *h, *rstd2;    // (N, C) RMSNorm(x_mid) n2, (N,)
    float *act;          // (N, 3F) SwiGLU's activations
    float *s2;           // (N, C) post-norm only: h + SwiGLU(h), before its norm
} layer_work_t;

struct gpt_work {
    gpt_config_t c;
    int B, T;                            // the shape of the last forward
    int *inp, *tgt;                      // (N,) inputs and targets
    layer_work_t lw[GPT_MAX_LAYERS];
    float *x_out;                        // (N, C) the stream after the last layer
    float *xf, *rstdf;                   // (N, C) RMSNorm(x_out) nf, (N,)
    float *logits, *probs;               // (N, V)
    // backward scratch
    float *dx, *dxn, *dq, *dk, *dv, *dqr, *dkr, *dlogits, *scratch;
    float *block;                        // the one allocation all floats live in
};

// Carve n floats off *at.
static float *take(float **at, long n) {
    float *p = *at;
    *at += n;
    return p;
}

gpt_work_t *gpt_work_new(const gpt_config_t *c) {
    if (gpt_config_check(c)) return NULL;
    long N = (long)c->B_max * c->T_max, C = c->C, HS = C / c->NH;
    long qC = c->NH * HS, kvC = c->NKV * HS, V = c->V, F = c->F;
    long att = (long)c->B_max * c->NH * c->T_max * c->T_max;
    long per_layer = 5 * N * C + 2 * N + 2 * N * qC + 2 * N * kvC + att + 3 * N * F;
    gqa_shape_t s = {c->B_max, c->T_max, c->NH, c->NKV, (int)HS};
    swiglu_params_t f = {c->C, c->F, NULL, NULL, NULL};
    long scratch = gqa_scratch_floats(&s), sw = swiglu_scratch_floats(&f, (int)N);
    if (sw > scratch) scratch = sw;
    long total = c->L * per_layer + 2 * N * C + N + 2 * N * V   // forward
                 + 2 * N * C + 2 * N * qC + 2 * N * kvC + N * kvC + N * V + scratch;
    gpt_work_t *w = calloc(1, sizeof *w);
    int *ids = malloc(2 * (size_t)N * sizeof *ids);
    float *block = malloc((size_t)total * sizeof *block);
    if (!w || !ids || !block) {
        free(w), free(ids), free(block);
        return NULL;
    }
    w->c = *c;
    w->block = block;
    w->inp = ids, w->tgt = ids + N;
    float *at = block;
    for (int l = 0; l < c->L; l++) {
        layer_work_t *lw = &w->lw[l];
        lw->x_in = take(&at, N * C), lw->a = take(&at, N * C), lw->rstd1 = take(&at, N);
        lw->q = take(&at, N * qC), lw->k = take(&at, N * kvC);
        lw->v = take(&at, N * kvC);
        lw->att = take(&at, att), lw->o = take(&at, N * qC);
        lw->x_mid = take(&at, N * C), lw->h = take(&at, N * C);
        lw->rstd2 = take(&at, N);
        lw->act = take(&at, 3 * N * F), lw->s2 = take(&at, N * C);
    }
    w->x_out = take(&at, N * C), w->xf = take(&at, N * C), w->rstdf = take(&at, N);
    w->logits = take(&at, N * V), w->probs = take(&at, N * V);
    w->dx = take(&at, N * C), w->dxn = take(&at, N * C);
    w->dq = take(&at, N * qC), w->dqr = take(&at, N * qC);
    w->dk = take(&at, N * kvC), w->dkr = take(&at, N * kvC), w->dv = take(&at, N * kvC);
    w->dlogits = take(&at, N * V), w->scratch = take(&at, scratch);
    return w;
}

void gpt_work_free(gpt_work_t *w) {
    if (!w) return;
    free(w->inp);
    free(w->block);
    free(w);
}

const float *gpt_logits(const gpt_work_t *w) { return w->logits; }

const float *gpt_attention(const gpt_work_t *w, int l) {
    return l >= 0 && l < w->c.L ? w->lw[l].att : NULL;
}

// snippet: gpt_block_forward
// The attention sub-layer on the B T rows of in (N, C): q, k, v projected from
// in, RoPE on q and k, causal GQA -> lw->o, then res += o W_o (the residual).
static void attention_sublayer(const gpt_params_t *p, const gpt_config_t *c, int l,
                               layer_work_t *lw, const float *in, int B, int T,
                               float *res) {
    int N = B * T, C = c->C, HS = C / c->NH, qC = c->NH * HS, kvC = c->NKV * HS;
    memset(lw->q, 0, (size_t)N * qC * sizeof(float));
    memset(lw->k, 0, (size_t)N * kvC * sizeof(float));
    memset(lw->v, 0, (size_t)N * kvC * sizeof(float));
    tmat_mul_acc(in, p->layer[l].wq, lw->q, N, C, qC);
    tmat_mul_acc(in, p->layer[l].wk, lw->k, N, C, kvC);
    tmat_mul_acc(in, p->layer[l].wv, lw->v, N, C, kvC);
    for (int b = 0; b < B; b++) {            // positions 0..T-1 in every sequence
        rope_rows_forward(lw->q + (long)b * T * qC, T, c->NH, HS, 0, c->rope_base);
        rope_rows_forward(lw->k + (long)b * T * kvC, T, c->NKV, HS, 0, c->rope_base);
    }
    gqa_shape_t s = {B, T, c->NH, c->NKV, HS};
    gqa_forward(&s, lw->o, lw->att, lw->q, lw->k, lw->v);
    tmat_mul_acc(lw->o, p->layer[l].wo, res, N, qC, C);   // res += o W_o
}

// One pre-norm block on the B T rows of x_in (lw->x_in) -> x_out (N, C).
static void block_forward(const gpt_params_t *p, const gpt_config_t *c, int l,
                          layer_work_t *lw, int B, int T, float *x_out) {
    int N = B * T, C = c->C;
    rmsnorm_forward(lw->a, lw->rstd1, lw->x_in, p->layer[l].n1, N, C, RMSNORM_EPS);
    memcpy(lw->x_mid, lw->x_in, (size_t)N * C * sizeof(float));
    attention_sublayer(p, c, l, lw, lw->a, B, T, lw->x_mid);   // x += GQA(a) W_o
    rmsnorm_forward(lw->h, lw->rstd2, lw->x_mid, p->layer[l].n2, N, C, RMSNORM_EPS);
    swiglu_forward(&p->layer[l].ffn, x_out, lw->act, lw->h, N);
    for (long i = 0; i < (long)N * C; i++) x_out[i] += lw->x_mid[i];   // x += FFN(h)
}
// end snippet

// snippet: gpt_block_forward_post
// The same block in chapter 9's order, post-norm: each sub-layer reads the
// stream itself, and the sum of stream and sub-layer is normalised. Kept for
// the backward pass: x_mid = the first sum, h = its norm, s2 = the second sum.
static void block_forward_post(const gpt_params_t *p, const gpt_config_t *c, int l,
                               layer_work_t *lw, int B, int T, float *x_out) {
    int N = B * T, C = c->C;
    memcpy(lw->x_mid, lw->x_in, (size_t)N * C * sizeof(float));
    attention_sublayer(p, c, l, lw, lw->x_in, B, T, lw->x_mid);   // x + GQA(x) W_o
    rmsnorm_forward(lw->h, lw->rstd1, lw->x_mid, p->layer[l].n1, N, C, RMSNORM_EPS);
    swiglu_forward(&p->layer[l].ffn, lw->s2, lw->act, lw->h, N);
    for (long i = 0; i < (long)N * C; i++) lw->s2[i] += lw->h[i];   // h + FFN(h)
    rmsnorm_forward(x_out, lw->rstd2, lw->s2, p->layer[l].n2, N, C, RMSNORM_EPS);
}
// end snippet

// Embedding, the blocks and the final norm and logits for the rows in w->inp.
static void forward_rows(const gpt_params_t *p, const gpt_config_t *c, gpt_work_t *w,
                         int B, int T) {
    int N = B * T, C = c->C;
    tied_embed_forward(w->lw[0].x_in, w->inp, p->wte, N, c->V, C);
    for (int l = 0; l < c->L; l++) {
        float *x_out = l + 1 < c->L ? w->lw[l + 1].x_in : w->x_out;
        if (c->post_norm) block_forward_post(p, c, l, &w->lw[l], B, T, x_out);
        else block_forward(p, c, l, &w->lw[l], B, T, x_out);
    }
    rmsnorm_forward(w->xf, w->rstdf, w->x_out, p->nf, N, C, RMSNORM_EPS);
    tied_logits_forward(w->logits, w->xf, p->wte, N, c->V, C);
}

double gpt_forward(const gpt_params_t *p, const gpt_config_t *c, const gpt_batch_t *bt,
                   gpt_work_t *w, int *count) {
    *count = 0;
    if (bt->B < 1 || bt->T < 1 || bt->B > c->B_max || bt->T > c->T_max) return -1.0;
    int B = bt->B, T = bt->T, N = B * T;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            int x = bt->tokens[b * (T + 1) + t], y = bt->tokens[b * (T + 1) + t + 1];
            if (x < 0 || x >= c->V || y < 0 || y >= c->V) return -1.0;
            w->inp[b * T + t] = x, w->tgt[b * T + t] = y;   // the shifted target
        }
    w->B = B, w->T = T;
    forward_rows(p, c, w, B, T);
    return xent_forward(w->logits, w->tgt, w->probs, N, c->V, -1, count);
}

// snippet: gpt_block_backward
// Gradient of attention_sublayer, which read the rows in: w->dx holds dL/dres
// (the gradient of o W_o) on entry and is kept; w->dxn receives dL/din (set).
static void attention_backward(const gpt_params_t *p, const gpt_params_t *g,
                               const gpt_config_t *c, int l, const layer_work_t *lw,
                               const float *in, gpt_work_t *w, int B, int T) {
    int N = B * T, C = c->C, HS = C / c->NH, qC = c->NH * HS, kvC = c->NKV * HS;
    // in the forward pass this was: res += o W_o
    tmat_at_mul_acc(lw->o, w->dx, g->layer[l].wo, N, qC, C);
    memset(w->dq, 0, (size_t)N * qC * sizeof(float));     // dq holds dL/do first
    tmat_mul_bt_acc(w->dx, p->layer[l].wo, w->dq, N, qC, C);
    // in the forward pass this was: o = GQA(q, k, v)
    gqa_shape_t s = {B, T, c->NH, c->NKV, HS};
    memset(w->dqr, 0, (size_t)N * qC * sizeof(float));
    memset(w->dkr, 0, (size_t)N * kvC * sizeof(float));
    memset(w->dv, 0, (size_t)N * kvC * sizeof(float));
    gqa_backward(&s, w->dqr, w->dkr, w->dv, w->dq, lw->q, lw->k, lw->v, lw->att,
                 w->scratch);
    // in the forward pass this was: q = RoPE(in W_q), k = RoPE(in W_k)
    memset(w->dq, 0, (size_t)N * qC * sizeof(float));
    memset(w->dk, 0, (size_t)N * kvC * sizeof(float));
    for (int b = 0; b < B; b++) {
        rope_rows_backward(w->dq + (long)b * T * qC, w->dqr + (long)b * T * qC, T,
                           c->NH, HS, 0, c->rope_base);
        rope_rows_backward(w->dk + (long)b * T * kvC, w->dkr + (long)b * T * kvC, T,
                           c->NKV, HS, 0, c->rope_base);
    }
    tmat_at_mul_acc(in, w->dq, g->layer[l].wq, N, C, qC);
    tmat_at_mul_acc(in, w->dk, g->layer[l].wk, N, C, kvC);
    tmat_at_mul_acc(in, w->dv, g->layer[l].wv, N, C, kvC);
    memset(w->dxn, 0, (size_t)N * C * sizeof(float));
    tmat_mul_bt_acc(w->dq, p->layer[l].wq, w->dxn, N, C, qC);
    tmat_mul_bt_acc(w->dk, p->layer[l].wk, w->dxn, N, C, kvC);
    tmat_mul_bt_acc(w->dv, p->layer[l].wv, w->dxn, N, C, kvC);
}

// Gradient of block_forward: w->dx holds dL/dx_out on entry, dL/dx_in on exit.
static void block_backward(const gpt_params_t *p, const gpt_params_t *g,
                           const gpt_config_t *c, int l, const layer_work_t *lw,
                           gpt_work_t *w, int B, int T) {
    int N = B * T, C = c->C;
    // in the forward pass this was: x_out = x_mid + SwiGLU(RMSNorm(x_mid) n2)
    swiglu_params_t gf = g->layer[l].ffn;                // views into g
    memset(w->dxn, 0, (size_t)N * C * sizeof(float));
    swiglu_backward(&p->layer[l].ffn, &gf, w->dxn, w->dx, lw->h, lw->act, N,
                    w->scratch);
    rmsnorm_backward(w->dx, g->layer[l].n2, w->dxn, lw->x_mid, p->layer[l].n2,
                     lw->rstd2, N, C);                   // dx = dL/dx_mid
    // in the forward pass this was: x_mid = x_in + GQA(a) W_o
    attention_backward(p, g, c, l, lw, lw->a, w, B, T);  // dxn = dL/da
    // in the forward pass this was: a = RMSNorm(x_in) n1
    rmsnorm_backward(w->dx, g->layer[l].n1, w->dxn, lw->x_in, p->layer[l].n1,
                     lw->rstd1, N, C);                   // dx = dL/dx_in
}
// end snippet

// snippet: gpt_block_backward_post
// w->dx := the gradient through y = RMSNorm(x) n: dL/dx from dL/dy (no residual
// path around this norm, so the input's gradient replaces the output's).
static void norm_backward_through(gpt_work_t *w, float *dn, const float *x,
                                  const float *n, const float *rstd, int N, int C) {
    memset(w->dxn, 0, (size_t)N * C * sizeof(float));
    rmsnorm_backward(w->dxn, dn, w->dx, x, n, rstd, N, C);
    memcpy(w->dx, w->dxn, (size_t)N * C * sizeof(float));
}

// Gradient of block_forward_post: w->dx holds dL/dx_out on entry, dL/dx_in on
// exit.
static void block_backward_post(const gpt_params_t *p, const gpt_params_t *g,
                                const gpt_config_t *c, int l, const layer_work_t *lw,
                                gpt_work_t *w, int B, int T) {
    int N = B * T, C = c->C;
    // in the forward pass this was: x_out = RMSNorm(s2) n2
    norm_backward_through(w, g->layer[l].n2, lw->s2, p->layer[l].n2, lw->rstd2, N, C);
    // in the forward pass this was: s2 = h + SwiGLU(h)
    swiglu_params_t gf = g->layer[l].ffn;                // views into g
    memset(w->dxn, 0, (size_t)N * C * sizeof(float));
    swiglu_backward(&p->layer[l].ffn, &gf, w->dxn, w->dx, lw->h, lw->act, N,
                    w->scratch);
    for (long i = 0; i < (long)N * C; i++) w->dx[i] += w->dxn[i];   // dx = dL/dh
    // in the forward pass this was: h = RMSNorm(x_mid) n1
    norm_backward_through(w, g->layer[l].n1, lw->x_mid, p->layer[l].n1, lw->rstd1, N,
                          C);                            // dx = dL/dx_mid
    // in the forward pass this was: x_mid = x_in + GQA(x_in) W_o
    attention_backward(p, g, c, l, lw, lw->x_in, w, B, T);
    for (long i = 0; i < (long)N * C; i++) w->dx[i] += w->dxn[i];   // dx = dL/dx_in
}
// end snippet

int gpt_backward(const gpt_params_t *p, const gpt_params_t *g, const gpt_config_t *c,
                 const gpt_batch_t *bt, gpt_work_t *w, float scale) {
    if (bt->B < 1 || bt->T < 1 || bt->B != w->B || bt->T != w->T) return -1;
    int B = w->B, T = w->T, N = B * T, C = c->C, V = c->V;
    // in the forward pass this was: logits = RMSNorm(x_out) nf wte^T, then the loss
    memset(w->dlogits, 0, (size_t)N * V * sizeof(float));
    xent_backward(w->probs, w->tgt, w->dlogits, N, V, -1, scale);
    memset(w->dxn, 0, (size_t)N * C * sizeof(float));
    tied_logits_backward(w->dxn, g->wte, w->dlogits, w->xf, p->wte, N, V, C);
    memset(w->dx, 0, (size_t)N * C * sizeof(float));
    rmsnorm_backward(w->dx, g->nf, w->dxn, w->x_out, p->nf, w->rstdf, N, C);
    for (int l = c->L - 1; l >= 0; l--) {
        if (c->post_norm) block_backward_post(p, g, c, l, &w->lw[l], w, B, T);
        else block_backward(p, g, c, l, &w->lw[l], w, B, T);
    }
    // in the forward pass this was: x = wte[tokens] (the same table as the logits)
    tied_embed_backward(g->wte, w->dx, w->inp, N, V, C);
    return 0;
}

int gpt_next_logits(const gpt_params_t *p, const gpt_config_t *c, const int *tokens,
                    int n, gpt_work_t *w, float *logits) {
    if (n < 1 || n > c->T_max) return -1;
    for (int t = 0; t < n; t++) {
        if (tokens[t] < 0 || tokens[t] >= c->V) return -1;
        w->inp[t] = tokens[t];
    }
    w->B = 0, w->T = 0;   // no backward after this forward
    forward_rows(p, c, w, 1, n);
    memcpy(logits, w->logits + (long)(n - 1) * c->V, (size_t)c->V * sizeof(float));
    return 0;
}

struct gpt_cache {
    gpt_config_t c;
    int len;
    float *k[GPT_MAX_LAYERS], *v[GPT_MAX_LAYERS];   // (T_max, NKV HS) each
    float *x, *a, *q, *o, *h, *act, *att, *tmp;     // one row's buffers
    float rstd;
    float *block;
};

gpt_cache_t *gpt_cache_new(const gpt_config_t *c) {
    if (gpt_config_check(c)) return NULL;
    long C = c->C, HS = C / c->NH, qC = c->NH * HS, kvC = c->NKV * HS;
    long total = 2L * c->L * c->T_max * kvC + 4 * C + 2 * qC + 3L * c->F + c->T_max;
    gpt_cache_t *k = calloc(1, sizeof *k);
    float *block = malloc((size_t)total * sizeof *block);
    if (!k || !block) {
        free(k), free(block);
        return NULL;
    }
    k->c = *c, k->block = block;
    float *at = block;
    for (int l = 0; l < c->L; l++)
        k->k[l] = take(&at, c->T_max * kvC), k->v[l] = take(&at, c->T_max * kvC);
    k->x = take(&at, C), k->a = take(&at, C);
    k->h = take(&at, C), k->tmp = take(&at, C);
    k->q = take(&at, qC), k->o = take(&at, qC);
    k->act = take(&at, 3L * c->F), k->att = take(&at, c->T_max);
    return k;
}

void gpt_cache_free(gpt_cache_t *k) {
    if (!k) return;
    free(k->block);
    free(k);
}

void gpt_cache_reset(gpt_cache_t *k) { k->len = 0; }
int gpt_cache_len(const gpt_cache_t *k) { return k->len; }

// snippet: gpt_cache_attend
// Query row q (NH HS) of position t against the cached keys and values 0..t
// -> o (NH HS): gqa_forward's arithmetic for one row, in its order.
static void attend_row(const gpt_config_t *c, const float *q, const float *kc,
                       const float *vc, int t, float *att, float *o) {
    int HS = c->C / c->NH, group = c->NH / c->NKV, kvC = c->NKV * HS;
    float scale = 1.0f / sqrtf((float)HS);
    for (int h = 0; h < c->NH; h++) {
        int hk = h / group;
        const float *q_t = q + h * HS;
        float max = -INFINITY;
        for (int t2 = 0; t2 <= t; t2++) {
            const float *k_t2 = kc + (long)t2 * kvC + hk * HS;
            float dot = 0.0f;
            for (int i = 0; i < HS; i++) dot += q_t[i] * k_t2[i];
            att[t2] = dot * scale;
            if (att[t2] > max) max = att[t2];
        }
        double sum = 0.0;
        for (int t2 = 0; t2 <= t; t2++) {
            att[t2] = expf(att[t2] - max);
            sum += att[t2];
        }
        for (int t2 = 0; t2 <= t; t2++) att[t2] = (float)(att[t2] / sum);
        float *o_t = o + h * HS;
        for (int i = 0; i < HS; i++) o_t[i] = 0.0f;
        for (int t2 = 0; t2 <= t; t2++) {
            const float *v_t2 = vc + (long)t2 * kvC + hk * HS;
            for (int i = 0; i < HS; i++) o_t[i] += att[t2] * v_t2[i];
        }
    }
}
// end snippet

// One block for the row k->x at position t: gpt_forward's arithmetic for that
// row (block_forward, or block_forward_post), its key and value into the cache.
static void cache_block(const gpt_params_t *p, const gpt_config_t *c, gpt_cache_t *k,
                        int l, int t) {
    int C = c->C, HS = C / c->NH, qC = c->NH * HS, kvC = c->NKV * HS;
    float *kr = k->k[l] + (long)t * kvC, *vr = k->v[l] + (long)t * kvC;
    const float *in = k->x;                          // post-norm reads the stream
    if (!c->post_norm) {
        rmsnorm_forward(k->a, &k->rstd, k->x, p->layer[l].n1, 1, C, RMSNORM_EPS);
        in = k->a;
    }
    memset(k->q, 0, (size_t)qC * sizeof(float));
    memset(kr, 0, (size_t)kvC * sizeof(float));
    memset(vr, 0, (size_t)kvC * sizeof(float));
    tmat_mul_acc(in, p->layer[l].wq, k->q, 1, C, qC);
    tmat_mul_acc(in, p->layer[l].wk, kr, 1, C, kvC);
    tmat_mul_acc(in, p->layer[l].wv, vr, 1, C, kvC);
    rope_rows_forward(k->q, 1, c->NH, HS, t, c->rope_base);
    rope_rows_forward(kr, 1, c->NKV, HS, t, c->rope_base);
    attend_row(c, k->q, k->k[l], k->v[l], t, k->att, k->o);
    tmat_mul_acc(k->o, p->layer[l].wo, k->x, 1, qC, C);       // x += o W_o
    const float *n_ffn = c->post_norm ? p->layer[l].n1 : p->layer[l].n2;
    rmsnorm_forward(k->h, &k->rstd, k->x, n_ffn, 1, C, RMSNORM_EPS);
    swiglu_forward(&p->layer[l].ffn, k->tmp, k->act, k->h, 1);
    if (!c->post_norm) {
        for (int i = 0; i < C; i++) k->x[i] = k->tmp[i] + k->x[i];
        return;
    }
    for (int i = 0; i < C; i++) k->tmp[i] = k->tmp[i] + k->h[i];
    rmsnorm_forward(k->x, &k->rstd, k->tmp, p->layer[l].n2, 1, C, RMSNORM_EPS);
}

int gpt_cache_step(const gpt_params_t *p, const gpt_config_t *c, gpt_cache_t *k,
                   int token, float *logits) {
    if (k->len >= c->T_max || token < 0 || token >= c->V) return -1;
    int C = c->C;
    tied_embed_forward(k->x, &token, p->wte, 1, c->V, C);
    for (int l = 0; l < c->L; l++) cache_block(p, c, k, l, k->len);
    rmsnorm_forward(k->a, &k->rstd, k->x, p->nf, 1, C, RMSNORM_EPS);
    tied_logits_forward(logits, k->a, p->wte, 1, c->V, C);
    k->len++;
    return 0;
}

// snippet: gpt_sample
int gpt_sample(const float *logits, int V, float temperature, int top_k, float top_p,
               rng_t *rng, float *scratch) {
    if (V < 1) return -1;
    int best = 0;
    for (int i = 1; i < V; i++)
        if (logits[i] > logits[best]) best = i;
    if (!(temperature > 0.0f)) return best;               // greedy
    float *prob = scratch, *kept = scratch + V;
    double sum = 0.0;
    for (int i = 0; i < V; i++) {
        prob[i] = expf((logits[i] - logits[best]) / temperature);
        sum += prob[i];
    }
    for (int i = 0; i < V; i++) prob[i] = (float)(prob[i] / sum), kept[i] = prob[i];
    // Keep tokens while fewer than top_k have been kept and the kept mass is
    // below top_p: repeatedly take the most probable token not yet taken.
    int k_max = top_k > 0 && top_k < V ? top_k : V, n_kept = 0;
    double mass = 0.0;
    for (int i = 0; i < V; i++) prob[i] = -prob[i] - 1.0f;   // negative: not taken
    while (n_kept < k_max && mass < top_p) {
        int m = -1;
        for (int i = 0; i < V; i++)
            if (prob[i] < 0.0f && (m < 0 || kept[i] > kept[m])) m = i;
        prob[m] = kept[m];                                    // taken
        mass += kept[m], n_kept++;
    }
    // draw from the taken tokens, renormalised
    double u = rng_uniform(rng) * mass, acc = 0.0;
    int last = best;
    for (int i = 0; i < V; i++) {
        if (prob[i] < 0.0f) continue;
        acc += prob[i], last = i;
        if (u < acc) return i;
    }
    return last;
}
// end snippet

double gpt_model_forward(void *model, const void *batch, int *count) {
    gpt_model_t *m = model;
    return gpt_forward(&m->p, &m->cfg, batch, m->work, count);
}

int gpt_model_backward(void *model, const void *batch, float scale) {
    gpt_model_t *m = model;
    return gpt_backward(&m->p, &m->g, &m->cfg, batch, m->work, scale);
}

// Write v as 4 little-endian bytes.
static int put_u32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                          (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    return fwrite(b, 1, 4, f) == 4 ? 0 : -1;
}

// snippet: gpt_save
// The weights file: the 8 bytes "GPTC10\0\0", then int32 V C L NH NKV F T_max
// and the float32 RoPE base, then the gpt_param_count floats in gpt_bind's
// order (wte; per layer n1 wq wk wv wo n2 w1 w3 w2; nf), each matrix row-major
// (in, out). Every number little-endian.
int gpt_save(FILE *f, const gpt_config_t *c, const float *buf) {
    long n = gpt_param_count(c);
    if (n < 0 || c->post_norm) return -1;
    int bad = fwrite("GPTC10\0\0", 1, 8, f) != 8;
    int32_t head[7] = {c->V, c->C, c->L, c->NH, c->NKV, c->F, c->T_max};
    for (int i = 0; i < 7; i++) bad |= put_u32(f, (uint32_t)head[i]);
    float base = (float)c->rope_base;
    uint32_t u;
    memcpy(&u, &base, 4);
    bad |= put_u32(f, u);
    for (long i = 0; i < n && !bad; i++) {
        memcpy(&u, buf + i, 4);
        bad |= put_u32(f, u);
    }
    return bad ? -1 : 0;
}
// end snippet
