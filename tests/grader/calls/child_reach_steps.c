// int child_reach_steps(mask (n, n), n, steps (n, n) out)
#include "call.h"
#include "variants/child.h"

#ifdef GRADER_JUDGE
int child_reach_steps(const unsigned char *mask, int n, int *steps) {
    grader_arg a[] = {G_CBUF(mask, GN(n) * GN(n)), G_INT(n),
                      G_BUF(steps, GN(n) * GN(n))};
    return (int)grader_call("child_reach_steps", a, 3).i;
}
#else
GRADER_SHIM(child_reach_steps) {
    ret->i = child_reach_steps(a[0].p, (int)a[1].i, a[2].p);
}
#endif
