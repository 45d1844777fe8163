// attend_row_backward(q (d_k,), k, v (n_keys rows of stride floats), stride, n_keys,
//   d_k, a (n_keys,), dctx (d_k,), dq (d_k,), dk, dv (as k)): static in
//   transformer.c, which grade.sh compiles with it made visible (both sides).
#include "call.h"

void attend_row_backward(const float *q, const float *k, const float *v, int stride,
                         int n_keys, int d_k, const float *a, const float *dctx,
                         float *dq, float *dk, float *dv);

#ifdef GRADER_JUDGE
void attend_row_backward(const float *q, const float *k, const float *v, int stride,
                         int n_keys, int d_k, const float *a_, const float *dctx,
                         float *dq, float *dk, float *dv) {
    size_t rows = n_keys > 0 ? (size_t)(n_keys - 1) * GN(stride) + GN(d_k) : 0;
    grader_arg a[] = {G_CBUF(q, GN(d_k)), G_CBUF(k, rows),      G_CBUF(v, rows),
                      G_INT(stride),      G_INT(n_keys),        G_INT(d_k),
                      G_CBUF(a_, GN(n_keys)), G_CBUF(dctx, GN(d_k)), G_BUF(dq, GN(d_k)),
                      G_BUF(dk, rows),    G_BUF(dv, rows)};
    grader_call("attend_row_backward", a, 11);
}
#else
GRADER_SHIM(attend_row_backward) {
    (void)ret;
    attend_row_backward(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i, (int)a[5].i,
                        a[6].p, a[7].p, a[8].p, a[9].p, a[10].p);
}
#endif
