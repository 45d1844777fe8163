// double smooth_xent_forward(logits (N, V), targets (N,), probs (N, V) out, N, V,
//   ignore, eps, count (1,) out)
#include "train/smooth.h"
#include "call.h"

#ifdef GRADER_JUDGE
double smooth_xent_forward(const float *logits, const int *targets, float *probs, int n,
                           int v, int ignore, float eps, int *count) {
    grader_arg a[] = {G_CBUF(logits, GN(n) * GN(v)), G_CBUF(targets, GN(n)),
                      G_BUF(probs, GN(n) * GN(v)), G_INT(n), G_INT(v), G_INT(ignore),
                      G_REAL(eps), G_BUF(count, 1)};
    return grader_call("smooth_xent_forward", a, 8).d;
}
#else
GRADER_SHIM(smooth_xent_forward) {
    ret->d = smooth_xent_forward(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
                                 (int)a[5].i, (float)a[6].d, a[7].p);
}
#endif
