// gqa.c -- causal grouped-query attention forward and backward.
#include "layers/gqa.h"

#include <math.h>

#include "base/fmath.h"

int gqa_check(const gqa_shape_t *s) {
    if (s->B < 0 || s->T < 0 || s->NH < 0 || s->HS < 0 || s->NKV < 1 || s->NH % s->NKV)
        return -1;
    return 0;
}

long gqa_scratch_floats(const gqa_shape_t *s) { return s->T > 0 ? s->T : 0; }

long gqa_kv_bytes_per_token(int layers, int NKV, int HS, int bytes_per_value) {
    return 2L * layers * NKV * HS * bytes_per_value;
}

// snippet: gqa_forward
int gqa_forward(const gqa_shape_t *s, float *out, float *att, const float *q,
                const float *k, const float *v) {
    if (gqa_check(s)) return -1;
    int T = s->T, NH = s->NH, NKV = s->NKV, HS = s->HS, group = NH / NKV;
    long qC = (long)NH * HS, kvC = (long)NKV * HS;
    float scale = HS > 0 ? 1.0f / sqrtf((float)HS) : 0.0f;   // HS = 0: scores 0
    for (int b = 0; b < s->B; b++)
        for (int h = 0; h < NH; h++) {
            int hk = h / group;                         // the shared key/value head
            for (int t = 0; t < T; t++) {
                const float *q_t = q + (b * T + t) * qC + h * HS;
                float *att_t = att + (((long)b * NH + h) * T + t) * T;
                float max = -INFINITY;
                for (int t2 = 0; t2 <= t; t2++) {
                    const float *k_t2 = k + (b * T + t2) * kvC + hk * HS;
                    float dot = 0.0f;
                    for (int i = 0; i < HS; i++) dot += q_t[i] * k_t2[i];
                    att_t[t2] = dot * scale;
                    if (att_t[t2] > max) max = att_t[t2];
                }
                for (int t2 = 0; t2 <= t; t2++) att_t[t2] -= max;
                expf_n(att_t, (size_t)t + 1);           // exp, a row at a time
                double sum = 0.0;
                for (int t2 = 0; t2 <= t; t2++) sum += att_t[t2];
                for (int t2 = 0; t2 < T; t2++)
                    att_t[t2] = t2 <= t ? (float)(att_t[t2] / sum) : 0.0f;   // causal
                float *out_t = out + (b * T + t) * qC + h * HS;
                for (int i = 0; i < HS; i++) out_t[i] = 0.0f;
                for (int t2 = 0; t2 <= t; t2++) {
                    const float *v_t2 = v + (b * T + t2) * kvC + hk * HS;
                    for (int i = 0; i < HS; i++) out_t[i] += att_t[t2] * v_t2[i];
                }
            }
        }
    return 0;
}
// end snippet

// snippet: gqa_backward
int gqa_backward(const gqa_shape_t *s, float *dq, float *dk, float *dv,
                 const float *dout, const float *q, const float *k, const float *v,
                 const float *att, float *scratch) {
    if (gqa_check(s)) return -1;
    int T = s->T, NH = s->NH, NKV = s->NKV, HS = s->HS, group = NH / NKV;
    long qC = (long)NH * HS, kvC = (long)NKV * HS;
    float scale = HS > 0 ? 1.0f / sqrtf((float)HS) : 0.0f;   // HS = 0: scores 0
    float *datt = scratch;                              // (T,) one row of dL/datt
    for (int b = 0; b < s->B; b++)
        for (int h = 0; h < NH; h++) {
            int hk = h / group;
            for (int t = 0; t < T; t++) {
                const float *q_t = q + (b * T + t) * qC + h * HS;
                const float *dout_t = dout + (b * T + t) * qC + h * HS;
                const float *att_t = att + (((long)b * NH + h) * T + t) * T;
                float *dq_t = dq + (b * T + t) * qC + h * HS;
                // in the forward pass this was: out_t[i] += att_t[t2] * v_t2[i];
                double wsum = 0.0;                      // sum_t2 att datt
                for (int t2 = 0; t2 <= t; t2++) {
                    const float *v_t2 = v + (b * T + t2) * kvC + hk * HS;
                    float *dv_t2 = dv + (b * T + t2) * kvC + hk * HS;
                    float d = 0.0f;
                    for (int i = 0; i < HS; i++) {
                        d += dout_t[i] * v_t2[i];
                        dv_t2[i] += att_t[t2] * dout_t[i];      // accumulates
                    }
                    datt[t2] = d;
                    wsum += (double)att_t[t2] * d;
                }
                // in the forward pass this was: att_t[t2] = exp(...) / sum (softmax),
                // so dpre = att (datt - sum att datt); then att_t[t2] = dot * scale
                for (int t2 = 0; t2 <= t; t2++) {
                    float dpre = (float)(att_t[t2] * (datt[t2] - wsum)) * scale;
                    const float *k_t2 = k + (b * T + t2) * kvC + hk * HS;
                    float *dk_t2 = dk + (b * T + t2) * kvC + hk * HS;
                    // in the forward pass this was:
                    //     dot += q_t[i] * k_t2[i];
                    for (int i = 0; i < HS; i++) {
                        dq_t[i] += dpre * k_t2[i];              // accumulates
                        dk_t2[i] += dpre * q_t[i];              // accumulates
                    }
                }
            }
        }
    return 0;
}
// end snippet
