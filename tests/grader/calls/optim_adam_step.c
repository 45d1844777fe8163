// void optim_adam_step(o (its m, v (P,)), w (P,), g (P,))
#include "train/optim.h"
#include "call.h"

#ifdef GRADER_JUDGE
void optim_adam_step(optim_adam_t *o, float *w, const float *g) {
    float *m = o->m, *v = o->v;
    size_t n = o->n;
    grader_arg a[] = {G_BUF(o, 1), G_BUF(m, n), G_BUF(v, n), G_BUF(w, n), G_CBUF(g, n)};
    grader_call("optim_adam_step", a, 5);
    o->m = m;   // the runner's addresses came back with the struct
    o->v = v;
    o->n = n;
}
#else
GRADER_SHIM(optim_adam_step) {
    (void)ret;
    optim_adam_t *o = a[0].p;
    o->m = a[1].p;
    o->v = a[2].p;
    optim_adam_step(o, a[3].p, a[4].p);
}
#endif
