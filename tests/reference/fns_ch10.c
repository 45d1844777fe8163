// fns_ch10.c -- reference-driver wrappers for chapter 10's new layers:
// layers/rmsnorm.h, layers/swiglu.h, position/rope_rows.h, layers/gqa.h and
// layers/tied_embed.h. A backward wrapper runs the forward pass itself, takes
// dL/dout as its last input and writes gradients that start from zero.
// The whole model (models/gpt.h) is called with its flat parameter buffer.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "layers/gqa.h"
#include "layers/rmsnorm.h"
#include "layers/swiglu.h"
#include "layers/tied_embed.h"
#include "models/gpt.h"
#include "position/rope_rows.h"

static float *zeroed(call *c, int k) {
    memset(OUT(k), 0, (size_t)c->out_len[k] * sizeof(float));
    return OUT(k);
}

static float *floats(call *c, long n) {
    return scratch(c, sizeof(float) * (size_t)(n > 0 ? n : 1));
}

static int *ids_in(call *c, int k) {
    long n = c->in_len[k];
    int *ids = scratch(c, sizeof(int) * (size_t)(n ? n : 1));
    for (long i = 0; i < n; i++) ids[i] = (int)IN(k)[i];
    return ids;
}

// ints N, C; reals eps; x, w, (dout) -> out, rstd
FN(rmsnorm_forward) {
    return rmsnorm_forward(OUT(0), OUT(1), IN(0), IN(1), I(0), I(1), (float)R(0));
}

// ints N, C; reals eps; x, w, dout -> dx, dw
FN(rmsnorm_backward) {
    int n = I(0), d = I(1);
    float *out = floats(c, (long)n * d), *rstd = floats(c, n);
    int rc = rmsnorm_forward(out, rstd, IN(0), IN(1), n, d, (float)R(0));
    if (rc == 0)
        rmsnorm_backward(zeroed(c, 0), zeroed(c, 1), IN(2), IN(0), IN(1), rstd, n, d);
    return rc;
}

static swiglu_params_t swiglu_in(call *c) {
    return (swiglu_params_t){
        .C = I(1), .F = I(2), .w1 = IN(1), .w3 = IN(2), .w2 = IN(3)};
}

// ints N, C, F; x, w1, w3, w2, (dout) -> out
FN(swiglu_forward) {
    swiglu_params_t p = swiglu_in(c);
    swiglu_forward(&p, OUT(0), floats(c, 3L * I(0) * p.F), IN(0), I(0));
    return 0;
}

// ints N, C, F; x, w1, w3, w2, dout -> dx, dw1, dw3, dw2
FN(swiglu_backward) {
    swiglu_params_t p = swiglu_in(c);
    int n = I(0);
    float *act = floats(c, 3L * n * p.F), *out = floats(c, (long)n * p.C);
    swiglu_params_t g = {.C = p.C, .F = p.F, .w1 = zeroed(c, 1), .w3 = zeroed(c, 2),
                         .w2 = zeroed(c, 3)};
    swiglu_forward(&p, out, act, IN(0), n);
    swiglu_backward(&p, &g, zeroed(c, 0), IN(4), IN(0), act, n,
                    floats(c, swiglu_scratch_floats(&p, n)));
    return 0;
}

// ints T, NH, HS, pos0; reals base; x, (dout) -> x turned
FN(rope_rows_forward) {
    return rope_rows_forward(copy_in(c, 0, 0), I(0), I(1), I(2), I(3), R(0));
}

// ints T, NH, HS, pos0; reals base; x, dout -> dx
FN(rope_rows_backward) {
    return rope_rows_backward(zeroed(c, 0), IN(1), I(0), I(1), I(2), I(3), R(0));
}

static gqa_shape_t gqa_in(call *c) {
    return (gqa_shape_t){I(0), I(1), I(2), I(3), I(4)};
}

// ints B, T, NH, NKV, HS; q, k, v, (dout) -> out, att
FN(gqa_forward) {
    gqa_shape_t s = gqa_in(c);
    return gqa_forward(&s, OUT(0), OUT(1), IN(0), IN(1), IN(2));
}

// ints B, T, NH, NKV, HS; q, k, v, dout -> dq, dk, dv
FN(gqa_backward) {
    gqa_shape_t s = gqa_in(c);
    float *out = floats(c, (long)s.B * s.T * s.NH * s.HS);
    float *att = floats(c, (long)s.B * s.NH * s.T * s.T);
    int rc = gqa_forward(&s, out, att, IN(0), IN(1), IN(2));
    if (rc == 0)
        rc = gqa_backward(&s, zeroed(c, 0), zeroed(c, 1), zeroed(c, 2), IN(3), IN(0),
                          IN(1), IN(2), att, floats(c, gqa_scratch_floats(&s)));
    return rc;
}

// ints N, V, C; wte, tokens, x, dlogits -> x = wte[tokens]
FN(tied_embed_forward) {
    return tied_embed_forward(OUT(0), ids_in(c, 1), IN(0), I(0), I(1), I(2));
}

// ints N, V, C; wte, tokens, x, dlogits -> logits = x wte^T
FN(tied_logits_forward) {
    tied_logits_forward(OUT(0), IN(2), IN(0), I(0), I(1), I(2));
    return 0;
}

// ints N, V, C; wte, tokens, x, dlogits -> dx, dwte
FN(tied_logits_backward) {
    tied_logits_backward(zeroed(c, 0), zeroed(c, 1), IN(3), IN(2), IN(0), I(0), I(1),
                         I(2));
    return 0;
}

