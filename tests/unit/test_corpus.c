// test_corpus.c -- the chapter 10 corpus: FNV-1a test vectors, records, the
// pin (missing and changed files refused), and the seeded split by record.
#define _POSIX_C_SOURCE 200809L   // mkstemp, fdopen, unlink
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/corpus.h"

Test(corpus, fnv1a64_test_vectors) {
    // The published FNV-1a 64 values (Fowler, Noll, Vo test suite).
    cr_assert_eq(corpus_fnv1a64((const unsigned char *)"", 0),
                 UINT64_C(0xcbf29ce484222325));
    cr_assert_eq(corpus_fnv1a64((const unsigned char *)"a", 1),
                 UINT64_C(0xaf63dc4c8601ec8c));
    cr_assert_eq(corpus_fnv1a64((const unsigned char *)"foobar", 6),
                 UINT64_C(0x85944171f73967e8));
}

Test(corpus, records_end_after_a_percent_line) {
    // "a\n%\nb%\n%d\n%\nc" -> "a\n%\n", "b%\n%d\n%\n" (a '%' in a longer line
    // is text, at its start too), "c".
    const unsigned char *t = (const unsigned char *)"a\n%\nb%\n%d\n%\nc";
    size_t n = strlen((const char *)t);
    cr_assert_eq(corpus_next_record(t, n, 0), 4);
    cr_assert_eq(corpus_next_record(t, n, 4), 12);
    cr_assert_eq(corpus_next_record(t, n, 12), n);
    cr_assert_eq(corpus_next_record(t, n, n), n);
}

// Write text to a new temporary file; its name goes into path (free nothing).
static void temp_file(char *path, const char *text) {
    strcpy(path, "/tmp/test_corpus_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

Test(corpus, refuses_missing_and_changed_files) {
    corpus_t c;
    cr_assert_eq(corpus_read(&c, "/nonexistent/cookie", -1, 0), CORPUS_MISSING);
    cr_assert_null(c.text);
    cr_assert_eq(corpus_read(&c, "/tmp", -1, 0), CORPUS_MISSING);   // a directory
    char path[64];
    temp_file(path, "x\n%\ny\n%\n");
    uint64_t h = corpus_fnv1a64((const unsigned char *)"x\n%\ny\n%\n", 8);
    cr_assert_eq(corpus_read(&c, path, 8, h), CORPUS_OK);
    cr_assert_eq(c.n, 8);
    cr_assert_eq(c.n_records, 2);
    corpus_free(&c);
    cr_assert_eq(corpus_read(&c, path, 8, h ^ 1), CORPUS_CHANGED);   // one bit off
    cr_assert_eq(corpus_read(&c, path, 9, h), CORPUS_CHANGED);       // one byte more
    cr_assert_null(c.text);
    cr_assert_eq(corpus_read(&c, path, -1, 0), CORPUS_OK);           // no pin
    corpus_free(&c);
    corpus_free(&c);                                                  // twice is safe
    unlink(path);
    cr_assert_str_neq(corpus_error(CORPUS_CHANGED), corpus_error(CORPUS_MISSING));
}

Test(corpus, the_installed_text_matches_its_pin) {
    corpus_t c;
    int rc = corpus_read(&c, CORPUS_PATH, CORPUS_BYTES, CORPUS_FNV1A64);
    cr_assert_eq(rc, CORPUS_OK, "%s: %s", CORPUS_PATH, corpus_error(rc));
    cr_assert_eq(c.n_records, 1133);
    for (size_t i = 0; i < c.n; i++)
        cr_assert(c.text[i] == '\n' || c.text[i] == '\t' ||
                      (c.text[i] >= 32 && c.text[i] < 127),
                  "byte %zu is %d", i, c.text[i]);
    corpus_free(&c);
}

// Every record of c, in order, is the next record of exactly one part.
static void assert_split_is_partition(const corpus_t *c, const corpus_split_t *s) {
    size_t i = 0, a = 0, b = 0;
    while (i < c->n) {
        size_t len = corpus_next_record(c->text, c->n, i) - i;
        int in_train = a + len <= s->n_train && !memcmp(s->train + a, c->text + i, len);
        int in_held = b + len <= s->n_held && !memcmp(s->held + b, c->text + i, len);
        cr_assert(in_train || in_held, "record at byte %zu lost", i);
        if (in_train) a += len; else b += len;
        i += len;
    }
    cr_assert_eq(a, s->n_train);
    cr_assert_eq(b, s->n_held);
}

Test(corpus, split_by_record_is_seeded_and_complete) {
    const char *text = "r0\n%\nr1\n%\nr2\n%\nr3\n%\nr4\n%\n"
                       "r5\n%\nr6\n%\nr7\n%\nr8\n%\nr9\n%\n";
    corpus_t c = {.text = (unsigned char *)text, .n = strlen(text), .n_records = 10};
    corpus_split_t s, s2, s3;
    cr_assert_eq(corpus_split(&c, 0.3, 1, &s), CORPUS_OK);
    cr_assert_eq(s.held_records, 3);
    cr_assert_eq(s.train_records, 7);
    assert_split_is_partition(&c, &s);
    corpus_split(&c, 0.3, 1, &s2);                        // same seed, same split
    cr_assert(s2.n_held == s.n_held && !memcmp(s2.held, s.held, s.n_held));
    int differs = 0;                                      // another seed, another split
    for (uint64_t seed = 2; seed < 6 && !differs; seed++) {
        corpus_split(&c, 0.3, seed, &s3);
        differs = memcmp(s3.held, s.held, s.n_held) != 0;
        corpus_split_free(&s3);
    }
    cr_assert(differs);
    int held_ever[10] = {0};                              // over 40 seeds: always 3
    for (uint64_t seed = 0; seed < 40; seed++) {          // held, each record some time
        corpus_split(&c, 0.3, seed, &s3);
        cr_assert_eq(s3.held_records, 3, "seed %d", (int)seed);
        assert_split_is_partition(&c, &s3);
        for (int r = 0; r < 10; r++)
            for (size_t i = 0; i + 1 < s3.n_held; i++)
                held_ever[r] |= s3.held[i] == 'r' && s3.held[i + 1] == '0' + r;
        corpus_split_free(&s3);
    }
    for (int r = 0; r < 10; r++) cr_assert(held_ever[r], "record %d never held out", r);
    corpus_split_free(&s);
    corpus_split_free(&s2);
    cr_assert_eq(corpus_split(&c, 1.5, 1, &s), CORPUS_BAD_ARG);
    cr_assert_eq(corpus_split(&c, 0.0, 1, &s), CORPUS_OK);
    cr_assert_eq(s.n_train, c.n);
    corpus_split_free(&s);
}
