// bpe.h -- byte-level byte-pair encoding (Sennrich et al. 2016; GPT-2's
// byte-level form, Radford et al. 2019), trained in C on the training text.
//
// The vocabulary starts as the 256 bytes, so every text can be encoded (there
// is no unknown token). Training repeats the merge rule: find the most
// frequent adjacent pair of tokens (a, b) in the text (ties: the smallest a,
// then the smallest b), give it the next id z, and replace every occurrence,
// left to right, by z. Encoding replays the merges in the order they were
// learned, so encoding the training text gives the training result.
//
// N bytes of text, T tokens, V vocabulary size = 256 + M merges.
#ifndef BPE_H
#define BPE_H

#include <stddef.h>

// BPE_MAX_VOCAB keeps every pair key (a << 16 | b) below the empty-slot marker.
enum { BPE_BYTES = 256, BPE_DEFAULT_VOCAB = 512, BPE_MAX_VOCAB = (1 << 16) - 1 };

typedef struct {
    int vocab;             // V actually learned (<= the V asked for)
    int *merges;           // (V - 256, 2): token 256 + i is merges[2i], merges[2i+1]
    long *counts;          // (V - 256,): occurrences of that pair when it was merged
                           // (overlaps counted: "aaa" holds (a, a) twice)
    long train_tokens;     // T of the training text after the last merge
    int *len;              // (V,): bytes each token stands for
    long *off;             // (V,): where they start in bytes
    unsigned char *bytes;  // every token's bytes, back to back
} bpe_t;

// text (N,) -> b, with up to vocab - 256 merges; training stops early when no
// pair occurs twice. Returns 0; -1 (b zeroed) if vocab < 256 or
// > BPE_MAX_VOCAB, N > 2^30, or memory ran out. N = 0 learns no merge.
int bpe_train(bpe_t *b, const unsigned char *text, size_t n, int vocab);

// Free what bpe_train allocated; safe on a zeroed struct and twice.
void bpe_free(bpe_t *b);

// text (N,) -> tokens (T,), T <= N (tokens must hold N ints). Returns T, or
// -1 if N > 2^30. N = 0 returns 0.
long bpe_encode(const bpe_t *b, const unsigned char *text, size_t n, int *tokens);

// tokens (T,) -> out (bytes,): the bytes they stand for, back to back. Returns
// the number of bytes, or -1 (out partly written) if a token is outside
// 0..V-1, T < 0, or they need more than cap bytes.
long bpe_decode(const bpe_t *b, const int *tokens, long t, unsigned char *out,
                size_t cap);

// -> the bytes token id stands for (*len of them), NULL if id is outside 0..V-1.
const unsigned char *bpe_token(const bpe_t *b, int id, int *len);

#endif
