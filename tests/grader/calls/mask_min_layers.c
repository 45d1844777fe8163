// int mask_min_layers(mask (n, n), n, depth (n, n) out)
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
int mask_min_layers(const unsigned char *mask, int n, int *depth) {
    grader_arg a[] = {G_CBUF(mask, GN(n) * GN(n)), G_INT(n), G_BUF(depth, GN(n) * GN(n))};
    return (int)grader_call("mask_min_layers", a, 3).i;
}
#else
GRADER_SHIM(mask_min_layers) {
    ret->i = mask_min_layers(a[0].p, (int)a[1].i, a[2].p);
}
#endif
