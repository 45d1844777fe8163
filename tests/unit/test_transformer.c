// test_transformer.c -- the batched Transformer of models/transformer.h: every
// parameter's gradient against central finite differences; its forward against
// the sentence-at-a-time blocks of block_train.h; padding changes nothing, bit
// for bit; greedy decoding with the key/value cache gives exactly the logits of
// the full forward pass on the same prefix; the attention on vectors gives the
// bytes of the row-by-row loops the book lists.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/block_train.h"
#include "layers/embedding.h"
#include "layers/layernorm.h"
#include "position/sinusoidal.h"
#include "models/transformer.h"

// transformer.c once more, with every head attended row by row (attend_row and
// attend_row_backward, as the book lists them), under other names.
#define TF_ROWWISE
void rowwise_work_free(tf_work_t *w);   // called before its definition
#define tf_config_check rowwise_config_check
#define tf_param_count rowwise_param_count
#define tf_bind rowwise_bind
#define tf_init rowwise_init
#define tf_work_new rowwise_work_new
#define tf_work_free rowwise_work_free
#define tf_logits rowwise_logits
#define tf_forward rowwise_forward
#define tf_backward rowwise_backward
#define tf_greedy rowwise_greedy
#define tf_model_forward rowwise_model_forward
#define tf_model_backward rowwise_model_backward
#include "../../code/lib/models/transformer.c"
#undef tf_config_check
#undef tf_param_count
#undef tf_bind
#undef tf_init
#undef tf_work_new
#undef tf_work_free
#undef tf_logits
#undef tf_forward
#undef tf_backward
#undef tf_greedy
#undef tf_model_forward
#undef tf_model_backward

enum { B = 3, T = 5, U = 4, VS = 9, VT = 8, D = 8, H = 2, DFF = 12 };

// Three sources of lengths 5, 3, 1 (padded), targets of lengths 4, 2, 3.
static const int SRC[B * T] = {3, 4, 5, 6, 7, 8, 3, 2, 0, 0, 5, 0, 0, 0, 0};
static const unsigned char MASK[B * T] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0};
static const int TIN[B * U] = {1, 5, 6, 3, 1, 4, 0, 0, 1, 7, 7, 0};
static const int TOUT[B * U] = {5, 6, 3, 2, 4, 2, 0, 0, 7, 7, 2, 0};

static tf_config_t config(int layers) {
    return (tf_config_t){.v_src = VS, .v_tgt = VT, .d_model = D, .n_heads = H,
                         .d_ff = DFF, .n_enc = layers, .n_dec = layers, .b_max = B,
                         .t_max = T, .u_max = U + 2};
}

static s2s_batch_t batch(void) {
    return (s2s_batch_t){.b = B, .t_len = T, .u_len = U, .src = SRC, .src_mask = MASK,
                         .tgt_in = TIN, .tgt_out = TOUT};
}

// Random parameters, layer norms and biases included (not only their 1s and 0s).
static float *random_model(const tf_config_t *c, uint64_t seed) {
    long n = tf_param_count(c);
    cr_assert(n > 0);
    float *buf = malloc((size_t)n * sizeof *buf);
    cr_assert_not_null(buf);
    rng_t rng;
    rng_seed(&rng, seed);
    tf_init(buf, c, &rng);
    for (long i = 0; i < n; i++) buf[i] += 0.2f * (float)rng_normal(&rng);
    return buf;
}

static double mean_loss(const tf_config_t *c, float *buf, tf_work_t *w) {
    tf_params_t p;
    tf_bind(&p, buf, c);
    s2s_batch_t bt = batch();
    int count;
    return tf_forward(&p, c, &bt, w, &count) / count;
}

Test(transformer, param_count_and_bad_configs) {
    tf_config_t c = config(2);
    long d = D, f = DFF;
    long want = (VS + VT) * d + 2 * (4 * d * d + d + 2 * d * f + f + d + 4 * d) +
                2 * (8 * d * d + 2 * d + 2 * d * f + f + d + 6 * d) + d * VT + VT;
    cr_assert_eq(tf_param_count(&c), want);
    tf_config_t bad = c;
    bad.n_heads = 3;   // does not divide 8
    cr_assert_eq(tf_param_count(&bad), -1);
    cr_assert_null(tf_work_new(&bad));
    bad = c, bad.n_enc = TF_MAX_LAYERS + 1;
    cr_assert_eq(tf_config_check(&bad), -1);
    bad = c, bad.d_ff = 0;
    cr_assert_eq(tf_config_check(&bad), -1);
}

