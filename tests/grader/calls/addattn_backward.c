// void addattn_backward(d {t_len T, b B, sd S, k K, a A}, s (B, S), w_a (S, A),
//   v (A,), ann (T, B, K), fw {alpha (B, T), th (T, B, A)}, dc (B, K),
//   g {ds (B, S), dw_a (S, A), dv (A,), dkeys (T, B, A), dann (T, B, K)},
//   work (B (T + A)))
#include "call.h"
#include "layers/additive.h"

#ifdef GRADER_JUDGE
void addattn_backward(const addattn_dims_t *d, const float *s, const float *w_a,
                      const float *v, const float *ann, const addattn_out_t *fw,
                      const float *dc, addattn_grads_t *g, float *work) {
    size_t T = GN(d->t_len), B = GN(d->b), S = GN(d->sd), K = GN(d->k), A = GN(d->a);
    grader_arg a[] = {G_INT(d->t_len),
                      G_INT(d->b),
                      G_INT(d->sd),
                      G_INT(d->k),
                      G_INT(d->a),
                      G_CBUF(s, B * S),
                      G_CBUF(w_a, S * A),
                      G_CBUF(v, A),
                      G_CBUF(ann, T * B * K),
                      G_CBUF(fw->alpha, B * T),
                      G_CBUF(fw->th, T * B * A),
                      G_CBUF(dc, B * K),
                      G_BUF(g->ds, B * S),
                      G_BUF(g->dw_a, S * A),
                      G_BUF(g->dv, A),
                      G_BUF(g->dkeys, T * B * A),
                      G_BUF(g->dann, T * B * K),
                      G_BUF(work, B * (T + A))};
    grader_call("addattn_backward", a, 18);
}
#else
GRADER_SHIM(addattn_backward) {
    (void)ret;
    addattn_dims_t d = {(int)a[0].i, (int)a[1].i, (int)a[2].i, (int)a[3].i,
                        (int)a[4].i};
    addattn_out_t fw = {a[9].p, NULL, a[10].p};
    addattn_grads_t g = {a[12].p, a[13].p, a[14].p, a[15].p, a[16].p};
    addattn_backward(&d, a[5].p, a[6].p, a[7].p, a[8].p, &fw, a[11].p, &g, a[17].p);
}
#endif
