// gqa.h -- causal grouped-query attention (Ainslie et al. 2023): NH query
// heads share NKV key/value heads, NH / NKV query heads per group. Query head h
// reads key/value head h / (NH / NKV). NKV = NH is multi-head attention
// (Vaswani et al. 2017), NKV = 1 multi-query attention (Shazeer 2019); the
// KV cache shrinks by NH / NKV.
// B sequences, T time steps, NH query heads, NKV key/value heads, HS head size.
// q (B, T, NH * HS): head h of token t is q[(b T + t) NH HS + h HS ...]; the
// same layout for k and v with NKV heads. The projections, RoPE and the output
// projection are the caller's.
#ifndef GQA_H
#define GQA_H

// The shapes (letters as in the legend above).
typedef struct {
    int B, T, NH, NKV, HS;
} gqa_shape_t;

// -> 0 if the shapes are usable (all >= 0, NKV >= 1, NH a multiple of NKV),
// -1 otherwise.
int gqa_check(const gqa_shape_t *s);

// q (B, T, NH HS), k, v (B, T, NKV HS) -> out (B, T, NH HS), and att
// (B, NH, T, T) = the causal softmax weights of every query head,
// softmax(q k^T / sqrt(HS)) over t2 <= t (entries t2 > t are 0). Returns 0;
// -1 (nothing written) if gqa_check fails. Size 0 writes nothing; HS = 0
// gives scores 0 (uniform weights), not 0 x inf.
// (torch: F.scaled_dot_product_attention needs 2.0; here
//  softmax((q @ k.repeat_interleave(NH // NKV, 1).T) / sqrt(HS) + causal) @ v)
int gqa_forward(const gqa_shape_t *s, float *out, float *att, const float *q,
                const float *k, const float *v);

// Scratch floats gqa_backward needs: T.
long gqa_scratch_floats(const gqa_shape_t *s);

// Gradients of gqa_forward from dout (B, T, NH HS), its inputs and the att it
// kept. Accumulates (+=) into dq (B, T, NH HS), dk, dv (B, T, NKV HS): a
// key/value head sums the gradients of every query head of its group. Returns
// 0; -1 (nothing accumulated) if gqa_check fails.
int gqa_backward(const gqa_shape_t *s, float *dq, float *dk, float *dv,
                 const float *dout, const float *q, const float *k, const float *v,
                 const float *att, float *scratch);

// Bytes of KV cache per token: 2 (k and v) x layers x NKV x HS x bytes per value.
long gqa_kv_bytes_per_token(int layers, int NKV, int HS, int bytes_per_value);

#endif
