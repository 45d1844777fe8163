// int layernorm_forward(x (n, d), gamma (d,), beta (d,), y (n, d), n, d, eps)
#include "layers/layernorm.h"
#include "call.h"

#ifdef GRADER_JUDGE
int layernorm_forward(const float *x, const float *gamma, const float *beta, float *y,
                      int n, int d, float eps) {
    size_t nd = GN(n) * GN(d);
    grader_arg a[] = {G_CBUF(x, nd), G_CBUF(gamma, GN(d)), G_CBUF(beta, GN(d)),
                      G_BUF(y, nd),  G_INT(n),             G_INT(d), G_REAL(eps)};
    return (int)grader_call("layernorm_forward", a, 7).i;
}
#else
GRADER_SHIM(layernorm_forward) {
    ret->i = layernorm_forward(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i,
                               (float)a[6].d);
}
#endif
