// int rope_apply_half(x (n, d), n, d, pos0, base)
#include "position/rope.h"
#include "call.h"

#ifdef GRADER_JUDGE
int rope_apply_half(float *x, int n, int d, long pos0, double base) {
    grader_arg a[] = {G_BUF(x, GN(n) * GN(d)), G_INT(n), G_INT(d), G_INT(pos0),
                      G_REAL(base)};
    return (int)grader_call("rope_apply_half", a, 5).i;
}
#else
GRADER_SHIM(rope_apply_half) {
    ret->i = rope_apply_half(a[0].p, (int)a[1].i, (int)a[2].i, (long)a[3].i, a[4].d);
}
#endif
