// double metrics_exact_match(logits (B T, V), targets (B T,), B, T, V, ignore,
//   count (1,) out)
#include "train/metrics.h"
#include "call.h"

#ifdef GRADER_JUDGE
double metrics_exact_match(const float *logits, const int *targets, int b, int t, int v,
                           int ignore, int *count) {
    grader_arg a[] = {G_CBUF(logits, GN(b) * GN(t) * GN(v)), G_CBUF(targets, GN(b) * GN(t)),
                      G_INT(b), G_INT(t), G_INT(v), G_INT(ignore), G_BUF(count, 1)};
    return grader_call("metrics_exact_match", a, 7).d;
}
#else
GRADER_SHIM(metrics_exact_match) {
    ret->d = metrics_exact_match(a[0].p, a[1].p, (int)a[2].i, (int)a[3].i, (int)a[4].i,
                                 (int)a[5].i, a[6].p);
}
#endif
