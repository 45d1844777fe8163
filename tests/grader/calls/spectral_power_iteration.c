// int spectral_power_iteration(a (n, n), n, left, x (n,), max_iter, tol, lambda)
#include "attention/spectral.h"
#include "call.h"

#ifdef GRADER_JUDGE
int spectral_power_iteration(const float *a_, int n, int left, double *x, int max_iter,
                             double tol, double *lambda) {
    grader_arg a[] = {G_CBUF(a_, GN(n) * GN(n)), G_INT(n), G_INT(left), G_BUF(x, GN(n)),
                      G_INT(max_iter), G_REAL(tol), G_BUF(lambda, 1)};
    return (int)grader_call("spectral_power_iteration", a, 7).i;
}
#else
GRADER_SHIM(spectral_power_iteration) {
    ret->i = spectral_power_iteration(a[0].p, (int)a[1].i, (int)a[2].i, a[3].p,
                                      (int)a[4].i, a[5].d, a[6].p);
}
#endif
