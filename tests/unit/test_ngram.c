// test_ngram.c -- add-one unigram and bigram baselines: bits per byte by hand,
// the uniform limit, and the bigram beating the unigram on held-out English.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "data/corpus.h"
#include "data/ngram.h"

Test(ngram, unigram_by_hand) {
    // train (0, 0, 1), V = 2: p(0) = 3/5, p(1) = 2/5; held (0, 1) costs
    // -log2 0.6 - log2 0.4 = 2.0588937 bits over 2 bytes = 1.0294468.
    const int train[3] = {0, 0, 1}, held[2] = {0, 1};
    cr_assert_float_eq(ngram_unigram_bpb(train, 3, held, 2, 2, 2), 1.0294468, 1e-6);
}

Test(ngram, bigram_by_hand) {
    // train (0, 0, 1): c(0,0) = c(0,1) = 1, c(0,.) = 2, c(1,.) = 0. held (1, 0, 1):
    // p(1) = 2/5 (unigram), p(0|1) = 1/2, p(1|0) = 2/4 -> 1.3219281 + 1 + 1 bits
    // over 3 bytes = 1.1073094.
    const int train[3] = {0, 0, 1}, held[3] = {1, 0, 1};
    cr_assert_float_eq(ngram_bigram_bpb(train, 3, held, 3, 2, 3), 1.1073094, 1e-6);
}

Test(ngram, untrained_is_uniform_and_bad_tokens_refused) {
    // No training data: every byte costs log2 256 = 8 bits.
    const int held[4] = {1, 200, 3, 255};
    cr_assert_float_eq(ngram_unigram_bpb(NULL, 0, held, 4, 256, 4), 8.0, 1e-12);
    cr_assert_float_eq(ngram_bigram_bpb(NULL, 0, held, 4, 256, 4), 8.0, 1e-12);
    const int bad[2] = {0, 256};
    cr_assert_eq(ngram_unigram_bpb(held, 4, bad, 2, 256, 2), -1.0);
    cr_assert_eq(ngram_bigram_bpb(bad, 2, held, 4, 256, 4), -1.0);
    cr_assert_eq(ngram_bigram_bpb(held, 4, held, 4, 256, 0), -1.0);
}

Test(ngram, bigram_beats_unigram_on_held_out_english) {
    corpus_t c;
    cr_assert_eq(corpus_read(&c, CORPUS_PATH, CORPUS_BYTES, CORPUS_FNV1A64), 0);
    corpus_split_t s;
    cr_assert_eq(corpus_split(&c, 0.1, 1, &s), 0);
    int *tr = malloc(s.n_train * sizeof(int)), *he = malloc(s.n_held * sizeof(int));
    for (size_t i = 0; i < s.n_train; i++) tr[i] = s.train[i];
    for (size_t i = 0; i < s.n_held; i++) he[i] = s.held[i];
    double uni = ngram_unigram_bpb(tr, (long)s.n_train, he, (long)s.n_held, 256,
                                   (long)s.n_held);
    double bi = ngram_bigram_bpb(tr, (long)s.n_train, he, (long)s.n_held, 256,
                                 (long)s.n_held);
    // English letters carry about 4 to 5 bits each alone, less given the one before.
    cr_assert(uni > 4.0 && uni < 5.5, "unigram %.3f bits/byte", uni);
    cr_assert(bi > 2.5 && bi < uni, "bigram %.3f bits/byte, unigram %.3f", bi, uni);
    free(tr);
    free(he);
    corpus_split_free(&s);
    corpus_free(&c);
}
