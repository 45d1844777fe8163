// mirror.c -- the mirror-language task: words, sentences, padded batches.
#include "data/mirror.h"

#include <math.h>
#include <stdlib.h>

// snippet: task
// Source word k is id k + 1; its translation, target word k, is id k + 3
// (target ids 1 and 2 are BOS and EOS).
int mirror_tgt_of_src(int id) { return id + 2; }

// The translation of src (len words): the same words, reversed.
void mirror_translate(const int *src, int len, int *tgt) {
    for (int i = 0; i < len; i++) tgt[i] = mirror_tgt_of_src(src[len - 1 - i]);
}
// end snippet

void mirror_word_text(int k, int capital, char out[3]) {
    static const char cons[] = "bdfgklmnprst", vow[] = "aeiou";
    if (k < 0 || k >= MIRROR_WORDS) {
        out[0] = '?', out[1] = '\0', out[2] = '\0';
        return;
    }
    out[0] = cons[(k / 5) % 12];
    out[1] = vow[k % 5];
    out[2] = '\0';
    if (capital) {
        out[0] = (char)(out[0] - 'a' + 'A');
        out[1] = (char)(out[1] - 'a' + 'A');
    }
}

const char *mirror_src_text(int id, char buf[3]) {
    if (id == MIRROR_SRC_EOS) return "</s>";
    if (id < 1 || id > MIRROR_WORDS) return "?";
    mirror_word_text(id - 1, 0, buf);
    return buf;
}

const char *mirror_tgt_text(int id, char buf[3]) {
    if (id == S2S_EOS) return "</s>";
    if (id < 3 || id >= 3 + MIRROR_WORDS) return "?";
    mirror_word_text(id - 3, 1, buf);
    return buf;
}

int mirror_split_make(mirror_split_t *s, int n, int log_uniform, rng_t *rng) {
    if (n < 1) return -1;
    s->n = n;
    s->len = malloc((size_t)n * sizeof(int));
    s->tok = malloc((size_t)n * MIRROR_MAX_LEN * sizeof(int));
    s->order = malloc((size_t)n * sizeof(int));
    if (!s->len || !s->tok || !s->order) {
        mirror_split_free(s);
        return -1;
    }
    enum { MIN = MIRROR_MIN_LEN, MAX = MIRROR_MAX_LEN, W = MIRROR_WORDS };
    for (int i = 0; i < n; i++) {
        int len = MIN + (int)(rng_next(rng) % (MAX - MIN + 1));
        double u = rng_uniform(rng);
        if (log_uniform && i % 2)   // half the training sentences short-biased:
            len = (int)floor(MIN * pow((MAX + 1.0) / MIN, u));   // cheaper
        s->len[i] = len;
        int pool[W];                    // len distinct words: a partial shuffle
        for (int k = 0; k < W; k++) pool[k] = 1 + k;
        for (int t = 0; t < MAX; t++) {
            if (t >= len) {
                s->tok[i * MAX + t] = S2S_PAD;
                continue;
            }
            int j = t + (int)(rng_next(rng) % (uint64_t)(W - t));
            int tmp = pool[t];
            pool[t] = pool[j];
            pool[j] = tmp;
            s->tok[i * MAX + t] = pool[t];
        }
    }
    // Counting sort by length: stable, so the order is fixed by the seed.
    int k = 0;
    for (int len = MIN; len <= MAX; len++)
        for (int i = 0; i < n; i++)
            if (s->len[i] == len) s->order[k++] = i;
    return 0;
}

void mirror_split_free(mirror_split_t *s) {
    free(s->len);
    free(s->tok);
    free(s->order);
    s->len = s->tok = s->order = NULL;
    s->n = 0;
}

void mirror_batch_fill(mirror_batch_t *bb, const mirror_split_t *s, const int *idx,
                       int b, int src_eos) {
    bb->bt.b = 0;
    if (b < 1 || b > MIRROR_BATCH_MAX) return;
    int longest = 0;
    for (int r = 0; r < b; r++)
        if (s->len[idx[r]] > longest) longest = s->len[idx[r]];
    int t_len = longest + (src_eos ? 1 : 0), u_len = longest + 1, tgt[MIRROR_MAX_LEN];
    for (int r = 0; r < b; r++) {
        int len = s->len[idx[r]];
        const int *src = s->tok + idx[r] * MIRROR_MAX_LEN;
        mirror_translate(src, len, tgt);
        for (int t = 0; t < t_len; t++) {
            int id = t < len ? src[t] : t == len && src_eos ? MIRROR_SRC_EOS : S2S_PAD;
            bb->src[r * t_len + t] = id;
            bb->mask[r * t_len + t] = id != S2S_PAD;
        }
        for (int i = 0; i < u_len; i++) {
            bb->tin[r * u_len + i] = i == 0 ? S2S_BOS : i <= len ? tgt[i - 1] : S2S_PAD;
            bb->tout[r * u_len + i] = i < len ? tgt[i] : i == len ? S2S_EOS : S2S_PAD;
        }
    }
    bb->bt = (s2s_batch_t){.b = b,
                           .t_len = t_len,
                           .u_len = u_len,
                           .src = bb->src,
                           .src_mask = bb->mask,
                           .tgt_in = bb->tin,
                           .tgt_out = bb->tout};
}

int mirror_feed_count(int n, int batch) {
    return n > 0 && batch > 0 ? (n + batch - 1) / batch : 0;
}

// Batch k of split s in batches of `batch` sentences, filled into f->bb.
static const void *feed(const mirror_feed_t *f, const mirror_split_t *s, int batch,
                        int k) {
    int first = k * batch;
    int b = k < 0 ? 0 : s->n - first < batch ? s->n - first : batch;
    mirror_batch_fill(f->bb, s, s->order + first, b, f->src_eos);
    return &f->bb->bt;
}

const void *mirror_feed_train(void *f, int k) {
    const mirror_feed_t *mf = f;
    return feed(mf, mf->train, mf->batch, k);
}

const void *mirror_feed_val(void *f, int k) {
    const mirror_feed_t *mf = f;
    return feed(mf, mf->val, mf->eval_batch, k);
}
