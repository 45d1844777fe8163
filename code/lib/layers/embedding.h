// embedding.h -- a lookup table of learned vectors, one row per token id.
//
// n = number of tokens looked up, V = vocabulary size, E = embedding width.
// A negative size: the forward passes return -1, the backward passes do nothing.
#ifndef EMBEDDING_H
#define EMBEDDING_H

// table (V, E), ids (n,) -> out (n, E): out[i] = table[ids[i]].
// Returns 0; -1 (out untouched from that row on) if an id is outside 0..V-1.
// n = 0 does nothing. (torch: F.embedding(ids, table))
int embedding_forward(const float *table, const int *ids, float *out, int n, int v,
                      int e);

// Gradient of embedding_forward: dtable[ids[i]] += dout[i] for every i, so a
// token used twice collects both gradients. Ids outside 0..V-1 are skipped.
void embedding_backward(const int *ids, const float *dout, float *dtable, int n, int v,
                        int e);

// The Transformer's input (Vaswani et al., 2017, sections 3.4 and 3.5):
// table (V, E), ids (n,), pe (n, E) the positional encodings of positions
// 0..n-1 -> out (n, E) = table[ids] * sqrt(E) + pe.
// Returns 0; -1 (out untouched from that row on) if an id is outside 0..V-1.
// (torch: F.embedding(ids, table) * math.sqrt(E) + pe)
int embedding_pos_forward(const float *table, const int *ids, const float *pe,
                          float *out, int n, int v, int e);

// Gradient of embedding_pos_forward for the table: dtable[ids[i]] +=
// sqrt(E) * dout[i]; the positional encodings are fixed and get none.
// Ids outside 0..V-1 are skipped.
void embedding_pos_backward(const int *ids, const float *dout, float *dtable, int n,
                            int v, int e);

#endif
