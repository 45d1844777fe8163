// void logsoftmax_backward(y (n,), dy (n,), dx (n,) out, n); dx may alias dy
#include "attention/logsoftmax.h"
#include "call.h"

#ifdef GRADER_JUDGE
void logsoftmax_backward(const float *y, const float *dy, float *dx, int n) {
    if (dx == dy) {   // in place: one buffer travels, as dx
        grader_arg a[] = {G_CBUF(y, GN(n)), G_BUF(dx, GN(n)), G_INT(n), G_INT(1)};
        grader_call("logsoftmax_backward", a, 4);
        return;
    }
    grader_arg a[] = {G_CBUF(y, GN(n)), G_CBUF(dy, GN(n)), G_BUF(dx, GN(n)), G_INT(n)};
    grader_call("logsoftmax_backward", a, 4);
}
#else
GRADER_SHIM(logsoftmax_backward) {
    (void)ret;
    if (a[1].kind == GRADER_BUF)   // in place: dx arrived where dy would be
        logsoftmax_backward(a[0].p, a[1].p, a[1].p, (int)a[2].i);
    else
        logsoftmax_backward(a[0].p, a[1].p, a[2].p, (int)a[3].i);
}
#endif
