// int sampling_top_p(probs (V,) in place, V, p)
#include "data/sampling.h"
#include "call.h"

#ifdef GRADER_JUDGE
int sampling_top_p(float *probs, int v, double p) {
    grader_arg a[] = {G_BUF(probs, GN(v)), G_INT(v), G_REAL(p)};
    return (int)grader_call("sampling_top_p", a, 3).i;
}
#else
GRADER_SHIM(sampling_top_p) {
    ret->i = sampling_top_p(a[0].p, (int)a[1].i, a[2].d);
}
#endif
