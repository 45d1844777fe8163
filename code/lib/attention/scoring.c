// scoring.c -- dot, scaled dot, cosine and additive scores; hard attention.
#include "attention/scoring.h"

#include <math.h>

#include "base/mat.h"

// snippet: score_dot
float score_dot(const float *q, const float *k, int d) {
    return (float)mat_dot(q, k, d);   // sum_i q_i k_i
}

float score_scaled_dot(const float *q, const float *k, int d) {
    return d > 0 ? (float)(mat_dot(q, k, d) / sqrt((double)d)) : 0.0f;
}
// end snippet

// snippet: score_cosine
float score_cosine(const float *q, const float *k, int d) {
    float similarity = 0.0f;   // stays 0 for an all-zero vector: no direction
    double nq = mat_norm(q, d), nk = mat_norm(k, d);
    if (nq > 0.0 && nk > 0.0) similarity = (float)(mat_dot(q, k, d) / (nq * nk));
    return similarity;
}
// end snippet

// snippet: score_additive
float score_additive(const additive_params_t *p, const float *q, const float *k) {
    double score = 0.0;
    for (int h = 0; h < p->d_h; h++) {          // one hidden unit at a time
        double a = mat_dot(p->w_q + h * p->d_q, q, p->d_q)     // (W_q q)_h
                 + mat_dot(p->w_k + h * p->d_k, k, p->d_k);    // (W_k k)_h
        score += p->v[h] * tanh(a);
    }
    return (float)score;
}
// end snippet

// snippet: score_hard
void score_hard(const float *scores, float *weights, int m) {
    int best = 0;
    for (int j = 1; j < m; j++)
        if (scores[j] > scores[best]) best = j;
    for (int j = 0; j < m; j++) weights[j] = (j == best) ? 1.0f : 0.0f;
}
// end snippet
