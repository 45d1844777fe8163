// int sampling_top_k(logits (V,) in place, V, k)
#include "data/sampling.h"
#include "call.h"

#ifdef GRADER_JUDGE
int sampling_top_k(float *logits, int v, int k) {
    grader_arg a[] = {G_BUF(logits, GN(v)), G_INT(v), G_INT(k)};
    return (int)grader_call("sampling_top_k", a, 3).i;
}
#else
GRADER_SHIM(sampling_top_k) {
    ret->i = sampling_top_k(a[0].p, (int)a[1].i, (int)a[2].i);
}
#endif