Test(transformer, refuses_what_the_workspace_cannot_hold) {
    tf_config_t c = config(1);
    float *buf = random_model(&c, 3);
    tf_work_t *w = tf_work_new(&c);
    tf_params_t p;
    tf_bind(&p, buf, &c);
    s2s_batch_t bt = batch();
    int count = 7;
    bt.b = B + 1;
    cr_assert_eq(tf_forward(&p, &c, &bt, w, &count), -1.0);
    cr_assert_eq(count, 0);
    bt = batch(), bt.t_len = T + 1;
    cr_assert_eq(tf_forward(&p, &c, &bt, w, &count), -1.0);
    int bad_src[B * T];
    memcpy(bad_src, SRC, sizeof bad_src);
    bad_src[4] = VS;   // one past the vocabulary
    bt = batch(), bt.src = bad_src;
    cr_assert_eq(tf_forward(&p, &c, &bt, w, &count), -1.0);
    int out[B * (U + 2)];
    cr_assert_eq(tf_greedy(&p, &c, bad_src, MASK, B, T, out, NULL, NULL, w), -1);
    cr_assert_eq(tf_greedy(&p, &c, SRC, MASK, B, T + 1, out, NULL, NULL, w), -1);
    free(buf);
    tf_work_free(w);
}

// Every parameter's gradient of the mean loss against a central difference.
static void gradcheck(int layers) {
    tf_config_t c = config(layers);
    long n = tf_param_count(&c);
    float *buf = random_model(&c, 11), *grad = calloc((size_t)n, sizeof *grad);
    tf_work_t *w = tf_work_new(&c);
    cr_assert(grad && w);
    tf_params_t p, g;
    tf_bind(&p, buf, &c);
    tf_bind(&g, grad, &c);
    s2s_batch_t bt = batch();
    int count;
    tf_forward(&p, &c, &bt, w, &count);
    cr_assert_eq(count, 9);
    cr_assert_eq(tf_backward(&p, &g, &c, &bt, w, 1.0f / count), 0);
    long checked = 0;
    for (long i = 0; i < n; i++) {
        float keep = buf[i], eps = 1e-3f;
        buf[i] = keep + eps;
        double lp = mean_loss(&c, buf, w);
        buf[i] = keep - eps;
        double lm = mean_loss(&c, buf, w);
        buf[i] = keep;
        double num = (lp - lm) / (2.0 * eps), err = fabs(num - grad[i]);
        cr_assert(err <= 3e-3 + 3e-2 * fabs(num),
                  "param %ld of %ld: numeric %.6f, backward %.6f", i, n, num, grad[i]);
        checked += grad[i] != 0.0f;
    }
    // Padding rows get no gradient, but most parameters do.
    cr_assert(checked > n / 2, "only %ld of %ld gradients are nonzero", checked, n);
    // The padding embedding row is never read by a real position.
    for (int j = 0; j < D; j++) {
        cr_assert_eq(g.emb_src[j], 0.0f);
        cr_assert_eq(g.emb_tgt[j], 0.0f);
    }
    free(buf);
    free(grad);
    tf_work_free(w);
}

Test(transformer, gradients_one_block_each) { gradcheck(1); }
Test(transformer, gradients_two_blocks_each) { gradcheck(2); }

