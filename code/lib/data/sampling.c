// sampling.c -- top-k and top-p filters, by rank counting (O(V^2), no memory).
#include "data/sampling.h"

#include <math.h>

// 1 if entry i ranks before entry j: larger, or equal with a smaller index.
static int ranks_before(const float *x, int i, int j) {
    return x[i] > x[j] || (x[i] == x[j] && i < j);
}

int sampling_top_k(float *logits, int v, int k) {
    if (k < 1 || v < 1) return -1;
    if (k >= v) return v;
    // BEGIN SOLUTION
    // The k-th best entry (value cut, index cut_at) has k - 1 entries ranked
    // before it; find it before anything changes, then hide what ranks after it.
    float cut = 0.0f;
    int cut_at = -1;
    for (int j = 0; j < v && cut_at < 0; j++) {
        int ahead = 0;
        for (int i = 0; i < v; i++) ahead += ranks_before(logits, i, j);
        if (ahead == k - 1) cut = logits[j], cut_at = j;
    }
    for (int j = 0; j < v; j++)
        if (logits[j] < cut || (logits[j] == cut && j > cut_at)) logits[j] = -INFINITY;
    return k;
    // END SOLUTION
}

int sampling_top_p(float *probs, int v, double p) {
    if (v < 1 || !(p > 0.0 && p <= 1.0)) return -1;
    int kept = 0;
    // BEGIN SOLUTION
    // Count the kept entries and their mass, and find the last one kept (rank
    // kept - 1), before anything changes: the kept ones are a prefix of the ranks.
    double total = 0.0;
    for (int j = 0; j < v; j++) {
        double before = 0.0;
        for (int i = 0; i < v; i++)
            if (ranks_before(probs, i, j)) before += probs[i];
        if (before < p) kept++, total += probs[j];
    }
    float cut = 0.0f;
    int cut_at = -1;
    for (int j = 0; j < v && cut_at < 0; j++) {
        int ahead = 0;
        for (int i = 0; i < v; i++) ahead += ranks_before(probs, i, j);
        if (ahead == kept - 1) cut = probs[j], cut_at = j;
    }
    for (int j = 0; j < v; j++) {
        int keep = probs[j] > cut || (probs[j] == cut && j <= cut_at);
        probs[j] = !keep ? 0.0f : total > 0.0 ? (float)(probs[j] / total) : 1.0f / kept;
    }
    // END SOLUTION
    return kept;
}
