// void sagrad_scores(a (n, m), v (m, d_v), dout (n, d_v), ds (n, m) out, n, m, d_v,
//   scale)
#include "attention/sa_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
void sagrad_scores(const float *a, const float *v, const float *dout, float *ds,
                   int n, int m, int d_v, float scale) {
    grader_arg g[] = {G_CBUF(a, GN(n) * GN(m)),     G_CBUF(v, GN(m) * GN(d_v)),
                      G_CBUF(dout, GN(n) * GN(d_v)), G_BUF(ds, GN(n) * GN(m)),
                      G_INT(n), G_INT(m), G_INT(d_v), G_REAL(scale)};
    grader_call("sagrad_scores", g, 8);
}
#else
GRADER_SHIM(sagrad_scores) {
    (void)ret;
    sagrad_scores(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i,
                  (int)a[6].i, (float)a[7].d);
}
#endif
