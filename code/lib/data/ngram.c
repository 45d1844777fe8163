// ngram.c -- add-one unigram and bigram baselines in bits per byte.
#include "data/ngram.h"

#include <math.h>
#include <stdlib.h>

// x (n,) -> 1 if every token is in 0..V-1.
static int in_range(const int *x, long n, int V) {
    for (long i = 0; i < n; i++)
        if (x[i] < 0 || x[i] >= V) return 0;
    return 1;
}

// -> 1 if the arguments of ngram_*_bpb must be refused.
static int bad(const int *train, long T, const int *held, long U, int V, long bytes) {
    return V < 1 || bytes < 1 || T < 0 || U < 0 || !in_range(train, T, V) ||
           !in_range(held, U, V);
}

// snippet: ngram_unigram_bpb
double ngram_unigram_bpb(const int *train, long T, const int *held, long U, int V,
                         long bytes) {
    if (bad(train, T, held, U, V, bytes)) return -1.0;
    long *count = calloc((size_t)V, sizeof(long));
    if (!count) return -1.0;
    for (long i = 0; i < T; i++) count[train[i]]++;
    double bits = 0.0;
    for (long i = 0; i < U; i++)
        bits -= log2((count[held[i]] + 1.0) / ((double)T + V));
    free(count);
    return bits / (double)bytes;
}
// end snippet

// snippet: ngram_bigram_bpb
double ngram_bigram_bpb(const int *train, long T, const int *held, long U, int V,
                        long bytes) {
    if (bad(train, T, held, U, V, bytes)) return -1.0;
    long *pair = calloc((size_t)V * V, sizeof(long));      // c(x, y)
    long *first = calloc((size_t)V, sizeof(long));         // c(x, .)
    long *unigram = calloc((size_t)V, sizeof(long));       // c(x)
    double bits = -1.0;
    if (pair && first && unigram) {
        for (long i = 0; i < T; i++) unigram[train[i]]++;
        for (long i = 0; i + 1 < T; i++) {
            pair[(long)train[i] * V + train[i + 1]]++;
            first[train[i]]++;
        }
        bits = 0.0;
        if (U > 0) bits -= log2((unigram[held[0]] + 1.0) / ((double)T + V));
        for (long i = 1; i < U; i++) {
            long x = held[i - 1], y = held[i];
            bits -= log2((pair[x * V + y] + 1.0) / ((double)first[x] + V));
        }
        bits /= (double)bytes;
    }
    free(pair);
    free(first);
    free(unigram);
    return bits;
}
// end snippet
