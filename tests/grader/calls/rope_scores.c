// int rope_scores(q (n, d), k (m, d), scores (n, m) out, n, m, d, qpos0, kpos0, base)
#include "position/rope.h"
#include "call.h"

#ifdef GRADER_JUDGE
int rope_scores(const float *q, const float *k, float *scores, int n, int m, int d,
                long qpos0, long kpos0, double base) {
    grader_arg a[] = {G_CBUF(q, GN(n) * GN(d)), G_CBUF(k, GN(m) * GN(d)),
                      G_BUF(scores, GN(n) * GN(m)), G_INT(n), G_INT(m), G_INT(d),
                      G_INT(qpos0), G_INT(kpos0), G_REAL(base)};
    return (int)grader_call("rope_scores", a, 9).i;
}
#else
GRADER_SHIM(rope_scores) {
    ret->i = rope_scores(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i, (int)a[5].i,
                         (long)a[6].i, (long)a[7].i, a[8].d);
}
#endif
