// bpe.c -- byte-level BPE: training with incremental pair counts, encode, decode.
#include "data/bpe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// Pair counts: an open-addressing hash table keyed by a * 2^16 + b. Keys are
// never removed (a count may drop to 0); at most 3 N keys are ever inserted
// (N initial pairs, then at most 2 new pairs per merged occurrence, and every
// occurrence shortens the text by one), and at most V^2 exist.

#define EMPTY UINT32_MAX

typedef struct {
    uint32_t *key;
    long *count;
    size_t mask;
} pairs_t;

// key -> the slot that holds it, or the empty slot where it would go (linear
// probing from a multiplicative hash).
static size_t slot(const pairs_t *p, uint32_t key) {
    size_t i = ((size_t)key * 0x9E3779B1u) & p->mask;
    while (p->key[i] != key && p->key[i] != EMPTY) i = (i + 1) & p->mask;
    return i;
}

// count of the pair (a, b) += delta, inserting the pair if it is new.
static void pair_add(pairs_t *p, int a, int b, long delta) {
    uint32_t key = (uint32_t)a << 16 | (uint32_t)b;
    size_t i = slot(p, key);
    p->key[i] = key;
    p->count[i] += delta;
}

// ---------------------------------------------------------------------------
// One merge over a token sequence, in place: every (a, b), left to right,
// becomes z. If pairs is not NULL its counts follow: the pair on the left of
// an occurrence is taken from what was already written (it may be a z), the
// pair on the right from the old sequence. Returns the new length.
static long merge_pass(int *s, long t, int a, int b, int z, pairs_t *pairs) {
    long w = 0;
    for (long i = 0; i < t; i++) {
        if (i + 1 < t && s[i] == a && s[i + 1] == b) {
            if (pairs) {
                pair_add(pairs, a, b, -1);
                if (w > 0) {
                    pair_add(pairs, s[w - 1], a, -1);
                    pair_add(pairs, s[w - 1], z, +1);
                }
                if (i + 2 < t) {
                    pair_add(pairs, b, s[i + 2], -1);
                    pair_add(pairs, z, s[i + 2], +1);
                }
            }
            s[w++] = z;
            i++;
        } else {
            s[w++] = s[i];
        }
    }
    return w;
}

void bpe_free(bpe_t *b) {
    if (!b) return;
    free(b->merges);
    free(b->counts);
    free(b->len);
    free(b->off);
    free(b->bytes);
    memset(b, 0, sizeof *b);
}

// The bytes of every token: a byte is itself, a merge is its two parts.
static int build_bytes(bpe_t *b) {
    long total = 0;
    for (int id = 0; id < b->vocab; id++) {
        b->len[id] = id < BPE_BYTES ? 1
                                    : b->len[b->merges[2 * (id - BPE_BYTES)]] +
                                          b->len[b->merges[2 * (id - BPE_BYTES) + 1]];
        b->off[id] = total;
        total += b->len[id];
    }
    b->bytes = malloc((size_t)total);
    if (!b->bytes) return -1;
    for (int id = 0; id < b->vocab; id++) {
        unsigned char *dst = b->bytes + b->off[id];
        if (id < BPE_BYTES) {
            dst[0] = (unsigned char)id;
        } else {
            const int *pair = b->merges + 2 * (id - BPE_BYTES);
            int l = pair[0], r = pair[1];
            memcpy(dst, b->bytes + b->off[l], (size_t)b->len[l]);
            memcpy(dst + b->len[l], b->bytes + b->off[r], (size_t)b->len[r]);
        }
    }
    return 0;
}

int bpe_train(bpe_t *b, const unsigned char *text, size_t n, int vocab) {
    if (!b) return -1;
    memset(b, 0, sizeof *b);
    if (vocab < BPE_BYTES || vocab > BPE_MAX_VOCAB || n > ((size_t)1 << 30) ||
        (n > 0 && !text))
        return -1;
    int m_max = vocab - BPE_BYTES;
    size_t all = 2 * (size_t)vocab * vocab;        // twice every possible pair
    size_t want = 4 * n < all ? 4 * n : all;
    size_t cap = 1024;
    while (cap < want) cap *= 2;
    pairs_t pairs = {malloc(cap * sizeof(uint32_t)), calloc(cap, sizeof(long)),
                     cap - 1};
    int *s = malloc((n ? n : 1) * sizeof(int));
    b->merges = malloc((size_t)(m_max ? 2 * m_max : 1) * sizeof(int));
    b->counts = malloc((size_t)(m_max ? m_max : 1) * sizeof(long));
    b->len = malloc((size_t)vocab * sizeof(int));
    b->off = malloc((size_t)vocab * sizeof(long));
    int rc = pairs.key && pairs.count && s && b->merges && b->counts && b->len && b->off
                 ? 0
                 : -1;
    if (rc == 0) {
        memset(pairs.key, 0xff, cap * sizeof(uint32_t));
        long t = (long)n;
        for (long i = 0; i < t; i++) s[i] = text[i];
        for (long i = 0; i + 1 < t; i++) pair_add(&pairs, s[i], s[i + 1], +1);
        int m = 0;
        for (; m < m_max; m++) {
            uint32_t best = EMPTY;
            long best_count = 1;                 // a pair must occur at least twice
            for (size_t i = 0; i <= pairs.mask; i++)
                if (pairs.key[i] != EMPTY &&
                    (pairs.count[i] > best_count ||
                     (pairs.count[i] == best_count && best != EMPTY &&
                      pairs.key[i] < best))) {
                    best = pairs.key[i];
                    best_count = pairs.count[i];
                }
            if (best == EMPTY) break;
            int a = (int)(best >> 16), c = (int)(best & 0xffff), z = BPE_BYTES + m;
            b->merges[2 * m] = a;
            b->merges[2 * m + 1] = c;
            b->counts[m] = best_count;
            t = merge_pass(s, t, a, c, z, &pairs);
        }
        b->vocab = BPE_BYTES + m;
        b->train_tokens = t;
        rc = build_bytes(b);
    }
    free(pairs.key);
    free(pairs.count);
    free(s);
    if (rc != 0) bpe_free(b);
    return rc;
}

long bpe_encode(const bpe_t *b, const unsigned char *text, size_t n, int *tokens) {
    if (n > ((size_t)1 << 30)) return -1;
    long t = (long)n;
    for (long i = 0; i < t; i++) tokens[i] = text[i];
    for (int m = 0; m + BPE_BYTES < b->vocab && t > 1; m++)
        t = merge_pass(tokens, t, b->merges[2 * m], b->merges[2 * m + 1], BPE_BYTES + m,
                       NULL);
    return t;
}

long bpe_decode(const bpe_t *b, const int *tokens, long t, unsigned char *out,
                size_t cap) {
    if (t < 0) return -1;
    size_t w = 0;
    for (long i = 0; i < t; i++) {
        int id = tokens[i];
        if (id < 0 || id >= b->vocab || (size_t)b->len[id] > cap - w) return -1;
        memcpy(out + w, b->bytes + b->off[id], (size_t)b->len[id]);
        w += (size_t)b->len[id];
    }
    return (long)w;
}

const unsigned char *bpe_token(const bpe_t *b, int id, int *len) {
    if (id < 0 || id >= b->vocab) return NULL;
    *len = b->len[id];
    return b->bytes + b->off[id];
}
