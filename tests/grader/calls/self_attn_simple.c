// void self_attn_simple(x (n, d), mask (n, n) or NULL, out (n, d), weights (n, n), n,
// d)
#include "attention/self_attention.h"
#include "call.h"

#ifdef GRADER_JUDGE
void self_attn_simple(const float *x, const unsigned char *mask, float *out,
                      float *weights, int n, int d) {
    size_t nd = GN(n) * GN(d), nn = GN(n) * GN(n);
    grader_arg a[] = {G_CBUF(x, nd),      G_CBUF(mask, nn), G_BUF(out, nd),
                      G_BUF(weights, nn), G_INT(n),         G_INT(d)};
    grader_call("self_attn_simple", a, 6);
}
#else
GRADER_SHIM(self_attn_simple) {
    (void)ret;
    self_attn_simple(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i, (int)a[5].i);
}
#endif
