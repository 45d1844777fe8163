// double smgrad_entropy(x (n,), dx (n,) out, n)
#include "attention/softmax_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
double smgrad_entropy(const float *x, float *dx, int n) {
    grader_arg a[] = {G_CBUF(x, GN(n)), G_BUF(dx, GN(n)), G_INT(n)};
    return grader_call("smgrad_entropy", a, 3).d;
}
#else
GRADER_SHIM(smgrad_entropy) {
    ret->d = smgrad_entropy(a[0].p, a[1].p, (int)a[2].i);
}
#endif
