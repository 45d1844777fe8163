// void sagrad_wv(x (n, d_model), a (n, n), dout (n, d_v), dwv (d_model, d_v) +=, n,
//   d_model, d_v)
#include "attention/sa_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
void sagrad_wv(const float *x, const float *a, const float *dout, float *dwv, int n,
               int d_model, int d_v) {
    grader_arg g[] = {G_CBUF(x, GN(n) * GN(d_model)), G_CBUF(a, GN(n) * GN(n)),
                      G_CBUF(dout, GN(n) * GN(d_v)),  G_BUF(dwv, GN(d_model) * GN(d_v)),
                      G_INT(n), G_INT(d_model), G_INT(d_v)};
    grader_call("sagrad_wv", g, 7);
}
#else
GRADER_SHIM(sagrad_wv) {
    (void)ret;
    sagrad_wv(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i, (int)a[6].i);
}
#endif
