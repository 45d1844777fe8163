// int bw_loo_predict(x (n,), y (n,), n, h, y_loo (n,) out)
#include "attention/bandwidth.h"
#include "call.h"

#ifdef GRADER_JUDGE
int bw_loo_predict(const float *x, const float *y, int n, float h, float *y_loo) {
    grader_arg a[] = {G_CBUF(x, GN(n)), G_CBUF(y, GN(n)), G_INT(n), G_REAL(h),
                      G_BUF(y_loo, GN(n))};
    return (int)grader_call("bw_loo_predict", a, 5).i;
}
#else
GRADER_SHIM(bw_loo_predict) {
    ret->i = bw_loo_predict(a[0].p, a[1].p, (int)a[2].i, (float)a[3].d, a[4].p);
}
#endif
