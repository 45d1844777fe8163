// void smooth_xent_backward(probs (N, V), targets (N,), dlogits (N, V) +=, N, V,
//   ignore, eps, scale)
#include "train/smooth.h"
#include "call.h"

#ifdef GRADER_JUDGE
void smooth_xent_backward(const float *probs, const int *targets, float *dlogits, int n,
                          int v, int ignore, float eps, float scale) {
    grader_arg a[] = {G_CBUF(probs, GN(n) * GN(v)), G_CBUF(targets, GN(n)),
                      G_BUF(dlogits, GN(n) * GN(v)), G_INT(n), G_INT(v), G_INT(ignore),
                      G_REAL(eps), G_REAL(scale)};
    grader_call("smooth_xent_backward", a, 8);
}
#else
GRADER_SHIM(smooth_xent_backward) {
    (void)ret;
    smooth_xent_backward(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i, (int)a[5].i,
                         (float)a[6].d, (float)a[7].d);
}
#endif
