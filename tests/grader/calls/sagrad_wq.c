// int sagrad_wq(in {n, d_model, d_k, d_v, causal, x (n, d_model), w_q, w_k
//   (d_model, d_k), w_v (d_model, d_v)}, dout (n, d_v), dwq (d_model, d_k) +=)
#include "attention/sa_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
int sagrad_wq(const sagrad_in_t *in, const float *dout, float *dwq) {
    size_t n = GN(in->n), dm = GN(in->d_model), dk = GN(in->d_k), dv = GN(in->d_v);
    grader_arg a[] = {G_INT(in->n),   G_INT(in->d_model),   G_INT(in->d_k),
                      G_INT(in->d_v), G_INT(in->causal),    G_CBUF(in->x, n * dm),
                      G_CBUF(in->w_q, dm * dk), G_CBUF(in->w_k, dm * dk),
                      G_CBUF(in->w_v, dm * dv), G_CBUF(dout, n * dv),
                      G_BUF(dwq, dm * dk)};
    return (int)grader_call("sagrad_wq", a, 11).i;
}
#else
GRADER_SHIM(sagrad_wq) {
    const sagrad_in_t in = {(int)a[0].i, (int)a[1].i, (int)a[2].i, (int)a[3].i,
                            (int)a[4].i, a[5].p, a[6].p, a[7].p, a[8].p};
    ret->i = sagrad_wq(&in, a[9].p, a[10].p);
}
#endif