// The forward, sentence by sentence through block_train.h's blocks (which equal
// block.h's): embed, encoder blocks with the padding hidden, decoder blocks,
// output layer. The batched version agrees to float rounding.
Test(transformer, equals_the_blocks_one_sentence_at_a_time) {
    tf_config_t c = config(2);
    float *buf = random_model(&c, 5);
    tf_work_t *w = tf_work_new(&c);
    tf_params_t p;
    tf_bind(&p, buf, &c);
    s2s_batch_t bt = batch();
    int count;
    tf_forward(&p, &c, &bt, w, &count);
    const float *logits = tf_logits(w);
    float pe[T * D], x[T * D], y[T * D], enc[T * D], tx[U * D], ty[U * D];
    sinusoidal_table(pe, T, D, 0, SINUSOIDAL_BASE);
    double worst = 0.0;
    for (int s = 0; s < B; s++) {
        int m = 0;
        while (m < T && MASK[s * T + m]) m++;   // the real source length
        cr_assert_eq(embedding_pos_forward(p.emb_src, SRC + s * T, pe, x, m, VS, D), 0);
        for (int l = 0; l < c.n_enc; l++) {
            size_t nf = blk_encoder_cache_floats(&p.enc[l], m);
            float *cb = malloc(nf * sizeof(float));
            blk_encoder_cache_t ec;
            blk_encoder_cache_bind(&ec, cb, &p.enc[l], m);
            cr_assert_eq(blk_encoder_forward(&p.enc[l], x, m, NULL, &ec, y), 0);
            memcpy(x, y, sizeof(float) * m * D);
            free(cb);
        }
        memcpy(enc, x, sizeof(float) * m * D);
        embedding_pos_forward(p.emb_tgt, TIN + s * U, pe, tx, U, VT, D);
        for (int l = 0; l < c.n_dec; l++) {
            size_t nf = blk_decoder_cache_floats(&p.dec[l], U, m);
            float *cb = malloc(nf * sizeof(float));
            blk_decoder_cache_t dc;
            blk_decoder_cache_bind(&dc, cb, &p.dec[l], U, m);
            cr_assert_eq(
                blk_decoder_forward(&p.dec[l], tx, U, enc, m, NULL, NULL, &dc, ty), 0);
            memcpy(tx, ty, sizeof(float) * U * D);
            free(cb);
        }
        for (int i = 0; i < U; i++) {
            if (TOUT[s * U + i] == 0) continue;   // padding: never used
            for (int v = 0; v < VT; v++) {
                double z = p.b_out[v];
                for (int j = 0; j < D; j++)
                    z += (double)tx[i * D + j] * p.w_out[j * VT + v];
                double diff = fabs(z - logits[(s * U + i) * VT + v]);
                if (diff > worst) worst = diff;
            }
        }
    }
    cr_assert(worst < 1e-4, "batched and sentence-at-a-time logits differ by %g",
              worst);
    free(buf);
    tf_work_free(w);
}

// Sentence 1 alone (no padding) and inside the padded batch: the same logits,
// bit for bit (hidden keys are skipped, not weighted by a tiny number).
Test(transformer, padding_changes_nothing) {
    tf_config_t c = config(2);
    float *buf = random_model(&c, 9);
    tf_work_t *w = tf_work_new(&c);
    tf_params_t p;
    tf_bind(&p, buf, &c);
    s2s_batch_t bt = batch();
    int count;
    tf_forward(&p, &c, &bt, w, &count);
    float in_batch[2 * VT];
    memcpy(in_batch, tf_logits(w) + 1 * U * VT, sizeof in_batch);   // its 2 targets
    s2s_batch_t one = {.b = 1, .t_len = 3, .u_len = 2, .src = SRC + T,
                       .src_mask = MASK + T, .tgt_in = TIN + U, .tgt_out = TOUT + U};
    tf_forward(&p, &c, &one, w, &count);
    cr_assert_eq(count, 2);
    cr_assert_eq(memcmp(in_batch, tf_logits(w), sizeof in_batch), 0,
                 "padding changed the logits");
    free(buf);
    tf_work_free(w);
}

// Greedy decoding with the cache, then the full teacher-forced forward on the
// tokens it chose: the same logits at every step, bit for bit.
Test(transformer, kv_cache_decoding_equals_the_full_forward) {
    tf_config_t c = config(2);
    float *buf = random_model(&c, 13);
    tf_work_t *w = tf_work_new(&c);
    tf_params_t p;
    tf_bind(&p, buf, &c);
    int um = c.u_max, out[B * (U + 2)];
    float *lg = malloc(sizeof(float) * B * um * VT);
    float *cross = malloc(sizeof(float) * B * c.n_dec * H * um * T);
    cr_assert_eq(tf_greedy(&p, &c, SRC, MASK, B, T, out, lg, cross, w), 0);
    for (int s = 0; s < B; s++) {
        int n = 0;   // steps taken: up to and including EOS, or all um
        while (n < um && out[s * um + n] != 0) n++;
        int tin[U + 2], tout[U + 2];
        tin[0] = 1;
        for (int i = 0; i < n; i++) {
            tout[i] = out[s * um + i];
            if (i + 1 < n) tin[i + 1] = out[s * um + i];
        }
        s2s_batch_t one = {.b = 1, .t_len = T, .u_len = n, .src = SRC + s * T,
                           .src_mask = MASK + s * T, .tgt_in = tin, .tgt_out = tout};
        int count;
        tf_forward(&p, &c, &one, w, &count);
        cr_assert_eq(
            memcmp(tf_logits(w), lg + (size_t)s * um * VT, sizeof(float) * n * VT), 0,
            "sentence %d: cached and full logits differ", s);
        // the cross-attention weights are distributions over the visible source
        for (int l = 0; l < c.n_dec; l++)
            for (int hh = 0; hh < H; hh++)
                for (int i = 0; i < n; i++) {
                    const float *a =
                        cross + ((((size_t)s * c.n_dec + l) * H + hh) * um + i) * T;
                    double sum = 0.0;
                    for (int j = 0; j < T; j++) {
                        if (!MASK[s * T + j]) cr_assert_eq(a[j], 0.0f);
                        sum += a[j];
                    }
                    cr_assert_float_eq(sum, 1.0, 1e-5);
                }
    }
    free(lg);
    free(cross);
    free(buf);
    tf_work_free(w);
}

