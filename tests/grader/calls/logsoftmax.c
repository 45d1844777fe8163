// void logsoftmax(x (n,) in place, n)
#include "attention/logsoftmax.h"
#include "call.h"

#ifdef GRADER_JUDGE
void logsoftmax(float *x, int n) {
    grader_arg a[] = {G_BUF(x, GN(n)), G_INT(n)};
    grader_call("logsoftmax", a, 2);
}
#else
GRADER_SHIM(logsoftmax) {
    (void)ret;
    logsoftmax(a[0].p, (int)a[1].i);
}
#endif
