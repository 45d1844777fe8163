// void mask_prefix_lm(mask (n, n) out, n, prefix)
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
void mask_prefix_lm(unsigned char *mask, int n, int prefix) {
    grader_arg a[] = {G_BUF(mask, GN(n) * GN(n)), G_INT(n), G_INT(prefix)};
    grader_call("mask_prefix_lm", a, 3);
}
#else
GRADER_SHIM(mask_prefix_lm) {
    (void)ret;
    mask_prefix_lm(a[0].p, (int)a[1].i, (int)a[2].i);
}
#endif
