// double smgrad_temperature(x (n,), dp (n,), n, t)
#include "attention/softmax_grad.h"
#include "call.h"

#ifdef GRADER_JUDGE
double smgrad_temperature(const float *x, const float *dp, int n, float t) {
    grader_arg a[] = {G_CBUF(x, GN(n)), G_CBUF(dp, GN(n)), G_INT(n), G_REAL(t)};
    return grader_call("smgrad_temperature", a, 4).d;
}
#else
GRADER_SHIM(smgrad_temperature) {
    ret->d = smgrad_temperature(a[0].p, a[1].p, (int)a[2].i, (float)a[3].d);
}
#endif
