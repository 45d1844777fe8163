// block.c -- Add & Norm, and the encoder and decoder blocks built from it.
#include "layers/block.h"

#include <stdlib.h>
#include <string.h>

// snippet: layernorm_add_norm
void layernorm_add_norm(const float *x, const float *sub, const layernorm_params_t *ln,
                        float *y, int n) {
    if (n < 1 || ln->d < 1) return;
    size_t size = (size_t)n * ln->d;
    for (size_t i = 0; i < size; i++) y[i] = x[i] + sub[i];   // x + Sublayer(x)
    layernorm_forward(y, ln->gamma, ln->beta, y, n, ln->d, LAYERNORM_EPS);
}
// end snippet

// ---------------------------------------------------------------------------
// encoder block

int encoder_block_alloc(encoder_block_t *b, int d_model, int n_heads, int d_ff) {
    memset(b, 0, sizeof *b);
    int rc = mha_alloc(&b->attn, d_model, n_heads);
    if (rc != 0) return rc;
    if (layernorm_alloc(&b->norm1, d_model) || ffn_alloc(&b->ffn, d_model, d_ff) ||
        layernorm_alloc(&b->norm2, d_model)) {
        encoder_block_free(b);
        return d_ff < 1 ? -1 : -2;
    }
    return 0;
}

void encoder_block_free(encoder_block_t *b) {
    mha_free(&b->attn);
    layernorm_free(&b->norm1);
    ffn_free(&b->ffn);
    layernorm_free(&b->norm2);
}

void encoder_block_init(encoder_block_t *b, rng_t *rng) {
    mha_init(&b->attn, rng);
    ffn_init(&b->ffn, rng);
}

long encoder_block_param_count(const encoder_block_t *b) {
    return mha_param_count(&b->attn) + ffn_param_count(&b->ffn) +
           2L * 2 * b->attn.d_model;   // two layer norms, gamma and beta each
}

// snippet: encoder_block_forward
int encoder_block_forward(const encoder_block_t *b, const float *x, int n,
                          const unsigned char *mask, float *y, float *weights) {
    int d = b->attn.d_model;
    if (n < 0) return -1;
    float *ws =
        malloc(((size_t)2 * n * d + (size_t)n * b->ffn.d_ff + 1) * sizeof(float));
    if (!ws) return -1;
    float *sub = ws;                          // (n, d_model) a sub-layer's output
    float *h1 = sub + (size_t)n * d;          // (n, d_model)
    float *hidden = h1 + (size_t)n * d;       // (n, d_ff)

    int rc = mha_forward(&b->attn, x, n, x, n, mask, sub, weights);  // self-attention
    if (rc == 0) {
        layernorm_add_norm(x, sub, &b->norm1, h1, n); // h1 = LN(x + MultiHead(x, x, x))
        ffn_forward(&b->ffn, h1, hidden, sub, n);
        layernorm_add_norm(h1, sub, &b->norm2, y, n);      // y = LN(h1 + FFN(h1))
    }
    free(ws);
    return rc;
}
// end snippet

// ---------------------------------------------------------------------------
// decoder block

int decoder_block_alloc(decoder_block_t *b, int d_model, int n_heads, int d_ff) {
    memset(b, 0, sizeof *b);
    int rc = mha_alloc(&b->self_attn, d_model, n_heads);
    if (rc == 0) rc = mha_alloc(&b->cross_attn, d_model, n_heads);
    if (rc != 0) {
        decoder_block_free(b);
        return rc;
    }
    if (layernorm_alloc(&b->norm1, d_model) || layernorm_alloc(&b->norm2, d_model) ||
        ffn_alloc(&b->ffn, d_model, d_ff) || layernorm_alloc(&b->norm3, d_model)) {
        decoder_block_free(b);
        return d_ff < 1 ? -1 : -2;
    }
    return 0;
}

void decoder_block_free(decoder_block_t *b) {
    mha_free(&b->self_attn);
    layernorm_free(&b->norm1);
    mha_free(&b->cross_attn);
    layernorm_free(&b->norm2);
    ffn_free(&b->ffn);
    layernorm_free(&b->norm3);
}

void decoder_block_init(decoder_block_t *b, rng_t *rng) {
    mha_init(&b->self_attn, rng);
    mha_init(&b->cross_attn, rng);
    ffn_init(&b->ffn, rng);
}

long decoder_block_param_count(const decoder_block_t *b) {
    return mha_param_count(&b->self_attn) + mha_param_count(&b->cross_attn) +
           ffn_param_count(&b->ffn) + 3L * 2 * b->self_attn.d_model;
}

// snippet: decoder_block_forward
int decoder_block_forward(const decoder_block_t *b, const float *x, int n,
                          const float *enc, int m, const unsigned char *self_mask,
                          const unsigned char *cross_mask, float *y, float *self_w,
                          float *cross_w) {
    int d = b->self_attn.d_model;
    if (n < 0 || m < 0) return -1;
    float *ws =
        malloc(((size_t)3 * n * d + (size_t)n * b->ffn.d_ff + 1) * sizeof(float));
    unsigned char *causal = calloc((size_t)n * n + 1, 1);
    if (!ws || !causal) {
        free(ws);
        free(causal);
        return -1;
    }
    float *sub = ws;                          // (n, d_model) a sub-layer's output
    float *h1 = sub + (size_t)n * d;          // (n, d_model)
    float *h2 = h1 + (size_t)n * d;           // (n, d_model)
    float *hidden = h2 + (size_t)n * d;       // (n, d_ff)

    // Token i may look at tokens j <= i only (and not at hidden ones).
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            causal[i * n + j] = j <= i && (!self_mask || self_mask[i * n + j]);

    int rc = mha_forward(&b->self_attn, x, n, x, n, causal, sub, self_w);
    if (rc == 0) {
        layernorm_add_norm(x, sub, &b->norm1, h1, n); // h1 = LN(x + MultiHead(x, x, x))
        rc = mha_forward(&b->cross_attn, h1, n, enc, m, cross_mask, sub, cross_w);
    }
    if (rc == 0) {
        layernorm_add_norm(h1, sub, &b->norm2, h2, n); // h2 = LN(h1 + MHA(h1, enc))
        ffn_forward(&b->ffn, h2, hidden, sub, n);
        layernorm_add_norm(h2, sub, &b->norm3, y, n);      // y = LN(h2 + FFN(h2))
    }
    free(ws);
    free(causal);
    return rc;
}
// end snippet
