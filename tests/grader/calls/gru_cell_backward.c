// void gru_cell_backward(p, g, x (B, D), h (B, H), cache (B, 4H), dh_out (B, H),
//                        dx (B, D) or NULL, dh (B, H), work (B, 6H), b)
#include "layers/gru.h"
#include "call.h"

#ifdef GRADER_JUDGE
void gru_cell_backward(const gru_params_t *p, gru_params_t *g, const float *x,
                       const float *h, const float *cache, const float *dh_out,
                       float *dx, float *dh, float *work, int b) {
    size_t d = GN(p->d_in), hh = GN(p->h), bb = GN(b);
    grader_arg a[] = {
        G_INT(p->d_in),           G_INT(p->h),
        G_CBUF(p->w_ih, d * 3 * hh), G_CBUF(p->w_hh, hh * 3 * hh),
        G_CBUF(p->b_ih, 3 * hh),  G_CBUF(p->b_hh, 3 * hh),
        G_BUF(g->w_ih, d * 3 * hh), G_BUF(g->w_hh, hh * 3 * hh),
        G_BUF(g->b_ih, 3 * hh),   G_BUF(g->b_hh, 3 * hh),
        G_CBUF(x, bb * d),        G_CBUF(h, bb * hh),
        G_CBUF(cache, bb * GRU_CACHE_PER_ROW * hh), G_CBUF(dh_out, bb * hh),
        G_BUF(dx, bb * d),        G_BUF(dh, bb * hh),
        G_BUF(work, bb * GRU_CELL_WORK_PER_ROW * hh), G_INT(b)};
    grader_call("gru_cell_backward", a, 18);
}
#else
GRADER_SHIM(gru_cell_backward) {
    (void)ret;
    gru_params_t p = {(int)a[0].i, (int)a[1].i, a[2].p, a[3].p, a[4].p, a[5].p};
    gru_params_t g = {(int)a[0].i, (int)a[1].i, a[6].p, a[7].p, a[8].p, a[9].p};
    gru_cell_backward(&p, &g, a[10].p, a[11].p, a[12].p, a[13].p, a[14].p, a[15].p,
                      a[16].p, (int)a[17].i);
}
#endif
