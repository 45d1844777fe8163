// int beam_viterbi(logp (V, V), V, start, end, max_len, out (max_len,) out,
//   score (1,) out)
#include "data/beam.h"
#include "call.h"

#ifdef GRADER_JUDGE
int beam_viterbi(const float *logp, int v, int start, int end, int max_len, int *out,
                 double *score) {
    grader_arg a[] = {G_CBUF(logp, GN(v) * GN(v)), G_INT(v), G_INT(start), G_INT(end),
                      G_INT(max_len), G_BUF(out, GN(max_len)), G_BUF(score, 1)};
    return (int)grader_call("beam_viterbi", a, 7).i;
}
#else
GRADER_SHIM(beam_viterbi) {
    ret->i = beam_viterbi(a[0].p, (int)a[1].i, (int)a[2].i, (int)a[3].i, (int)a[4].i,
                          a[5].p, a[6].p);
}
#endif