// ints N, V, C; wte, tokens, x, dlogits -> dwte through both uses of the table:
// logits = wte[tokens] wte^T.
FN(tied_both_backward) {
    int n = I(0), v = I(1), d = I(2);
    int *tok = ids_in(c, 1);
    float *x = floats(c, (long)n * d), *dx = floats(c, (long)n * d);
    memset(dx, 0, sizeof(float) * (size_t)((long)n * d));
    int rc = tied_embed_forward(x, tok, IN(0), n, v, d);
    if (rc == 0) {
        float *dwte = zeroed(c, 0);
        tied_logits_backward(dx, dwte, IN(3), x, IN(0), n, v, d);
        tied_embed_backward(dwte, dx, tok, n, v, d);
    }
    return rc;
}

// ints V C L NH NKV F B T -> the config (B_max = B, T_max = T, RoPE base 1e4).
static gpt_config_t gpt_in(call *c) {
    return (gpt_config_t){.V = I(0), .C = I(1), .L = I(2), .NH = I(3), .NKV = I(4),
                          .F = I(5), .B_max = I(6), .T_max = I(7),
                          .rope_base = 10000.0};
}

// ints V C L NH NKV F B T; params (flat), tokens (B, T + 1) -> logits (B, T, V),
// summed loss (1,); post: the post-norm order
static int forward_case(call *c, int post) {
    gpt_config_t g = gpt_in(c);
    g.post_norm = post;
    gpt_params_t p;
    gpt_bind(&p, IN(0), &g);
    gpt_work_t *w = gpt_work_new(&g);
    if (!w) return -1;
    gpt_batch_t bt = {.B = g.B_max, .T = g.T_max, .tokens = ids_in(c, 1)};
    int count;
    OUT(1)[0] = (float)gpt_forward(&p, &g, &bt, w, &count);
    memcpy(OUT(0), gpt_logits(w), sizeof(float) * (size_t)c->out_len[0]);
    gpt_work_free(w);
    return count == g.B_max * g.T_max ? 0 : -1;
}

// ints V C L NH NKV F B T; params, tokens (B, T + 1) -> d(summed loss)/dparams
static int backward_case(call *c, int post) {
    gpt_config_t g = gpt_in(c);
    g.post_norm = post;
    gpt_params_t p, d;
    gpt_bind(&p, IN(0), &g);
    gpt_bind(&d, zeroed(c, 0), &g);
    gpt_work_t *w = gpt_work_new(&g);
    if (!w) return -1;
    gpt_batch_t bt = {.B = g.B_max, .T = g.T_max, .tokens = ids_in(c, 1)};
    int count;
    gpt_forward(&p, &g, &bt, w, &count);
    int rc = count > 0 ? gpt_backward(&p, &d, &g, &bt, w, 1.0f) : -1;
    gpt_work_free(w);
    return rc;
}

FN(gpt_forward) { return forward_case(c, 0); }
FN(gpt_backward) { return backward_case(c, 0); }
FN(gpt_post_forward) { return forward_case(c, 1); }
FN(gpt_post_backward) { return backward_case(c, 1); }

// ints V C L NH NKV F 1 T; params, prompt (P,), ints[8] = n new tokens ->
// greedy continuation with the KV cache: the logits of every position fed
// (P + n - 1, V) and the tokens (P + n,) as floats.
FN(gpt_greedy) {
    gpt_config_t g = gpt_in(c);
    gpt_params_t p;
    gpt_bind(&p, IN(0), &g);
    gpt_cache_t *k = gpt_cache_new(&g);
    if (!k) return -1;
    int np = (int)c->in_len[1], n = I(8), *tok = ids_in(c, 1), next = 0, rc = 0;
    for (int t = 0; t < np + n - 1 && rc == 0; t++) {
        int cur = t < np ? tok[t] : next;
        OUT(1)[t] = (float)cur;
        rc = gpt_cache_step(&p, &g, k, cur, OUT(0) + (long)t * g.V);
        next = gpt_sample(OUT(0) + (long)t * g.V, g.V, 0.0f, 0, 1.0f, NULL, NULL);
    }
    OUT(1)[np + n - 1] = (float)next;
    gpt_cache_free(k);
    return rc;
}

// ints V C L NH NKV F 1 T; params -> the bytes gpt_save writes, one per float
FN(gpt_save) {
    gpt_config_t g = gpt_in(c);
    FILE *f = tmpfile();
    if (!f) return -1;
    if (gpt_save(f, &g, IN(0)) != 0) {
        fclose(f);
        return -1;
    }
    rewind(f);
    long n = 0;
    int ch;
    while ((ch = fgetc(f)) != EOF && n < c->out_len[0]) OUT(0)[n++] = (float)ch;
    int extra = ch != EOF && fgetc(f) != EOF;
    fclose(f);
    return n == c->out_len[0] && !extra ? 0 : -1;
}

const ref_entry REF_fns_ch10[] = {
    ENTRY(rmsnorm_forward),      ENTRY(rmsnorm_backward),     ENTRY(swiglu_forward),
    ENTRY(swiglu_backward),      ENTRY(rope_rows_forward),    ENTRY(rope_rows_backward),
    ENTRY(gqa_forward),          ENTRY(gqa_backward),         ENTRY(tied_embed_forward),
    ENTRY(tied_logits_forward),  ENTRY(tied_logits_backward), ENTRY(tied_both_backward),
    ENTRY(gpt_forward),          ENTRY(gpt_backward),         ENTRY(gpt_post_forward),
    ENTRY(gpt_post_backward),    ENTRY(gpt_greedy),           ENTRY(gpt_save),
    {0}};
