// void mask_band(mask (n, n), n, w)
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
void mask_band(unsigned char *mask, int n, int w) {
    grader_arg a[] = {G_BUF(mask, GN(n) * GN(n)), G_INT(n), G_INT(w)};
    grader_call("mask_band", a, 3);
}
#else
GRADER_SHIM(mask_band) {
    (void)ret;
    mask_band(a[0].p, (int)a[1].i, (int)a[2].i);
}
#endif