// table[ids] * sqrt(E) + pe, and its gradient against finite differences.
Test(transformer, embedding_with_positions) {
    enum { N = 4, V = 5, E = 6 };
    float table[V * E], pe[N * E], out[N * E], r[N * E], dtable[V * E] = {0};
    int ids[N] = {2, 0, 2, 4};
    rng_t rng;
    rng_seed(&rng, 2);
    rng_fill_normal(&rng, table, V * E, 0, 1);
    rng_fill_normal(&rng, r, N * E, 0, 1);
    sinusoidal_table(pe, N, E, 0, SINUSOIDAL_BASE);
    cr_assert_eq(embedding_pos_forward(table, ids, pe, out, N, V, E), 0);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < E; j++)
            cr_assert_float_eq(out[i * E + j],
                               table[ids[i] * E + j] * sqrtf((float)E) + pe[i * E + j],
                               1e-6);
    embedding_pos_backward(ids, r, dtable, N, V, E);
    for (int k = 0; k < V * E; k++) {   // L = sum(r * out) is linear in the table
        float keep = table[k];
        double l[2];
        for (int s = 0; s < 2; s++) {
            table[k] = keep + (s ? -0.5f : 0.5f);
            embedding_pos_forward(table, ids, pe, out, N, V, E);
            l[s] = 0.0;
            for (int i = 0; i < N * E; i++) l[s] += (double)r[i] * out[i];
        }
        table[k] = keep;
        cr_assert_float_eq((l[0] - l[1]) / 1.0, dtable[k], 1e-4, "dtable[%d]", k);
    }
    int bad[N] = {2, 0, 5, 1};
    cr_assert_eq(embedding_pos_forward(table, bad, pe, out, N, V, E), -1);
}

// The library's attention, four columns and keys at a time, against the
// row-by-row copy above: the same logits and the same gradients, bit for bit,
// for heads of 4 and 8 columns, 1 and 2 blocks (padded keys and the causal
// mask included).
static void vectors_equal_rows(int d_model, int layers) {
    tf_config_t c = config(layers);
    c.d_model = d_model, c.d_ff = 2 * d_model;
    long n = tf_param_count(&c);
    float *buf = random_model(&c, 5);
    float *g1 = calloc((size_t)n, sizeof *g1), *g2 = calloc((size_t)n, sizeof *g2);
    tf_work_t *w1 = tf_work_new(&c), *w2 = rowwise_work_new(&c);
    cr_assert(g1 && g2 && w1 && w2);
    tf_params_t p, gp1, gp2;
    tf_bind(&p, buf, &c);
    tf_bind(&gp1, g1, &c);
    tf_bind(&gp2, g2, &c);
    s2s_batch_t bt = batch();
    int n1, n2;
    double l1 = tf_forward(&p, &c, &bt, w1, &n1);
    double l2 = rowwise_forward(&p, &c, &bt, w2, &n2);
    cr_assert(l1 == l2 && n1 == n2, "loss %.9g against %.9g", l1, l2);
    size_t logits = sizeof(float) * B * U * VT;
    cr_assert_eq(memcmp(tf_logits(w1), rowwise_logits(w2), logits), 0);
    cr_assert_eq(tf_backward(&p, &gp1, &c, &bt, w1, 0.5f), 0);
    cr_assert_eq(rowwise_backward(&p, &gp2, &c, &bt, w2, 0.5f), 0);
    for (long i = 0; i < n; i++)
        cr_assert(memcmp(&g1[i], &g2[i], sizeof(float)) == 0,
                  "gradient %ld of %ld: %.9g on vectors, %.9g row by row", i, n, g1[i],
                  g2[i]);
    free(buf);
    free(g1);
    free(g2);
    tf_work_free(w1);
    rowwise_work_free(w2);
}

Test(transformer, attention_on_vectors_equals_row_by_row) {
    vectors_equal_rows(8, 1);    // d_k 4
    vectors_equal_rows(16, 2);   // d_k 8
}
