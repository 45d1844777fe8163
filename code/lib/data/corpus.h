// corpus.h -- the real English text chapter 10's model learns from: read from
// its install path, pinned by size and checksum, split by record.
//
// The text is the `cookie` file of Debian's `fortunes` package (Karl
// Lehenbauer's quotations from alt.sources; BSD-licensed fortune-mod
// collection): 1133 records, pure ASCII, each record a quotation ending in a
// line holding only "%". N = bytes of text.
#ifndef CORPUS_H
#define CORPUS_H

#include <stddef.h>
#include <stdint.h>

// Where `apt-get install fortunes` puts it, and what it must be.
#define CORPUS_PATH "/usr/share/games/fortunes/cookie"
#define CORPUS_BYTES 245093L
#define CORPUS_FNV1A64 UINT64_C(0xb95dd6fa5561ce0d)

// What corpus_read and corpus_split return.
enum {
    CORPUS_OK = 0,
    CORPUS_MISSING = -1,   // cannot open or read the file
    CORPUS_CHANGED = -2,   // size or checksum differs from the pinned values
    CORPUS_NOMEM = -3,     // memory ran out
    CORPUS_BAD_ARG = -4    // a NULL pointer, a negative size, a fraction outside [0, 1]
};

typedef struct {
    unsigned char *text;   // (N,) the file's bytes (plus one 0 byte, not counted)
    size_t n;              // N
    uint64_t fnv;          // FNV-1a 64 of the N bytes
    int n_records;         // records (see corpus_next_record)
} corpus_t;

typedef struct {
    unsigned char *train, *held;   // (n_train,), (n_held,): records in file order
    size_t n_train, n_held;
    int train_records, held_records;
} corpus_split_t;

// b (n,) -> FNV-1a 64-bit hash (offset basis 0xcbf29ce484222325, prime
// 0x100000001b3). n = 0 gives the offset basis.
uint64_t corpus_fnv1a64(const unsigned char *b, size_t n);

// text (n,), start -> the end (exclusive) of the record that starts at start:
// just after the next line that is exactly "%" (its newline included), or n.
// start >= n returns n.
size_t corpus_next_record(const unsigned char *text, size_t n, size_t start);

// Read the whole file at path into c. want_bytes >= 0 pins the size and
// want_fnv the checksum (want_bytes < 0: no pin, any file is taken).
// Returns CORPUS_OK; CORPUS_MISSING, CORPUS_CHANGED, CORPUS_NOMEM or
// CORPUS_BAD_ARG with c zeroed (nothing stays allocated).
int corpus_read(corpus_t *c, const char *path, long want_bytes, uint64_t want_fnv);

// One line of English for an error code (a static string; never NULL).
const char *corpus_error(int rc);

// Free what corpus_read allocated; safe on a zeroed struct and twice.
void corpus_free(corpus_t *c);

// c -> s: round(held_fraction * records) records, chosen by a Fisher-Yates
// shuffle from an rng_t seeded with seed, go to s->held, the rest to
// s->train; each part keeps file order. Returns CORPUS_OK, CORPUS_NOMEM or
// CORPUS_BAD_ARG (s zeroed).
int corpus_split(const corpus_t *c, double held_fraction, uint64_t seed,
                 corpus_split_t *s);

// Free what corpus_split allocated; safe on a zeroed struct and twice.
void corpus_split_free(corpus_split_t *s);

#endif
