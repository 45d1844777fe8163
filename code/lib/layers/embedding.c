// embedding.c -- table lookup and its scatter-add gradient.
#include "layers/embedding.h"

#include <math.h>
#include <string.h>

int embedding_forward(const float *table, const int *ids, float *out, int n, int v,
                      int e) {
    if (n < 0 || v < 0 || e < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= v) return -1;
        memcpy(out + (size_t)i * e, table + (size_t)ids[i] * e,
               (size_t)e * sizeof *out);
    }
    return 0;
}

// snippet: embedding_backward
void embedding_backward(const int *ids, const float *dout, float *dtable, int n, int v,
                        int e) {
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= v) continue;
        // Inverts: out[i] = table[ids[i]]
        float *row = dtable + (size_t)ids[i] * e;
        for (int j = 0; j < e; j++) row[j] += dout[(size_t)i * e + j];
    }
}
// end snippet

// snippet: embedding_pos
int embedding_pos_forward(const float *table, const int *ids, const float *pe,
                          float *out, int n, int v, int e) {
    if (n < 0 || v < 0 || e < 0) return -1;
    float scale = sqrtf((float)e);
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= v) return -1;
        const float *row = table + (size_t)ids[i] * e, *pos = pe + (size_t)i * e;
        for (int j = 0; j < e; j++) out[(size_t)i * e + j] = row[j] * scale + pos[j];
    }
    return 0;
}

void embedding_pos_backward(const int *ids, const float *dout, float *dtable, int n,
                            int v, int e) {
    float scale = sqrtf((float)e);
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= v) continue;
        // Inverts: out[i] = table[ids[i]] * sqrt(E) + pe[i]
        float *row = dtable + (size_t)ids[i] * e;
        for (int j = 0; j < e; j++) row[j] += scale * dout[(size_t)i * e + j];
    }
}
// end snippet
