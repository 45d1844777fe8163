// int topk_forward(q (n, d_k), k (m, d_k), v (m, d_v), out (n, d_v), n, m, d_k, d_v,
//   top)
#include "call.h"
#include "variants/topk.h"

#ifdef GRADER_JUDGE
int topk_forward(const float *q, const float *k, const float *v, float *out, int n,
                 int m, int d_k, int d_v, int top) {
    grader_arg a[] = {G_CBUF(q, GN(n) * GN(d_k)), G_CBUF(k, GN(m) * GN(d_k)),
                      G_CBUF(v, GN(m) * GN(d_v)), G_BUF(out, GN(n) * GN(d_v)),
                      G_INT(n), G_INT(m), G_INT(d_k), G_INT(d_v), G_INT(top)};
    return (int)grader_call("topk_forward", a, 9).i;
}
#else
GRADER_SHIM(topk_forward) {
    ret->i = topk_forward(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i,
                          (int)a[6].i, (int)a[7].i, (int)a[8].i);
}
#endif
