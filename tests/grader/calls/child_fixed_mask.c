// int child_fixed_mask(mask (n, n) out, n, l, c)
#include "call.h"
#include "variants/child.h"

#ifdef GRADER_JUDGE
int child_fixed_mask(unsigned char *mask, int n, int l, int c) {
    grader_arg a[] = {G_BUF(mask, GN(n) * GN(n)), G_INT(n), G_INT(l), G_INT(c)};
    return (int)grader_call("child_fixed_mask", a, 4).i;
}
#else
GRADER_SHIM(child_fixed_mask) {
    ret->i = child_fixed_mask(a[0].p, (int)a[1].i, (int)a[2].i, (int)a[3].i);
}
#endif
