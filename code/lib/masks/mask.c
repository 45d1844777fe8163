// mask.c -- building, converting, measuring and applying attention masks.
#include "masks/mask.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------
// builders

// snippet: mask_causal
void mask_causal(unsigned char *mask, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) mask[(size_t)i * n + j] = j <= i;
}
// end snippet

void mask_full(unsigned char *mask, int n, int m) {
    if (n > 0 && m > 0) memset(mask, 1, (size_t)n * m);
}

// snippet: mask_band
void mask_band(unsigned char *mask, int n, int w) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            unsigned char visible = 0;
            visible = abs(i - j) <= w;
            mask[(size_t)i * n + j] = visible;
        }
}
// end snippet

// snippet: mask_random
void mask_random(unsigned char *mask, int n, double p, rng_t *rng) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            mask[(size_t)i * n + j] = i == j ? 1 : rng_uniform(rng) < p;
}
// end snippet

// snippet: mask_padding
void mask_key_padding(const int *ids, int n, unsigned char *keep) {
    for (int j = 0; j < n; j++) keep[j] = ids[j] != MASK_PAD_ID;
}

void mask_padding(const int *ids, int n, unsigned char *mask) {
    for (int i = 0; i < n; i++) mask_key_padding(ids, n, mask + (size_t)i * n);
}
// end snippet

// snippet: mask_and
void mask_and(const unsigned char *a, const unsigned char *b, unsigned char *out,
              size_t size) {
    for (size_t k = 0; k < size; k++) out[k] = a[k] && b[k];
}

void mask_invert(const unsigned char *a, unsigned char *out, size_t size) {
    for (size_t k = 0; k < size; k++) out[k] = !a[k];
}
// end snippet

// ---------------------------------------------------------------------------
// conversions

// snippet: mask_to_additive
void mask_to_additive(const unsigned char *mask, float *bias, size_t size,
                      float hidden_value) {
    for (size_t k = 0; k < size; k++) bias[k] = mask[k] ? 0.0f : hidden_value;
}
// end snippet

// snippet: mask_multiply_rows
void mask_multiply_rows(float *w, const unsigned char *mask, int n, int m,
                        int renormalise) {
    for (int i = 0; i < n; i++) {
        float *row = w + (size_t)i * m;
        const unsigned char *vis = mask + (size_t)i * m;
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            row[j] = vis[j] ? row[j] : 0.0f;
            sum += row[j];
        }
        if (!renormalise) continue;
        for (int j = 0; j < m; j++) row[j] = sum > 0.0 ? (float)(row[j] / sum) : 0.0f;
    }
}
// end snippet

float mask_round_half(float x) {
    if (isnan(x) || isinf(x) || x == 0.0f) return x;
    double a = fabs((double)x), r;
    if (a < ldexp(1.0, -14)) {               // subnormal halves: steps of 2^-24
        r = ldexp(nearbyint(ldexp(a, 24)), -24);
    } else {                                 // 11 significant bits
        int e;
        double f = frexp(a, &e);             // a = f 2^e, 0.5 <= f < 1
        r = ldexp(nearbyint(ldexp(f, 11)), e - 11);
    }
    if (r > 65504.0) r = INFINITY;           // rounded past the largest half
    return (float)(x < 0 ? -r : r);
}

// ---------------------------------------------------------------------------
// statistics

mask_stats_t mask_stats(const unsigned char *mask, int n, int m) {
    mask_stats_t s = {0.0, 0.0, 0, 0, 0, -1};
    if (n <= 0 || m <= 0) return s;
    long total = 0;
    s.min_visible = m;
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int j = 0; j < m; j++) {
            if (!mask[(size_t)i * m + j]) continue;
            count++;
            if (abs(i - j) > s.farthest) s.farthest = abs(i - j);
        }
        total += count;
        if (count > s.max_visible) s.max_visible = count;
        if (count < s.min_visible) s.min_visible = count;
        if (count == 0) s.empty_rows++;
    }
    s.density = (double)total / ((double)n * m);
    s.mean_visible = (double)total / n;
    return s;
}

