// int bw_predict_dh(x_query (n_q,), n_q, x_train (n_t,), y_train (n_t,), n_t, h,
//   dfdh (n_q,) out)
#include "attention/bandwidth.h"
#include "call.h"

#ifdef GRADER_JUDGE
int bw_predict_dh(const float *x_query, int n_q, const float *x_train,
                  const float *y_train, int n_t, float h, float *dfdh) {
    grader_arg a[] = {G_CBUF(x_query, GN(n_q)), G_INT(n_q), G_CBUF(x_train, GN(n_t)),
                      G_CBUF(y_train, GN(n_t)), G_INT(n_t), G_REAL(h),
                      G_BUF(dfdh, GN(n_q))};
    return (int)grader_call("bw_predict_dh", a, 7).i;
}
#else
GRADER_SHIM(bw_predict_dh) {
    ret->i = bw_predict_dh(a[0].p, (int)a[1].i, a[2].p, a[3].p, (int)a[4].i,
                           (float)a[5].d, a[6].p);
}
#endif
