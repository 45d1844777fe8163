// test_bpe.c -- byte-level BPE: the textbook example by hand, the incremental
// pair counts against a recount, encode/decode round trips (random bytes and
// the whole corpus), and refusals.
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "data/bpe.h"
#include "data/corpus.h"

Test(bpe, textbook_example_by_hand) {
    // "aaabdaaabac" (Gage 1994; Wikipedia's example): overlapping pair counts
    // aa 4, ab 2 -> merge aa = 256: 256 a b d 256 a b a c; now 256a 2, ab 2:
    // the tie goes to the smaller pair, ab = 257 (97, 98) < (256, 97):
    // 256 257 d 256 257 a c; then (256, 257) 2 times -> 258: 258 d 258 a c.
    // No pair occurs twice any more, so training stops at V = 259.
    const char *s = "aaabdaaabac";
    bpe_t b;
    cr_assert_eq(bpe_train(&b, (const unsigned char *)s, 11, 300), 0);
    cr_assert_eq(b.vocab, 259);
    const int merges[6] = {'a', 'a', 'a', 'b', 256, 257};
    const long counts[3] = {4, 2, 2};
    for (int i = 0; i < 6; i++) cr_assert_eq(b.merges[i], merges[i], "merges[%d]", i);
    for (int i = 0; i < 3; i++) cr_assert_eq(b.counts[i], counts[i], "counts[%d]", i);
    int tok[11], len;
    cr_assert_eq(b.train_tokens, 5);
    cr_assert_eq(bpe_encode(&b, (const unsigned char *)s, 11, tok), 5);
    const int want[5] = {258, 'd', 258, 'a', 'c'};
    for (int i = 0; i < 5; i++) cr_assert_eq(tok[i], want[i], "tok[%d]", i);
    const unsigned char *p = bpe_token(&b, 258, &len);
    cr_assert(len == 4 && !memcmp(p, "aaab", 4));
    cr_assert_null(bpe_token(&b, 259, &len));
    bpe_free(&b);
    bpe_free(&b);
}

// How often (a, c) occurs at adjacent positions of s (T,), overlaps included.
static long recount(const int *s, long t, int a, int c) {
    long k = 0;
    for (long i = 0; i + 1 < t; i++) k += s[i] == a && s[i + 1] == c;
    return k;
}

// Replays b's merges naively on text and checks that each was the most frequent
// pair (ties to the smallest) with the count training recorded.
static void assert_counts_by_recount(const bpe_t *b, const unsigned char *text,
                                     long n) {
    int *s = malloc((size_t)n * sizeof(int));
    for (long i = 0; i < n; i++) s[i] = text[i];
    long t = n;
    for (int m = 0; m + 256 < b->vocab; m++) {
        int a = b->merges[2 * m], c = b->merges[2 * m + 1];
        long k = recount(s, t, a, c);
        cr_assert_eq(b->counts[m], k, "merge %d: recorded %ld, recount %ld", m,
                     b->counts[m], k);
        for (long i = 0; i + 1 < t; i++) {      // no pair beats it
            long other = recount(s, t, s[i], s[i + 1]);
            int smaller = s[i] < a || (s[i] == a && s[i + 1] < c);
            cr_assert(other < k || (other == k && !smaller),
                      "merge %d: (%d, %d) occurs %ld times", m, s[i], s[i + 1], other);
        }
        long w = 0;
        for (long i = 0; i < t; i++)
            if (i + 1 < t && s[i] == a && s[i + 1] == c) { s[w++] = 256 + m; i++; }
            else s[w++] = s[i];
        t = w;
    }
    free(s);
}

Test(bpe, incremental_counts_equal_a_recount) {
    // A 3-letter alphabet makes runs and overlaps (aaa, abab) common.
    enum { N = 600 };
    unsigned char text[N];
    rng_t rng;
    rng_seed(&rng, 5);
    for (int i = 0; i < N; i++) text[i] = (unsigned char)("aab"[rng_next(&rng) % 3]);
    bpe_t b;
    cr_assert_eq(bpe_train(&b, text, N, 300), 0);
    cr_assert_gt(b.vocab, 280);
    assert_counts_by_recount(&b, text, N);
    bpe_free(&b);
}

Test(bpe, random_bytes_round_trip) {
    enum { N = 4000 };
    unsigned char text[N], back[N];
    int tok[N];
    rng_t rng;
    rng_seed(&rng, 6);
    for (int i = 0; i < N; i++) text[i] = (unsigned char)(rng_next(&rng) % 7 * 40);
    text[0] = 0;
    text[1] = 255;
    bpe_t b;
    cr_assert_eq(bpe_train(&b, text, N / 2, 320), 0);   // trained on half
    long t = bpe_encode(&b, text, N, tok);
    cr_assert(t > 0 && t < N);
    cr_assert_eq(bpe_decode(&b, tok, t, back, N), N);
    cr_assert_eq(memcmp(back, text, N), 0);
    cr_assert_eq(bpe_decode(&b, tok, t, back, N - 1), -1);   // too little room
    tok[0] = b.vocab;
    cr_assert_eq(bpe_decode(&b, tok, t, back, N), -1);       // no such token
    bpe_free(&b);
}

Test(bpe, no_merges_at_256_and_refusals) {
    bpe_t b;
    const unsigned char t[4] = {'a', 'a', 'a', 'a'};
    int tok[4];
    cr_assert_eq(bpe_train(&b, t, 4, 256), 0);
    cr_assert_eq(b.vocab, 256);
    cr_assert_eq(bpe_encode(&b, t, 4, tok), 4);
    cr_assert_eq(tok[3], 'a');
    bpe_free(&b);
    cr_assert_eq(bpe_train(&b, t, 4, 255), -1);
    cr_assert_eq(bpe_train(&b, t, 4, BPE_MAX_VOCAB + 1), -1);
    cr_assert_eq(bpe_train(&b, t, 0, 512), 0);                // empty text
    cr_assert_eq(b.vocab, 256);
    bpe_free(&b);
}

Test(bpe, whole_corpus_round_trips_and_compresses) {
    corpus_t c;
    cr_assert_eq(corpus_read(&c, CORPUS_PATH, CORPUS_BYTES, CORPUS_FNV1A64), 0);
    corpus_split_t s;
    cr_assert_eq(corpus_split(&c, 0.1, 1, &s), 0);
    bpe_t b;
    cr_assert_eq(bpe_train(&b, s.train, s.n_train, BPE_DEFAULT_VOCAB), 0);
    cr_assert_eq(b.vocab, BPE_DEFAULT_VOCAB);
    int *tok = malloc(c.n * sizeof(int));
    unsigned char *back = malloc(c.n);
    // Encoding replays every merge, so the training text encodes to the
    // length training ended with.
    cr_assert_eq(bpe_encode(&b, s.train, s.n_train, tok), b.train_tokens);
    long t = bpe_encode(&b, c.text, c.n, tok);
    cr_assert_eq(bpe_decode(&b, tok, t, back, c.n), (long)c.n);
    cr_assert_eq(memcmp(back, c.text, c.n), 0, "encode then decode changed the corpus");
    double bytes_per_token = (double)c.n / t;
    cr_assert(bytes_per_token > 1.5, "bytes/token %.3f", bytes_per_token);
    for (int id = 256; id < b.vocab; id++) {
        int len;
        bpe_token(&b, id, &len);
        cr_assert_geq(len, 2);
    }
    free(tok);
    free(back);
    bpe_free(&b);
    corpus_split_free(&s);
    corpus_free(&c);
}
