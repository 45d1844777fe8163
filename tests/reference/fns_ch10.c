// fns_ch10.c -- reference-driver wrappers for chapter 10's new layers:
// layers/rmsnorm.h, layers/swiglu.h, position/rope_rows.h, layers/gqa.h and
// layers/tied_embed.h. A backward wrapper runs the forward pass itself, takes
// dL/dout as its last input and writes gradients that start from zero.
#include <string.h>

#include "driver.h"
#include "layers/gqa.h"
#include "layers/rmsnorm.h"
#include "layers/swiglu.h"
#include "layers/tied_embed.h"
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

const ref_entry REF_fns_ch10[] = {
    ENTRY(rmsnorm_forward),      ENTRY(rmsnorm_backward),     ENTRY(swiglu_forward),
    ENTRY(swiglu_backward),      ENTRY(rope_rows_forward),    ENTRY(rope_rows_backward),
    ENTRY(gqa_forward),          ENTRY(gqa_backward),         ENTRY(tied_embed_forward),
    ENTRY(tied_logits_forward),  ENTRY(tied_logits_backward), ENTRY(tied_both_backward),
    {0}};
