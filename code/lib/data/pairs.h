// pairs.h -- a batch of padded sequence pairs (source, target), the input of
// the translation models of chapters 8 and 9 (models/seq2seq.h,
// models/transformer.h) and what data/mirror.h makes.
//
// B = batch, T = source length, U = target length (both padded).
#ifndef PAIRS_H
#define PAIRS_H

// Token ids shared by both vocabularies: 0 is padding; in the target, 1 and 2
// begin and end a sentence.
enum { S2S_PAD = 0, S2S_BOS = 1, S2S_EOS = 2 };

// A batch: src (B, T), src_mask (B, T), tgt_in (B, U) = BOS y_1 ... and
// tgt_out (B, U) = y_1 ... EOS, padded with S2S_PAD (ignored by the loss).
typedef struct {
    int b, t_len, u_len;
    const int *src;
    const unsigned char *src_mask;
    const int *tgt_in, *tgt_out;
} s2s_batch_t;

#endif
