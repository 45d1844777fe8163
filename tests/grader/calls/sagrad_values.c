// void sagrad_values(a (n, m), dout (n, d_v), dv (m, d_v) +=, n, m, d_v)
#include "attention/sa_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
void sagrad_values(const float *a, const float *dout, float *dv, int n, int m,
                   int d_v) {
    grader_arg g[] = {G_CBUF(a, GN(n) * GN(m)), G_CBUF(dout, GN(n) * GN(d_v)),
                      G_BUF(dv, GN(m) * GN(d_v)), G_INT(n), G_INT(m), G_INT(d_v)};
    grader_call("sagrad_values", g, 6);
}
#else
GRADER_SHIM(sagrad_values) {
    (void)ret;
    sagrad_values(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i, (int)a[5].i);
}
#endif
