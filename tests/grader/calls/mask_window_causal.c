// void mask_window_causal(mask (n, n) out, n, w)
#include "masks/mask.h"
#include "call.h"

#ifdef GRADER_JUDGE
void mask_window_causal(unsigned char *mask, int n, int w) {
    grader_arg a[] = {G_BUF(mask, GN(n) * GN(n)), G_INT(n), G_INT(w)};
    grader_call("mask_window_causal", a, 3);
}
#else
GRADER_SHIM(mask_window_causal) {
    (void)ret;
    mask_window_causal(a[0].p, (int)a[1].i, (int)a[2].i);
}
#endif
