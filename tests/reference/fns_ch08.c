// fns_ch08.c -- reference wrappers for chapter 8's training layers.
#include <string.h>

#include "driver.h"
#include "layers/embedding.h"
#include "layers/gru.h"
#include "train/xent.h"

// ins: x, h, w_ih, w_hh, b_ih, b_hh, (dh_out); ints b, d, h
static gru_params_t gru_from(call *c, int k, int d, int h) {
    return (gru_params_t){.d_in = d, .h = h, .w_ih = IN(k), .w_hh = IN(k + 1),
                          .b_ih = IN(k + 2), .b_hh = IN(k + 3)};
}

FN(gru_cell_forward) {
    int b = I(0), d = I(1), h = I(2);
    gru_params_t p = gru_from(c, 2, d, h);
    float *cache = scratch(c, sizeof(float) * b * 4 * h);
    float *work = scratch(c, sizeof(float) * b * 6 * h);
    gru_cell_forward(&p, IN(0), IN(1), OUT(0), cache, work, b);
    return 0;
}

FN(gru_cell_backward) {
    int b = I(0), d = I(1), h = I(2);
    gru_params_t p = gru_from(c, 2, d, h);
    float *cache = scratch(c, sizeof(float) * b * 4 * h);
    float *work = scratch(c, sizeof(float) * b * 6 * h);
    float *h_out = scratch(c, sizeof(float) * b * h);
    gru_cell_forward(&p, IN(0), IN(1), h_out, cache, work, b);
    for (int k = 0; k < 6; k++) memset(OUT(k), 0, sizeof(float) * c->out_len[k]);
    gru_params_t g = {.d_in = d, .h = h, .w_ih = OUT(2), .w_hh = OUT(3), .b_ih = OUT(4),
                      .b_hh = OUT(5)};
    gru_cell_backward(&p, &g, IN(0), IN(1), cache, IN(6), OUT(0), OUT(1), work, b);
    return 0;
}

// ins: x (T, B, D), mask (B, T) as floats, forward params, backward params,
// (dout); ints t, b, d, h. Padded positions of the output are set to 0, as
// torch's pad_packed_sequence gives them.
typedef struct {
    bigru_seq_t seq;
    float *work;
} bigru_ws;

static bigru_ws bigru_run(call *c, gru_params_t *pf, gru_params_t *pb,
                          unsigned char **mask, float *out) {
    int t = I(0), b = I(1), d = I(2), h = I(3);
    *pf = gru_from(c, 2, d, h);
    *pb = gru_from(c, 6, d, h);
    *mask = MASK(1);
    bigru_ws w = {{IN(0), *mask, scratch(c, sizeof(float) * t * b * h),
                   scratch(c, sizeof(float) * t * b * h),
                   scratch(c, sizeof(float) * t * b * 4 * h),
                   scratch(c, sizeof(float) * t * b * 4 * h), t, b},
                  scratch(c, sizeof(float) * b * 9 * h)};
    bigru_forward(pf, pb, &w.seq, out, w.work);
    return w;
}

FN(bigru_forward) {
    int t = I(0), b = I(1), h = I(3);
    gru_params_t pf, pb;
    unsigned char *mask;
    bigru_run(c, &pf, &pb, &mask, OUT(0));
    for (int s = 0; s < t; s++)
        for (int i = 0; i < b; i++)
            if (!mask[i * t + s]) memset(OUT(0) + ((size_t)s * b + i) * 2 * h, 0,
                                         sizeof(float) * 2 * h);
    return 0;
}

FN(bigru_backward) {
    int t = I(0), b = I(1), d = I(2), h = I(3);
    gru_params_t pf, pb;
    unsigned char *mask;
    float *out = scratch(c, sizeof(float) * t * b * 2 * h);
    bigru_ws w = bigru_run(c, &pf, &pb, &mask, out);
    float *dout = scratch(c, sizeof(float) * t * b * 2 * h);
    memcpy(dout, IN(10), sizeof(float) * t * b * 2 * h);
    for (int s = 0; s < t; s++)      // the loss reads visible positions only
        for (int i = 0; i < b; i++)
            if (!mask[i * t + s]) memset(dout + ((size_t)s * b + i) * 2 * h, 0,
                                         sizeof(float) * 2 * h);
    for (int k = 0; k < 9; k++) memset(OUT(k), 0, sizeof(float) * c->out_len[k]);
    gru_params_t gf = {.d_in = d,
                       .h = h,
                       .w_ih = OUT(1),
                       .w_hh = OUT(2),
                       .b_ih = OUT(3),
                       .b_hh = OUT(4)};
    gru_params_t gb = {.d_in = d,
                       .h = h,
                       .w_ih = OUT(5),
                       .w_hh = OUT(6),
                       .b_ih = OUT(7),
                       .b_hh = OUT(8)};
    float *dsplit = scratch(c, sizeof(float) * 2 * t * b * h);
    bigru_backward(&pf, &pb, &gf, &gb, &w.seq, dout, OUT(0), dsplit, w.work);
    return 0;
}

static int *ids_from(call *c, int k) {
    int n = (int)c->in_len[k];
    int *ids = scratch(c, sizeof(int) * (n ? n : 1));
    for (int i = 0; i < n; i++) ids[i] = (int)IN(k)[i];
    return ids;
}

FN(embedding_forward) {   // ins: table (V, E), ids (n,); ints n, v, e
    return embedding_forward(IN(0), ids_from(c, 1), OUT(0), I(0), I(1), I(2));
}

FN(embedding_backward) {  // ins: table, ids, dout
    memset(OUT(0), 0, sizeof(float) * c->out_len[0]);
    embedding_backward(ids_from(c, 1), IN(2), OUT(0), I(0), I(1), I(2));
    return 0;
}

FN(xent_forward) {        // ins: logits (n, v), targets (n,); ints n, v, ignore
    int count;
    double loss = xent_forward(IN(0), ids_from(c, 1), OUT(1), I(0), I(1), I(2), &count);
    OUT(0)[0] = (float)loss;
    OUT(2)[0] = (float)count;
    return 0;
}

FN(xent_backward) {       // reals: scale
    int count;
    float *probs = scratch(c, sizeof(float) * I(0) * I(1));
    const int *y = ids_from(c, 1);
    xent_forward(IN(0), y, probs, I(0), I(1), I(2), &count);
    memset(OUT(0), 0, sizeof(float) * c->out_len[0]);
    xent_backward(probs, y, OUT(0), I(0), I(1), I(2), (float)R(0));
    return 0;
}

const ref_entry REF_fns_ch08[] = {
    ENTRY(gru_cell_forward), ENTRY(gru_cell_backward), ENTRY(bigru_forward),
    ENTRY(bigru_backward),   ENTRY(embedding_forward), ENTRY(embedding_backward),
    ENTRY(xent_forward),     ENTRY(xent_backward),     {0},
};
