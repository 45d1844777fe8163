// void online_update(st (its acc (d_v,)), scores (count,), v (count, d_v), count)
#include "variants/online.h"
#include "call.h"

#ifdef GRADER_JUDGE
void online_update(online_state_t *st, const float *scores, const float *v, int count) {
    double *acc = st->acc;
    grader_arg a[] = {G_BUF(st, 1), G_BUF(acc, GN(st->d_v)), G_CBUF(scores, GN(count)),
                      G_CBUF(v, GN(count) * GN(st->d_v)), G_INT(count)};
    grader_call("online_update", a, 5);
    st->acc = acc;   // the runner's address came back with the struct
}
#else
GRADER_SHIM(online_update) {
    (void)ret;
    online_state_t *st = a[0].p;
    st->acc = a[1].p;
    online_update(st, a[2].p, a[3].p, (int)a[4].i);
}
#endif
