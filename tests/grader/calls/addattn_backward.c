// void addattn_backward(s (B, S), w_a (S, A), v (A,), ann (T, B, K), alpha (B, T),
//   th (T, B, A), dc (B, K), ds (B, S), dw_a (S, A), dv (A,), dkeys (T, B, A),
//   dann (T, B, K), work (B (T + A)), t_len, b, sd, k, a)
#include "call.h"
#include "train/additive.h"

#ifdef GRADER_JUDGE
void addattn_backward(const float *s, const float *w_a, const float *v,
                      const float *ann, const float *alpha, const float *th,
                      const float *dc, float *ds, float *dw_a, float *dv, float *dkeys,
                      float *dann, float *work, int t_len, int b, int sd, int k,
                      int a_) {
    size_t T = GN(t_len), B = GN(b), S = GN(sd), K = GN(k), A = GN(a_);
    grader_arg a[] = {G_CBUF(s, B * S),
                      G_CBUF(w_a, S * A),
                      G_CBUF(v, A),
                      G_CBUF(ann, T * B * K),
                      G_CBUF(alpha, B * T),
                      G_CBUF(th, T * B * A),
                      G_CBUF(dc, B * K),
                      G_BUF(ds, B * S),
                      G_BUF(dw_a, S * A),
                      G_BUF(dv, A),
                      G_BUF(dkeys, T * B * A),
                      G_BUF(dann, T * B * K),
                      G_BUF(work, B * (T + A)),
                      G_INT(t_len),
                      G_INT(b),
                      G_INT(sd),
                      G_INT(k),
                      G_INT(a_)};
    grader_call("addattn_backward", a, 18);
}
#else
GRADER_SHIM(addattn_backward) {
    (void)ret;
    addattn_backward(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, a[5].p, a[6].p, a[7].p,
                     a[8].p, a[9].p, a[10].p, a[11].p, a[12].p, (int)a[13].i,
                     (int)a[14].i, (int)a[15].i, (int)a[16].i, (int)a[17].i);
}
#endif
