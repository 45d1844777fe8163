// double metrics_token_accuracy(logits (N, V), targets (N,), N, V, ignore,
//   count (1,) out)
#include "train/metrics.h"
#include "call.h"

#ifdef GRADER_JUDGE
double metrics_token_accuracy(const float *logits, const int *targets, int n, int v,
                              int ignore, int *count) {
    grader_arg a[] = {G_CBUF(logits, GN(n) * GN(v)), G_CBUF(targets, GN(n)), G_INT(n),
                      G_INT(v), G_INT(ignore), G_BUF(count, 1)};
    return grader_call("metrics_token_accuracy", a, 6).d;
}
#else
GRADER_SHIM(metrics_token_accuracy) {
    ret->d = metrics_token_accuracy(a[0].p, a[1].p, (int)a[2].i, (int)a[3].i,
                                    (int)a[4].i, a[5].p);
}
#endif
