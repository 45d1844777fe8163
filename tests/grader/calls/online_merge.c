// void online_merge(a (its acc (d_v,)) changed, b (its acc (d_v,)))
#include "call.h"
#include "variants/online_merge.h"

#ifdef GRADER_JUDGE
void online_merge(online_state_t *a, const online_state_t *b) {
    double *acc = a->acc;
    grader_arg g[] = {G_BUF(a, 1), G_BUF(acc, GN(a->d_v)), G_CBUF(b, 1),
                      G_CBUF(b->acc, GN(b->d_v))};
    grader_call("online_merge", g, 4);
    a->acc = acc;   // the runner's address came back with the struct
}
#else
GRADER_SHIM(online_merge) {
    (void)ret;
    online_state_t *st = a[0].p, b = *(const online_state_t *)a[2].p;
    st->acc = a[1].p;
    b.acc = a[3].p;
    online_merge(st, &b);
}
#endif
