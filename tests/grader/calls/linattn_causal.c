// int linattn_causal(q, k (n, d_k), v (n, d_v), out (n, d_v), n, d_k, d_v)
#include "variants/linear_attention.h"
#include "call.h"

#ifdef GRADER_JUDGE
int linattn_causal(const float *q, const float *k, const float *v, float *out, int n,
                   int d_k, int d_v) {
    size_t nk = GN(n) * GN(d_k), nv = GN(n) * GN(d_v);
    grader_arg a[] = {G_CBUF(q, nk), G_CBUF(k, nk), G_CBUF(v, nv), G_BUF(out, nv),
                      G_INT(n),      G_INT(d_k),    G_INT(d_v)};
    return (int)grader_call("linattn_causal", a, 7).i;
}
#else
GRADER_SHIM(linattn_causal) {
    ret->i = linattn_causal(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i,
                            (int)a[6].i);
}
#endif
