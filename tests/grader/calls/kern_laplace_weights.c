// int kern_laplace_weights(x_query (n_q,), n_q, x_train (n_t,), n_t, h,
//   w (n_q, n_t) out)
#include "attention/kernels.h"
#include "call.h"

#ifdef GRADER_JUDGE
int kern_laplace_weights(const float *x_query, int n_q, const float *x_train,
                         int n_t, float h, float *w) {
    grader_arg a[] = {G_CBUF(x_query, GN(n_q)), G_INT(n_q), G_CBUF(x_train, GN(n_t)),
                      G_INT(n_t), G_REAL(h), G_BUF(w, GN(n_q) * GN(n_t))};
    return (int)grader_call("kern_laplace_weights", a, 6).i;
}
#else
GRADER_SHIM(kern_laplace_weights) {
    ret->i = kern_laplace_weights(a[0].p, (int)a[1].i, a[2].p, (int)a[3].i,
                                  (float)a[4].d, a[5].p);
}
#endif
