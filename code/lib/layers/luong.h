// luong.h -- Luong's "general" attention score for one decoder step
// (Luong, Pham and Manning, 2015, eq. 8):
//
//     e_t     = s . (W h_t)          (s^T W h_t: a bilinear form, W is S x K)
//     alpha   = softmax over the visible t of e
//     c       = sum_t alpha_t h_t    (the context)
//
// Chapter 8's additive score needs a hidden layer, a tanh and a vector v; the
// general score is one matrix between the decoder state and each annotation.
// T = source length, S = decoder state width, K = annotation width.
// Annotations ann (T, K) row by row; mask (T,) or NULL, 1 = visible.
// Any size below 1: nothing is read or written.
#ifndef LUONG_H
#define LUONG_H

// The sizes of one call: T (t_len), S (sd), K (k).
typedef struct {
    int t_len, sd, k;
} luong_dims_t;

// s (S,), w (S, K), ann (T, K) -> scores (T,): scores[t] = s^T W ann_t.
// (torch: ann @ (s @ w))
void luong_general_scores(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, float *scores);

// s (S,), w (S, K), ann (T, K), mask (T,) or NULL -> alpha (T,), c (K,):
// alpha = the softmax of the general scores over the visible positions (0 on the
// hidden ones), c = sum_t alpha_t ann_t. No visible position: alpha = 0, c = 0.
// (torch: a = (ann @ (s @ w)).masked_fill(~mask, -inf).softmax(0); c = a @ ann)
void luong_general_attend(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, const unsigned char *mask, float *alpha,
                          float *c);

// Backward of luong_general_attend given dc (K,) and its alpha (T,): accumulates
// (+=) ds (S,), dw (S, K) and dann (T, K). Through c = sum alpha_t ann_t:
// dalpha_t = dc . ann_t and dann_t += alpha_t dc; through the softmax:
// de_t = alpha_t (dalpha_t - sum_u alpha_u dalpha_u); through e_t = s^T W ann_t:
// ds += de_t W ann_t, dw += de_t s ann_t^T, dann_t += de_t W^T s. Hidden
// positions (alpha_t = 0) get nothing.
// (torch: autograd of luong_general_attend)
void luong_general_backward(const luong_dims_t *d, const float *s, const float *w,
                            const float *ann, const float *alpha, const float *dc,
                            float *ds, float *dw, float *dann);

#endif
