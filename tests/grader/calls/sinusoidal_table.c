// int sinusoidal_table(pe (n, d), n, d, pos0, base)
#include "position/sinusoidal.h"
#include "call.h"

#ifdef GRADER_JUDGE
int sinusoidal_table(float *pe, int n, int d, long pos0, double base) {
    grader_arg a[] = {G_BUF(pe, GN(n) * GN(d)), G_INT(n), G_INT(d), G_INT(pos0),
                      G_REAL(base)};
    return (int)grader_call("sinusoidal_table", a, 5).i;
}
#else
GRADER_SHIM(sinusoidal_table) {
    ret->i = sinusoidal_table(a[0].p, (int)a[1].i, (int)a[2].i, (long)a[3].i, a[4].d);
}
#endif
