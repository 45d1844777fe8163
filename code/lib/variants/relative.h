// relative.h -- relative-position attention (Shaw et al. 2018).
//
// Query i and key j see each other through their offset j - i, clipped to
// [-k_max, k_max]. Each clipped offset has two learned vectors: a_K (added to
// the key when scoring) and a_V (added to the value when mixing). With n = m
// tokens there are 2 k_max + 1 offsets, however long the sequence.
#ifndef RELATIVE_H
#define RELATIVE_H

// -> idx (n, m) with idx[i][j] = clip(j - i, -k_max, k_max) + k_max, a row of
// the embedding tables (0 .. 2 k_max). k_max < 0 is treated as 0 (every offset
// shares one embedding). n or m = 0: writes nothing.
// (torch: (torch.arange(m)[None] - torch.arange(n)[:, None]).clamp(-k, k) + k)
void relpos_index(int *idx, int n, int m, int k_max);

// The learned offset tables of one layer, and their shapes.
typedef struct {
    const float *emb_k;   // (2 k_max + 1, d_k): added to the key when scoring
    const float *emb_v;   // (2 k_max + 1, d_v) or NULL: added to the value
    int k_max;            // offsets are clipped to [-k_max, k_max]
    int d_k, d_v;         // widths of queries and keys, and of values
} relpos_t;

// q (n, d_k), k (m, d_k), v (m, d_v), the tables rel (emb_k, emb_v, k_max,
// d_k, d_v), mask (n, m) or NULL -> out (n, d_v), weights (n, m):
//   score[i][j] = q_i . (k_j + emb_k[idx[i][j]]) / sqrt(d_k)
//   weights     = softmax over the visible j of each row
//   out_i       = sum_j weights[i][j] (v_j + emb_v[idx[i][j]])
// A row with no visible key gives zero weights and a zero output (as in
// attention_forward). emb_v == NULL: values without position (Shaw et al.'s
// key-only variant). k_max < 0 is treated as 0. n = 0 writes nothing; m = 0
// gives zero output rows.
void relpos_forward(const float *q, const float *k, const float *v,
                    const relpos_t *rel, const unsigned char *mask, float *out,
                    float *weights, int n, int m);

#endif
