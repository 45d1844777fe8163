// softmax(float *x, int n): x (n,) in place.
#include "attention/softmax.h"
#include "call.h"

#ifdef GRADER_JUDGE
void softmax(float *x, int n) {
    grader_arg a[] = {G_BUF(x, n > 0 ? n : 0), G_INT(n)};
    grader_call("softmax", a, 2);
}
#else
GRADER_SHIM(softmax) {
    (void)ret;
    softmax(a[0].p, (int)a[1].i);
}
#endif
