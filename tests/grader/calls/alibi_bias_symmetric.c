// void alibi_bias_symmetric(bias (n, n) out, n, slope)
#include "position/alibi.h"
#include "call.h"

#ifdef GRADER_JUDGE
void alibi_bias_symmetric(float *bias, int n, float slope) {
    grader_arg a[] = {G_BUF(bias, GN(n) * GN(n)), G_INT(n), G_REAL(slope)};
    grader_call("alibi_bias_symmetric", a, 3);
}
#else
GRADER_SHIM(alibi_bias_symmetric) {
    (void)ret;
    alibi_bias_symmetric(a[0].p, (int)a[1].i, (float)a[2].d);
}
#endif
