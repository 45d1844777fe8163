// int mask_is_transitive(mask (n, n), n)
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
int mask_is_transitive(const unsigned char *mask, int n) {
    grader_arg a[] = {G_CBUF(mask, GN(n) * GN(n)), G_INT(n)};
    return (int)grader_call("mask_is_transitive", a, 2).i;
}
#else
GRADER_SHIM(mask_is_transitive) {
    ret->i = mask_is_transitive(a[0].p, (int)a[1].i);
}
#endif
