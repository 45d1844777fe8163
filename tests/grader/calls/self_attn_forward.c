// void self_attn_forward(p, x (n, d_model), mask (n, n) or NULL, q, k (n, d_k),
//                        v (n, d_v), weights (n, n), out (n, d_v), n)
#include "attention/self_attention.h"
#include "call.h"

#ifdef GRADER_JUDGE
void self_attn_forward(const self_attn_params_t *p, const float *x,
                       const unsigned char *mask, float *q, float *k, float *v,
                       float *weights, float *out, int n) {
    size_t dm = GN(p->d_model), dk = GN(p->d_k), dv = GN(p->d_v), nn = GN(n);
    grader_arg a[] = {G_INT(p->d_model),
                      G_INT(p->d_k),
                      G_INT(p->d_v),
                      G_CBUF(p->w_q, dm * dk),
                      G_CBUF(p->w_k, dm * dk),
                      G_CBUF(p->w_v, dm * dv),
                      G_CBUF(p->b_q, dk),
                      G_CBUF(p->b_k, dk),
                      G_CBUF(p->b_v, dv),
                      G_CBUF(x, nn * dm),
                      G_CBUF(mask, nn * nn),
                      G_BUF(q, nn * dk),
                      G_BUF(k, nn * dk),
                      G_BUF(v, nn * dv),
                      G_BUF(weights, nn * nn),
                      G_BUF(out, nn * dv),
                      G_INT(n)};
    grader_call("self_attn_forward", a, 17);
}
#else
GRADER_SHIM(self_attn_forward) {
    (void)ret;
    self_attn_params_t p = {(int)a[0].i, (int)a[1].i, (int)a[2].i, a[3].p, a[4].p,
                            a[5].p,      a[6].p,      a[7].p,      a[8].p};
    self_attn_forward(&p, a[9].p, a[10].p, a[11].p, a[12].p, a[13].p, a[14].p, a[15].p,
                      (int)a[16].i);
}
#endif
