// int sublayer_prune_head(p {d_model, n_heads, d_k, w_q, w_k, w_v, w_o (d_model,
//   d_model), b_o (d_model,)} changed in place, head)
#include "call.h"
#include "layers/sublayer.h"

#ifdef GRADER_JUDGE
int sublayer_prune_head(mha_params_t *p, int head) {
    size_t d = GN(p->d_model);
    grader_arg a[] = {G_INT(p->d_model), G_INT(p->n_heads), G_INT(p->d_k),
                      G_BUF(p->w_q, d * d), G_BUF(p->w_k, d * d), G_BUF(p->w_v, d * d),
                      G_BUF(p->w_o, d * d), G_BUF(p->b_o, d), G_INT(head)};
    return (int)grader_call("sublayer_prune_head", a, 9).i;
}
#else
GRADER_SHIM(sublayer_prune_head) {
    mha_params_t p = {(int)a[0].i, (int)a[1].i, (int)a[2].i, a[3].p,
                      a[4].p,      a[5].p,      a[6].p,      a[7].p};
    ret->i = sublayer_prune_head(&p, (int)a[8].i);
}
#endif
