// int beam_search(logp (V, V), V, start, end, beam, max_len, out (max_len,) out,
//   score (1,) out)
#include "data/beam.h"
#include "call.h"

#ifdef GRADER_JUDGE
int beam_search(const float *logp, int v, int start, int end, int beam, int max_len,
                int *out, double *score) {
    grader_arg a[] = {G_CBUF(logp, GN(v) * GN(v)), G_INT(v), G_INT(start), G_INT(end),
                      G_INT(beam), G_INT(max_len), G_BUF(out, GN(max_len)),
                      G_BUF(score, 1)};
    return (int)grader_call("beam_search", a, 8).i;
}
#else
GRADER_SHIM(beam_search) {
    ret->i = beam_search(a[0].p, (int)a[1].i, (int)a[2].i, (int)a[3].i, (int)a[4].i,
                         (int)a[5].i, a[6].p, a[7].p);
}
#endif
