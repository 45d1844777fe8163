// int mask_reach(mask (n, n), n, layers, reach (n, n))
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
int mask_reach(const unsigned char *mask, int n, int layers, unsigned char *reach) {
    size_t nn = GN(n) * GN(n);
    grader_arg a[] = {G_CBUF(mask, nn), G_INT(n), G_INT(layers), G_BUF(reach, nn)};
    return (int)grader_call("mask_reach", a, 4).i;
}
#else
GRADER_SHIM(mask_reach) {
    ret->i = mask_reach(a[0].p, (int)a[1].i, (int)a[2].i, a[3].p);
}
#endif
