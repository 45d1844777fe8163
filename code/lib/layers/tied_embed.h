// tied_embed.h -- one table for the token embedding and the output layer
// (Press and Wolf 2017): token id i is row i of wte going in, and the logit of
// token i is the dot product with that same row coming out. Its gradient is
// the sum of both uses.
// N rows (tokens, B x T), V vocabulary size, C width. wte is (V, C).
#ifndef TIED_EMBED_H
#define TIED_EMBED_H

// tokens (N,), wte (V, C) -> x (N, C), row n = wte[tokens[n]]. Returns 0; -1
// at the first token outside 0..V-1 (rows before it are written).
// (torch: F.embedding(tokens, wte))
int tied_embed_forward(float *x, const int *tokens, const float *wte, int N, int V,
                       int C);

// Gradient of tied_embed_forward: accumulates (+=) dwte[tokens[n]] += dx[n]
// (a token seen twice gets both). Tokens outside 0..V-1 are skipped.
void tied_embed_backward(float *dwte, const float *dx, const int *tokens, int N, int V,
                         int C);

// x (N, C), wte (V, C) -> logits (N, V) = x wte^T. (torch: F.linear(x, wte))
void tied_logits_forward(float *logits, const float *x, const float *wte, int N, int V,
                         int C);

// Gradients of tied_logits_forward from dlogits (N, V): accumulates (+=)
// dx (N, C) += dlogits wte and dwte (V, C) += dlogits^T x; dx may be NULL.
// Each sum runs in double, in order of its index, rounded to float once.
void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C);

#endif
