// int dropout_forward(x (n,), y (n,), keep (n,) or NULL, n, p, rng)
#include "attention/dropout.h"
#include "call.h"

#ifdef GRADER_JUDGE
int dropout_forward(const float *x, float *y, unsigned char *keep, int n, float p,
                    rng_t *rng) {
    grader_arg a[] = {G_CBUF(x, GN(n)), G_BUF(y, GN(n)), G_BUF(keep, GN(n)),
                      G_INT(n),         G_REAL(p),       G_BUF(rng, 1)};
    return (int)grader_call("dropout_forward", a, 6).i;
}
#else
GRADER_SHIM(dropout_forward) {
    ret->i =
        dropout_forward(a[0].p, a[1].p, a[2].p, (int)a[3].i, (float)a[4].d, a[5].p);
}
#endif
