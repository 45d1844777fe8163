// mirror.h -- the translation task of chapters 8 and 9, the "mirror language":
// a sentence of distinct syllables ("ba ke ti") is translated into capitals in
// reverse order ("TI KE BA"). Word for word, like a dictionary, but the
// alignment is the anti-diagonal: output word j comes from input word n - j.
//
// Sentences are MIRROR_MIN_LEN..MIRROR_MAX_LEN distinct words out of
// MIRROR_WORDS. Ids follow data/pairs.h: 0 is padding in both vocabularies,
// target ids 1 and 2 are BOS and EOS.
#ifndef MIRROR_H
#define MIRROR_H

#include "base/rng.h"
#include "data/pairs.h"

enum { MIRROR_WORDS = 60, MIRROR_MIN_LEN = 4, MIRROR_MAX_LEN = 30 };
enum {
    MIRROR_V_SRC = MIRROR_WORDS + 1,   // padding + the words
    MIRROR_V_TGT = MIRROR_WORDS + 3,   // padding, BOS, EOS + the words
    MIRROR_SRC_EOS = MIRROR_WORDS + 1, // an end-of-source marker (chapter 9): id V_SRC
    MIRROR_BATCH_MAX = 100             // the most sentences a mirror_batch_t holds
};

// Source word k (0..MIRROR_WORDS-1) is id k + 1; its translation is id k + 3.
int mirror_tgt_of_src(int id);

// The translation of src (len ids): the translated words, reversed. -> tgt (len,)
void mirror_translate(const int *src, int len, int *tgt);

// Word k as text: consonant k / 5, vowel k % 5 ("ba", "be", ..., "ti"),
// in capitals if capital. out holds 3 chars. k outside 0..MIRROR_WORDS-1: "?".
void mirror_word_text(int k, int capital, char out[3]);

// The text of a source id (1..MIRROR_WORDS, MIRROR_SRC_EOS as "</s>") or a
// target id (3..MIRROR_WORDS+2, EOS as "</s>"); "?" for anything else.
const char *mirror_src_text(int id, char buf[3]);
const char *mirror_tgt_text(int id, char buf[3]);

// n sentences drawn from rng: each has a length uniform in MIN_LEN..MAX_LEN
// (with log_uniform, every second one is drawn log-uniformly instead: short
// sentences, cheap to train on) and distinct words in random order.
typedef struct {
    int n;
    int *len;   // (n,)
    int *tok;   // (n, MIRROR_MAX_LEN) source ids, 0 after len
    int *order; // (n,) indices sorted by length, stable (batches with little padding)
} mirror_split_t;

// Returns 0; -1 if n < 1 or memory ran out (then nothing stays allocated).
int mirror_split_make(mirror_split_t *s, int n, int log_uniform, rng_t *rng);
void mirror_split_free(mirror_split_t *s);

// A padded batch of at most MIRROR_BATCH_MAX sentences, ready for s2s_forward
// or tf_forward: bt points into the arrays.
typedef struct {
    int src[MIRROR_BATCH_MAX * (MIRROR_MAX_LEN + 1)];
    unsigned char mask[MIRROR_BATCH_MAX * (MIRROR_MAX_LEN + 1)];
    int tin[MIRROR_BATCH_MAX * (MIRROR_MAX_LEN + 1)];
    int tout[MIRROR_BATCH_MAX * (MIRROR_MAX_LEN + 1)];
    s2s_batch_t bt;
} mirror_batch_t;

// The sentences idx[0..b-1] of s as a batch padded to the longest: src and mask
// (b, T), tgt_in = BOS y_1 .. y_n and tgt_out = y_1 .. y_n EOS (b, T + 1).
// src_eos: append MIRROR_SRC_EOS to every source (T = longest + 1).
// b outside 1..MIRROR_BATCH_MAX: nothing is written and bb->bt.b = 0.
void mirror_batch_fill(mirror_batch_t *bb, const mirror_split_t *s, const int *idx,
                       int b, int src_eos);

// The two splits a trainer reads (train/trainer.h's trainer_data_t): training
// batch k is the sentences order[k*batch ..] of train (the last one shorter),
// validation batch k those of order[k*eval_batch ..] of val. Each call fills
// *bb and returns &bb->bt (an s2s_batch_t), valid until the next call; k
// outside those batches gives an empty batch (bt.b = 0).
typedef struct {
    const mirror_split_t *train, *val;
    int batch, eval_batch;       // 1..MIRROR_BATCH_MAX
    int src_eos;                 // as mirror_batch_fill
    mirror_batch_t *bb;
} mirror_feed_t;

// Batches of at most `batch` sentences in a split of n: ceil(n / batch).
int mirror_feed_count(int n, int batch);
const void *mirror_feed_train(void *feed, int k);
const void *mirror_feed_val(void *feed, int k);

#endif