// snippet: mask_reach
int mask_reach(const unsigned char *mask, int n, int layers, unsigned char *reach) {
    if (layers < 0 || n < 0) return -1;   // never (-n) * (-n)
    size_t nn = (size_t)n * n;
    unsigned char *prev = malloc(nn ? nn : 1);
    if (!prev) return -1;
    for (int i = 0; i < n; i++)                  // 0 layers: each keeps its own
        for (int j = 0; j < n; j++) reach[(size_t)i * n + j] = i == j;
    for (int l = 0; l < layers; l++) {
        memcpy(prev, reach, nn);
        // One more layer: i gets j if i already had j (residual), or i sees
        // some k that already had j.
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++) {
                if (k != i && !mask[(size_t)i * n + k]) continue;
                for (int j = 0; j < n; j++)
                    reach[(size_t)i * n + j] |= prev[(size_t)k * n + j];
            }
    }
    free(prev);
    return 0;
}
// end snippet

void mask_window_causal(unsigned char *mask, int n, int w) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            unsigned char visible = 0;
            // BEGIN SOLUTION
            visible = j <= i && i - j <= w;
            // END SOLUTION
            mask[(size_t)i * n + j] = visible;
        }
}

void mask_prefix_lm(unsigned char *mask, int n, int prefix) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            unsigned char visible = 0;
            // BEGIN SOLUTION
            visible = j <= i || (i < prefix && j < prefix);
            // END SOLUTION
            mask[(size_t)i * n + j] = visible;
        }
}

int mask_is_transitive(const unsigned char *mask, int n) {
    if (n <= 0) return 1;
    // BEGIN SOLUTION
    // For every pair i -> k -> j that the mask allows, i -> j must be allowed too.
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            if (!mask[(size_t)i * n + k]) continue;
            for (int j = 0; j < n; j++)
                if (mask[(size_t)k * n + j] && !mask[(size_t)i * n + j]) return 0;
        }
    return 1;
    // END SOLUTION
}

int mask_min_layers(const unsigned char *mask, int n, int *depth) {
    if (n < 0) return -1;
    // BEGIN SOLUTION
    // Layer by layer, as mask_reach grows reach: row i of depth is a
    // breadth-first search from i along visible entries. After layer L, i holds
    // j if i sees some k (or is k) that held j after layer L - 1.
    for (int i = 0; i < n; i++) {
        int *row = depth + (size_t)i * n;
        for (int j = 0; j < n; j++) row[j] = j == i ? 0 : -1;
        for (int layer = 1, grew = 1; grew; layer++) {
            grew = 0;
            for (int k = 0; k < n; k++) {        // k reached in layer - 1 layers
                if (row[k] != layer - 1) continue;
                for (int j = 0; j < n; j++)      // j reached k's position in one
                    if (row[j] < 0 && mask[(size_t)k * n + j]) {
                        row[j] = layer;
                        grew = 1;
                    }
            }
        }
    }
    // END SOLUTION
    return 0;
}

// snippet: mask_flow
mask_flow_t mask_flow(const float *w, int n, int m, double threshold) {
    mask_flow_t f = {0.0, 0.0, -1};
    if (n <= 0) return f;
    double dist = 0.0, ent = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double p = w[(size_t)i * m + j];
            dist += p * abs(i - j);
            if (p > 0.0) ent -= p * log(p);
            if (p > threshold && abs(i - j) > f.farthest) f.farthest = abs(i - j);
        }
    f.mean_distance = dist / n;
    f.entropy = ent / n;
    return f;
}
// end snippet

// ---------------------------------------------------------------------------
// a padded batch

// snippet: mask_mha_batch
int mask_mha_batch(const mha_params_t *p, const float *x, int batch, int n,
                   const unsigned char *keep, const unsigned char *attn_mask,
                   float *out, float *weights) {
    if (batch <= 0 || n <= 0) return 0;               // nothing to attend
    size_t nn = (size_t)n * n, nd = (size_t)n * p->d_model;
    unsigned char *mask = malloc(nn ? nn : 1);        // (n, n), one sequence's
    if (!mask) return -1;
    int rc = 0;
    for (int b = 0; b < batch && rc == 0; b++) {
        for (int i = 0; i < n; i++)                   // key padding, every row
            for (int j = 0; j < n; j++)
                mask[(size_t)i * n + j] = (!keep || keep[(size_t)b * n + j]) &&
                                          (!attn_mask || attn_mask[(size_t)i * n + j]);
        // One mask for all heads: mha_forward hands it to every head.
        rc = mha_forward(p, x + b * nd, n, x + b * nd, n, mask, out + b * nd,
                         weights ? weights + (size_t)b * p->n_heads * nn : NULL);
    }
    free(mask);
    return rc;
}
// end snippet
