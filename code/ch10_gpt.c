// ch10_gpt.c -- chapter 10: a tiny GPT in C, trained on real text, sampled.
//
// Reads the `cookie` quotations of Debian's fortunes package (pinned by size
// and checksum), splits them by record, trains a byte-level BPE tokenizer,
// checks the model's backward pass by finite differences, trains a
// decoder-only model (pre-norm RMSNorm, RoPE, grouped-query attention, SwiGLU,
// tied embedding) through the book's trainer, measures it in bits per byte
// against unigram and bigram models, and generates text greedily and by
// sampling, with a key/value cache checked against recomputation.
//
// The corpus path is CORPUS_PATH (data/corpus.h); --corpus FILE overrides it
// (the file must still be the pinned one). With --data DIR the trained weights go to
// DIR/ch10_weights.bin (format in models/gpt.c) and the token streams the
// reference test needs to DIR/ch10_prompt.txt.
//
// Test args: --small

#define _POSIX_C_SOURCE 200809L   // popen, mkstemp: the compressors' yardstick

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rng.h"
#include "data/bpe.h"
#include "data/corpus.h"
#include "data/ngram.h"
#include "layers/gqa.h"
#include "models/gpt.h"
#include "program/cli.h"
#include "program/clock.h"
#include "program/program.h"
#include "program/progress.h"
#include "program/report.h"
#include "program/xalloc.h"
#include "train/trainer.h"

static const char *PROG = "ch10_gpt";

#define HELD_FRACTION 0.1
#define CLIP_NORM 1.0
#define WEIGHT_DECAY 0.1f   // AdamW's, on the embedding and the matrices
enum { GEN_TOKENS = 48, N_SAMPLES = 3, MAX_PROMPT = 256 };

typedef struct {
    long vocab, width, layers, heads, kv_heads, rounds, steps, batch, ctx, small;
    double lr, temperature, top_p;
    long top_k;
    const char *corpus, *prompt;   // the text's path; the samples' start
} opts_t;

// The trainer's batches of one model: windows of the two token streams.
typedef struct {
    const int *train, *held;     // the training and held-out texts as tokens
    long n_train, n_held;
    int *tok;                    // (B, T + 1) one batch's windows
    gpt_batch_t bt;              // B, T and tok
    rng_t rng;                   // the random windows' offsets
} feed_t;

typedef struct {
    opts_t o;
    corpus_t corpus;
    corpus_split_t split;
    bpe_t bpe;
    int *train_tok, *held_tok;   // the two texts as tokens
    long n_train_tok, n_held_tok;
    gpt_model_t md;
    trainer_t tr;
    rng_t rng;                   // init and shuffling
    feed_t feed;                 // the model's batches
    int n_val;                   // held-out batches after each round
    double train_cpu;            // seconds of CPU time in trainer_run
    float *logits, *logits2, *scratch;
    unsigned char *decay;        // (P,) AdamW's decay mask: 0 for the norms
} run_t;

// ---------------------------------------------------------------------------
// the text and the tokenizer

// Print bytes as text, with newlines and tabs spelled out.
static void print_escaped(const unsigned char *b, long n) {
    for (long i = 0; i < n; i++) {
        if (b[i] == '\n') fputs("\\n", stdout);
        else if (b[i] == '\t') fputs("\\t", stdout);
        else putchar(b[i]);
    }
}

// Read and pin the corpus; 2 (after one line on stderr) if it is missing or
// changed, else 0.
static int read_corpus(run_t *run) {
    const char *path = run->o.corpus;
    int rc = corpus_read(&run->corpus, path, CORPUS_BYTES, CORPUS_FNV1A64);
    if (rc != CORPUS_OK) {
        fprintf(stderr, "%s: %s: %s\n", PROG, path,
                corpus_error(rc));
        return 2;
    }
    return 0;
}

static void section_text(report_t *r, run_t *run) {
    report_section(r, "the text");
    const corpus_t *c = &run->corpus;
    xok(PROG, corpus_split(c, HELD_FRACTION, 1, &run->split), "corpus_split");
    const corpus_split_t *s = &run->split;
    printf("file: %s\n%zu bytes, FNV-1a 64 %016llx, %d records\n", run->o.corpus, c->n,
           (unsigned long long)c->fnv, c->n_records);
    printf("split by record (seed 1):\n  training %zu bytes (%d records)\n  held out "
           "%zu bytes (%d records)\n", s->n_train, s->train_records, s->n_held,
           s->held_records);
    report_check_true(r, "size and checksum equal the pinned values",
                      (long)c->n == CORPUS_BYTES && c->fnv == CORPUS_FNV1A64);
    report_check_true(r, "the split keeps every byte",
                      s->n_train + s->n_held == c->n);
    report_value(r, "corpus_bytes", "%.0f", (double)c->n);
    report_value(r, "corpus_records", "%.0f", c->n_records);
    report_value(r, "train_bytes", "%.0f", (double)s->n_train);
    report_value(r, "held_bytes", "%.0f", (double)s->n_held);
    report_value(r, "held_records", "%.0f", s->held_records);
    long first = (long)corpus_next_record(s->held, s->n_held, 0);
    printf("the first held-out record:\n");
    fwrite(s->held, 1, (size_t)first, stdout);
}

// --small (the tests' run): each text cut to its first records, about `bytes`
// of it, so that every section runs on a little text.
static void keep_first_records(unsigned char *text, size_t *n, size_t bytes) {
    size_t end = 0;
    while (end < *n && end < bytes) end = corpus_next_record(text, *n, end);
    *n = end;
}

static void section_tokens(report_t *r, run_t *run) {
    report_section(r, "tokenization");
    const corpus_split_t *s = &run->split;
    double t0 = clock_cpu_seconds();
    xok(PROG, bpe_train(&run->bpe, s->train, s->n_train, (int)run->o.vocab),
        "bpe_train");
    (void)t0;
    const bpe_t *b = &run->bpe;
    printf("vocabulary: 256 bytes + %d merges = %d tokens\nfirst merges (pair -> new "
           "token, count):\n", b->vocab - 256, b->vocab);
    for (int i = 0; i < 8 && i < b->vocab - 256; i++) {
        int len;
        const unsigned char *t = bpe_token(b, 256 + i, &len);
        printf("  %3d  '", 256 + i);
        print_escaped(t, len);
        printf("'  %ld\n", b->counts[i]);
    }
    run->train_tok = xmalloc(PROG, (s->n_train + 1) * sizeof(int));
    run->held_tok = xmalloc(PROG, (s->n_held + 1) * sizeof(int));
    run->n_train_tok = bpe_encode(b, s->train, s->n_train, run->train_tok);
    run->n_held_tok = bpe_encode(b, s->held, s->n_held, run->held_tok);
    xok(PROG, run->n_train_tok > 0 && run->n_held_tok > 0 ? 0 : -1, "bpe_encode");
    double bpt = (double)s->n_held / (double)run->n_held_tok;
    printf("training text: %ld tokens; held-out text: %ld tokens, %.3f bytes per "
           "token\n", run->n_train_tok, run->n_held_tok, bpt);
    report_value(r, "bytes_per_token", "%.2f", bpt);
    report_value(r, "train_tokens", "%.0f", (double)run->n_train_tok);
    report_value(r, "held_tokens", "%.0f", (double)run->n_held_tok);
    // encode then decode the whole corpus: the same bytes back
    const corpus_t *c = &run->corpus;
    int *all = xmalloc(PROG, (c->n + 1) * sizeof(int));
    unsigned char *back = xmalloc(PROG, c->n + 1);
    long n_all = bpe_encode(b, c->text, c->n, all);
    long n_back = bpe_decode(b, all, n_all, back, c->n);
    report_check_true(r, "decode(encode(corpus)) == corpus, byte for byte",
                      n_back == (long)c->n && memcmp(back, c->text, c->n) == 0);
    const char *words[] = {"12345 + 67890 = 80235", "receive recieve"};
    for (int i = 0; i < 2; i++) {
        long n = bpe_encode(b, (const unsigned char *)words[i], strlen(words[i]), all);
        printf("'%s' -> %ld tokens:\n   ", words[i], n);
        for (long j = 0, col = 3; j < n; j++) {
            int len;
            const unsigned char *t = bpe_token(b, all[j], &len);
            if (col + len + 3 > 76) printf("\n   "), col = 3;
            printf(" '");
            print_escaped(t, len);
            putchar('\'');
            col += len + 3;
        }
        putchar('\n');
    }
    free(all);
    free(back);
}

// ---------------------------------------------------------------------------
// the model

// A feed of B windows of T + 1 tokens over run's two texts.
static void feed_new(feed_t *fd, const run_t *run, int B, int T) {
    fd->train = run->train_tok, fd->held = run->held_tok;
    fd->n_train = run->n_train_tok, fd->n_held = run->n_held_tok;
    fd->tok = xmalloc(PROG, (size_t)B * (T + 1) * sizeof(int));
    fd->bt = (gpt_batch_t){.B = B, .T = T, .tokens = fd->tok};
}

// SwiGLU's hidden width for model width C: about 8 C / 3, a multiple of 4.
static int swiglu_width(long C) { return (int)(8 * C / 3 + 3) / 4 * 4; }

static void model_new(run_t *run) {
    const opts_t *o = &run->o;
    gpt_config_t c = {.V = run->bpe.vocab, .C = (int)o->width, .L = (int)o->layers,
                      .NH = (int)o->heads, .NKV = (int)o->kv_heads,
                      .F = swiglu_width(o->width), .B_max = (int)o->batch,
                      .T_max = (int)o->ctx, .rope_base = 10000.0};
    xok(PROG, gpt_config_check(&c), "gpt_config_check");
    run->md.cfg = c;
    feed_new(&run->feed, run, c.B_max, c.T_max);
    run->logits = xfloats(PROG, (size_t)c.V);
    run->logits2 = xfloats(PROG, (size_t)c.V);
    run->scratch = xfloats(PROG, 2 * (size_t)c.V);
}

// KV cache bytes per token, this model in float32 and Llama 3 8B in bf16
// (meta-llama/Meta-Llama-3-8B config.json: 32 layers, 32 query heads, 8
// key/value heads, hidden size 4096 -> head size 128, torch_dtype bfloat16).
static void print_kv_cache(report_t *r, const gpt_config_t *c) {
    int HS = c->C / c->NH;
    long mha = gqa_kv_bytes_per_token(c->L, c->NH, HS, 4);
    long gqa = gqa_kv_bytes_per_token(c->L, c->NKV, HS, 4);
    long mqa = gqa_kv_bytes_per_token(c->L, 1, HS, 4);
    long l_mha = gqa_kv_bytes_per_token(32, 32, 128, 2);
    long l_gqa = gqa_kv_bytes_per_token(32, 8, 128, 2);
    long l_mqa = gqa_kv_bytes_per_token(32, 1, 128, 2);
    printf("KV cache bytes per token:  %12s %12s %12s\n", "MHA", "GQA", "MQA");
    printf("  this model (float32)     %12ld %12ld %12ld\n", mha, gqa, mqa);
    printf("  Llama 3 8B (bf16)        %12ld %12ld %12ld\n", l_mha, l_gqa, l_mqa);
    report_value(r, "kv_mha", "%.0f", (double)mha);
    report_value(r, "kv_gqa", "%.0f", (double)gqa);
    report_value(r, "kv_mqa", "%.0f", (double)mqa);
    report_value(r, "llama_kib_mha", "%.0f", l_mha / 1024.0);
    report_value(r, "llama_kib_gqa", "%.0f", l_gqa / 1024.0);
    report_value(r, "llama_kib_mqa", "%.0f", l_mqa / 1024.0);
    // one sequence at Llama 3's context of 8192 tokens
    report_value(r, "llama_gib_gqa", "%.0f", 8192.0 * l_gqa / (1 << 30));
    report_value(r, "llama_gib_mha", "%.0f", 8192.0 * l_mha / (1 << 30));
}

static void section_model(report_t *r, run_t *run) {
    report_section(r, "the model");
    const gpt_config_t *c = &run->md.cfg;
    int HS = c->C / c->NH;
    printf("V %d, C %d, L %d, NH %d query heads, NKV %d key/value heads,\n"
           "HS %d, F %d, context T %d\n", c->V, c->C, c->L, c->NH, c->NKV, HS, c->F,
           c->T_max);
    long qkvo = (long)c->C * c->NH * HS * 2 + 2L * c->C * c->NKV * HS;
    long ffn = 3L * c->C * c->F, norms = 2L * c->C;
    long emb = (long)c->V * c->C, total = gpt_param_count(c);
    printf("%-34s %10s\n", "parameters", "count");
    printf("%-34s %10ld\n", "token embedding = output (tied)", emb);
    printf("%-34s %10ld\n", "per block: W_q W_k W_v W_o", qkvo);
    printf("%-34s %10ld\n", "per block: SwiGLU W_1 W_3 W_2", ffn);
    printf("%-34s %10ld\n", "per block: two RMSNorm scales", norms);
    printf("%-34s %10ld\n", "final RMSNorm scale", (long)c->C);
    printf("%-34s %10ld\n", "total", total);
    report_check(r, "the table adds up to gpt_param_count",
                 (double)(emb + c->L * (qkvo + ffn + norms) + c->C - total), 0.0);
    report_value(r, "params", "%.0f", (double)total);
    report_value(r, "params_emb", "%.0f", (double)emb);
    report_value(r, "params_block", "%.0f", (double)(qkvo + ffn + norms));
    const char *keys[] = {"cfg_V", "cfg_C", "cfg_L", "cfg_NH", "cfg_NKV", "cfg_HS",
                          "cfg_F", "cfg_T"};
    const int vals[] = {c->V, c->C, c->L, c->NH, c->NKV, HS, c->F, c->T_max};
    for (int i = 0; i < 8; i++) report_value(r, keys[i], "%.0f", vals[i]);
    print_kv_cache(r, c);
}

// Directional finite difference of the summed loss of bt along u on the slice
// [off, off + n) of the parameters w: (L(w + h u) - L(w - h u)) / 2h.
static double fd_along(gpt_model_t *m, float *w, const gpt_batch_t *bt, long off,
                       long n, const float *u, float h) {
    int cnt;
    for (long i = 0; i < n; i++) w[off + i] += h * u[i];
    double lp = gpt_model_forward(m, bt, &cnt);
    for (long i = 0; i < n; i++) w[off + i] -= 2 * h * u[i];
    double lm = gpt_model_forward(m, bt, &cnt);
    for (long i = 0; i < n; i++) w[off + i] += h * u[i];
    return (lp - lm) / (2.0 * h);
}

// The worst relative difference between backward and finite differences over
// every kind of parameter of a tiny two-block model (post: the post-norm
// order), each along a random direction; print: the table of them.
static double grad_check(rng_t *rng, int post, int print) {
    gpt_model_t m = {.cfg = {.V = 23, .C = 8, .L = 2, .NH = 4, .NKV = 2, .F = 12,
                             .B_max = 2, .T_max = 6, .rope_base = 10000.0,
                             .post_norm = post}};
    long n = gpt_param_count(&m.cfg);
    float *w = xfloats(PROG, (size_t)n), *g = xfloats(PROG, (size_t)n);
    float *u = xfloats(PROG, (size_t)n);
    gpt_init(w, &m.cfg, rng);
    for (long i = 0; i < n; i++) w[i] += 0.3f * rng_normal(rng);   // off the init
    gpt_bind(&m.p, w, &m.cfg);
    gpt_bind(&m.g, g, &m.cfg);
    m.work = gpt_work_new(&m.cfg);
    xok(PROG, m.work ? 0 : -1, "gpt_work_new");
    int tok[2 * 7];
    for (int i = 0; i < 14; i++) tok[i] = (int)(rng_uniform(rng) * 23) % 23;
    gpt_batch_t bt = {.B = 2, .T = 6, .tokens = tok};
    int cnt;
    gpt_model_forward(&m, &bt, &cnt);
    gpt_model_backward(&m, &bt, 1.0f);
    // each kind of parameter: the slice of layer 1 (or the shared tables)
    const gpt_params_t *p = &m.p;
    struct { const char *name; const float *at; long n; } part[] = {
        {"tied embedding wte (both uses)", p->wte, 23L * 8},
        {"RMSNorm scale n1", p->layer[1].n1, 8},
        {"W_q (through RoPE)", p->layer[1].wq, 64},
        {"W_k (GQA: shared heads, RoPE)", p->layer[1].wk, 32},
        {"W_v (GQA: shared heads)", p->layer[1].wv, 32}, {"W_o", p->layer[1].wo, 64},
        {"SwiGLU W_1 (gate)", p->layer[1].ffn.w1, 96},
        {"SwiGLU W_2 (down)", p->layer[0].ffn.w2, 96}, {"final RMSNorm nf", p->nf, 8},
    };
    double worst = 0.0;
    if (print)
        printf("%-32s %12s %12s %10s\n", "parameters", "analytic", "numeric",
               "rel. err");
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++) {
        long off = part[i].at - w;
        double an = 0.0;
        for (long j = 0; j < part[i].n; j++) {
            u[j] = rng_normal(rng);
            an += (double)g[off + j] * u[j];
        }
        double nu = fd_along(&m, w, &bt, off, part[i].n, u, 1e-3f);
        double rel = fabs(an - nu) / fmax(fabs(an), 1e-2);
        if (rel > worst) worst = rel;
        if (print) printf("%-32s %12.5f %12.5f %10.2e\n", part[i].name, an, nu, rel);
    }
    gpt_work_free(m.work);
    free(w), free(g), free(u);
    return worst;
}

static void section_gradients(report_t *r, rng_t *rng) {
    report_section(r, "gradient check");
    double worst = grad_check(rng, 0, 1);
    report_check(r, "backward == finite differences (relative)", worst, 1e-2);
    report_value(r, "grad_worst", "%.1e", worst);
}

// ---------------------------------------------------------------------------
// training

// The trainer's batches: B windows of T + 1 tokens at random offsets of the
// training text (k is ignored: every batch is a fresh draw from the feed's
// rng); the held-out batches are the held-out text's first windows in order.
static const void *feed_train(void *self, int k) {
    feed_t *fd = self;
    (void)k;
    int B = fd->bt.B, T = fd->bt.T;
    for (int b = 0; b < B; b++) {
        long start = (long)(rng_uniform(&fd->rng) * (fd->n_train - T - 1));
        memcpy(fd->tok + b * (T + 1), fd->train + start, (size_t)(T + 1) * sizeof(int));
    }
    return &fd->bt;
}

static const void *feed_val(void *self, int k) {
    feed_t *fd = self;
    int B = fd->bt.B, T = fd->bt.T;
    for (int b = 0; b < B; b++)
        memcpy(fd->tok + b * (T + 1), fd->held + ((long)k * B + b) * T,
               (size_t)(T + 1) * sizeof(int));
    return &fd->bt;
}

// Held-out batches of fd (at most max_val), or exit if the text holds none.
static int feed_val_batches(const feed_t *fd, int max_val) {
    long per_val = (long)fd->bt.B * fd->bt.T;
    int n_val = (int)((fd->n_held - 1) / per_val);
    n_val = n_val > max_val ? max_val : n_val;
    xok(PROG, n_val >= 1 ? 0 : -1, "held-out text too short for one batch");
    return n_val;
}

// snippet: ch10_cosine
// Warm-up, then cosine decay to a tenth of the peak (the trainer's schedule
// hook): peak (k + 1) / w for k < w, then 0.1 + 0.9 (1 + cos(pi s)) / 2 of the
// peak, s = (k - w) / (n - w) the fraction of the decay done.
static float lr_cosine(float peak, long k, long n, long w) {
    if (k < w) return peak * (float)(k + 1) / (float)w;
    double s = n > w ? (double)(k - w) / (double)(n - w) : 1.0;
    return peak * (float)(0.1 + 0.45 * (1.0 + cos(3.14159265358979323846 * s)));
}
// end snippet

static void train(run_t *run) {
    gpt_model_t *md = &run->md;
    long n = gpt_param_count(&md->cfg);
    run->decay = xmalloc(PROG, (size_t)n);
    gpt_decay_mask(run->decay, &md->cfg);
    trainer_config_t tc = {.epochs = (int)run->o.rounds, .lr = (float)run->o.lr,
                           .warmup = run->o.steps, .schedule = lr_cosine,
                           .beta1 = 0.9f, .beta2 = 0.95f, .eps = 1e-8f,
                           .weight_decay = WEIGHT_DECAY, .decay = run->decay,
                           .clip = CLIP_NORM,
                           .clock = clock_cpu_seconds, .progress = progress_print,
                           .progress_ctx = (void *)PROG};
    xok(PROG, trainer_init(&run->tr, &tc, n, (int)run->o.steps), "trainer_init");
    gpt_init(run->tr.w, &md->cfg, &run->rng);
    gpt_bind(&md->p, run->tr.w, &md->cfg);
    gpt_bind(&md->g, run->tr.g, &md->cfg);
    md->work = gpt_work_new(&md->cfg);
    xok(PROG, md->work ? 0 : -1, "gpt_work_new");
    int n_val = run->n_val = feed_val_batches(&run->feed, 4);
    trainer_model_t m = {.self = md, .forward = gpt_model_forward,
                         .backward = gpt_model_backward, .label = "gpt"};
    trainer_data_t d = {.self = &run->feed, .n_train = (int)run->o.steps,
                        .n_val = n_val, .train_batch = feed_train,
                        .val_batch = feed_val};
    rng_seed(&run->feed.rng, 7);
    double t0 = clock_cpu_seconds();
    xok(PROG, trainer_run(&run->tr, &m, &d, &run->rng), "trainer_run");
    run->train_cpu = clock_cpu_seconds() - t0;
}

// Bytes of the tokens the n_val held-out batches of fd predict: a loss in
// nats per token times their tokens / ln 2 / these bytes is bits per byte.
static long val_bytes(const run_t *run, const feed_t *fd, int n_val) {
    long bytes = 0;
    int B = fd->bt.B, T = fd->bt.T;
    for (long w = 0; w < (long)n_val * B; w++)   // window w predicts 1..T
        for (int t = 1; t <= T; t++) {
            int len;
            bpe_token(&run->bpe, fd->held[w * T + t], &len);
            bytes += len;
        }
    return bytes;
}

static void section_training(report_t *r, run_t *run) {
    report_section(r, "training");
    const trainer_t *t = &run->tr;
    printf("%ld rounds of %ld steps, batch %d x context %d tokens;\nAdamW (decay "
           "%.1f, not on the norms), warm-up %ld steps then cosine, clip %.1f\n",
           run->o.rounds, run->o.steps, run->feed.bt.B, run->feed.bt.T,
           (double)WEIGHT_DECAY,
           run->o.steps, CLIP_NORM);
    printf("%6s %8s %14s %14s\n", "round", "steps", "train nats/tok", "held nats/tok");
    long v_tok = (long)run->n_val * run->feed.bt.B * run->feed.bt.T;
    long v_bytes = val_bytes(run, &run->feed, run->n_val);
    FILE *f = report_data(r, "loss.dat");
    if (f)
        fprintf(f, "# step train_loss held_loss (nats per token) held_bpb (bits per "
                "byte: the same held-out windows, %ld tokens, %ld bytes)\n", v_tok,
                v_bytes);
    for (int e = 0; e < t->epochs_run; e++) {
        printf("%6d %8ld %14.4f %14.4f\n", e + 1, (e + 1) * run->o.steps,
               t->train_loss[e], t->val_loss[e]);
        if (f)
            fprintf(f, "%ld %.6f %.6f %.6f\n", (e + 1) * run->o.steps, t->train_loss[e],
                    t->val_loss[e], t->val_loss[e] * v_tok / log(2.0) / v_bytes);
    }
    report_value(r, "curve_tokens", "%.0f", (double)v_tok);
    report_value(r, "curve_bytes", "%.0f", (double)v_bytes);
    report_data_close(r, f);
    int last = t->epochs_run - 1;
    report_check_true(r, "the held-out loss fell during training",
                      t->val_loss[last] < t->val_loss[0]);
    report_value(r, "held_first", "%.2f", t->val_loss[0]);
    report_value(r, "held_last", "%.2f", t->val_loss[last]);
    report_value(r, "train_last", "%.2f", t->train_loss[last]);
    report_value(r, "lr", "%g", run->o.lr);
    report_value(r, "weight_decay", "%.1f", (double)WEIGHT_DECAY);
    report_value(r, "batch", "%.0f", run->feed.bt.B);
    report_value(r, "warmup", "%.0f", (double)run->o.steps);
    report_value(r, "train_steps", "%.0f", (double)(run->o.steps * run->o.rounds));
    report_value(r, "train_tokens_seen", "%.0f",
                 (double)run->o.steps * run->o.rounds * run->feed.bt.B *
                     run->feed.bt.T);
}

// ---------------------------------------------------------------------------
// yardsticks

// Summed nats of the model over the held-out text, every token after the first
// predicted from up to T tokens before it (windows of T, the last one shorter);
// *bytes = the bytes of the predicted tokens.
static double held_nats(run_t *run, long *bytes) {
    const gpt_config_t *c = &run->md.cfg;
    int T = c->T_max, cnt;
    double nats = 0.0;
    *bytes = 0;
    for (long s = 0; s + 1 < run->n_held_tok; s += T) {
        int t = run->n_held_tok - 1 - s < T ? (int)(run->n_held_tok - 1 - s) : T;
        gpt_batch_t bt = {.B = 1, .T = t, .tokens = run->held_tok + s};
        nats += gpt_forward(&run->md.p, c, &bt, run->md.work, &cnt);
        for (int i = 1; i <= t; i++) {
            int len;
            bpe_token(&run->bpe, run->held_tok[s + i], &len);
            *bytes += len;
        }
    }
    return nats;
}

// Bytes that `TOOL -9` (gzip or xz, run through the shell) compresses the
// held-out text to, or -1 if the tool cannot run. Not library code: a
// program's comparison, printed and never checked.
static long compressed_bytes(const run_t *run, const char *tool) {
    char path[] = "/tmp/ch10_held_XXXXXX", cmd[128];
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "wb");
    long n = -1;
    if (f && fwrite(run->split.held, 1, run->split.n_held, f) == run->split.n_held &&
        fclose(f) == 0) {
        snprintf(cmd, sizeof cmd, "%s -9 -c < %s 2>/dev/null | wc -c", tool, path);
        FILE *p = popen(cmd, "r");
        if (p && fscanf(p, "%ld", &n) != 1) n = -1;
        if (p && pclose(p) != 0) n = -1;
    } else if (f) {
        fclose(f);
    }
    remove(path);
    return n > 0 ? n : -1;
}

static void section_yardsticks(report_t *r, run_t *run) {
    report_section(r, "bits per byte on the held-out text");
    const corpus_split_t *s = &run->split;
    long bytes;
    double nats = held_nats(run, &bytes);
    long n_pred = run->n_held_tok - 1;
    double bpb = nats / log(2.0) / (double)bytes;
    int *bt = xmalloc(PROG, (s->n_train + s->n_held + 2) * sizeof(int));
    for (size_t i = 0; i < s->n_train; i++) bt[i] = s->train[i];
    int *bh = bt + s->n_train;
    for (size_t i = 0; i < s->n_held; i++) bh[i] = s->held[i];
    long nb = (long)s->n_held;
    double u_byte = ngram_unigram_bpb(bt, (long)s->n_train, bh, nb, 256, nb);
    double b_byte = ngram_bigram_bpb(bt, (long)s->n_train, bh, nb, 256, nb);
    int V = run->bpe.vocab;
    double u_tok = ngram_unigram_bpb(run->train_tok, run->n_train_tok, run->held_tok,
                                     run->n_held_tok, V, nb);
    double b_tok = ngram_bigram_bpb(run->train_tok, run->n_train_tok, run->held_tok,
                                    run->n_held_tok, V, nb);
    free(bt);
    printf("%-40s %10s\n", "model (fitted on the training text)", "bits/byte");
    printf("%-40s %10.3f\n", "unigram over bytes (add-one)", u_byte);
    printf("%-40s %10.3f\n", "bigram over bytes (add-one)", b_byte);
    printf("%-40s %10.3f\n", "unigram over BPE tokens (add-one)", u_tok);
    printf("%-40s %10.3f\n", "bigram over BPE tokens (add-one)", b_tok);
    printf("%-40s %10.3f\n", "this GPT", bpb);
    const char *tools[] = {"gzip", "xz"};
    for (int i = 0; i < 2; i++) {
        long nc = compressed_bytes(run, tools[i]);
        char label[64];
        snprintf(label, sizeof label, "%s -9 (%ld bytes)", tools[i], nc);
        if (nc > 0) printf("%-40s %10.3f\n", label, 8.0 * nc / (double)s->n_held);
        else printf("%-40s %10s\n", tools[i], "not found");
        report_value(r, i ? "bpb_xz" : "bpb_gzip", "%.3f",
                     nc > 0 ? 8.0 * nc / (double)s->n_held : -1.0);
    }
    double ppl_tok = exp(nats / (double)n_pred), ppl_byte = pow(2.0, bpb);
    printf("perplexity: %.2f per token, %.3f per byte (%ld tokens, %ld bytes)\n",
           ppl_tok, ppl_byte, n_pred, bytes);
    report_value(r, "bpb_gpt", "%.3f", bpb);
    report_value(r, "bpb_unigram_byte", "%.3f", u_byte);
    report_value(r, "bpb_bigram_byte", "%.3f", b_byte);
    report_value(r, "bpb_unigram_tok", "%.3f", u_tok);
    report_value(r, "bpb_bigram_tok", "%.3f", b_tok);
    report_value(r, "ppl_token", "%.2f", ppl_tok);
    report_value(r, "ppl_byte", "%.3f", ppl_byte);
    if (!run->o.small)
        report_check_true(r, "the GPT beats the bigram over BPE tokens (bits/byte)",
                          bpb < b_tok);
}

// ---------------------------------------------------------------------------
// generation

// Generate up to n tokens after prompt (np tokens) with the KV cache, picking
// by gpt_sample; out receives prompt and continuation. Returns the length.
static int generate(run_t *run, gpt_cache_t *k, const int *prompt, int np, int n,
                    float temp, int top_k, float top_p, rng_t *rng, int *out) {
    const gpt_config_t *c = &run->md.cfg;
    gpt_cache_reset(k);
    int len = 0;
    for (int i = 0; i < np; i++) {
        out[len++] = prompt[i];
        xok(PROG, gpt_cache_step(&run->md.p, c, k, prompt[i], run->logits), "cache");
    }
    while (len < np + n && len < c->T_max) {
        int next = gpt_sample(run->logits, c->V, temp, top_k, top_p, rng, run->scratch);
        out[len++] = next;
        if (len < c->T_max)
            xok(PROG, gpt_cache_step(&run->md.p, c, k, next, run->logits), "cache");
    }
    return len;
}

// Print tokens as text, wrapped at 76 columns at the last space (a wrapped
// line continues after four spaces, a word longer than a line is cut); a
// byte that is not printable ASCII, a newline or a tab (an untrained model can
// pick any) is printed as \xNN.
static void print_tokens(const run_t *run, const int *tok, int n) {
    enum { WIDTH = 76, INDENT = 4 };
    char line[WIDTH + 8];
    int len = 0;
    for (int i = 0; i <= n; i++) {
        int blen = 0;
        const unsigned char *b = i < n ? bpe_token(&run->bpe, tok[i], &blen) : NULL;
        for (int j = 0; j <= blen; j++) {
            if (j == blen && i < n) break;
            if (i == n || b[j] == '\n') {          // the end, or a newline: flush
                while (len > 0 && line[len - 1] == ' ') len--;   // no trailing spaces
                printf("%s%.*s\n", len ? "    " : "", len, line);
                len = 0;
                continue;
            }
            char piece[8];
            int w = (b[j] >= 32 && b[j] < 127) || b[j] == '\t'
                        ? snprintf(piece, sizeof piece, "%c", b[j])
                        : snprintf(piece, sizeof piece, "\\x%02x", b[j]);
            if (INDENT + len + w > WIDTH) {        // full: break at its last space
                int cut = len;
                while (cut > 0 && line[cut - 1] != ' ') cut--;
                if (cut == 0) cut = len;
                printf("    %.*s\n", cut - (line[cut - 1] == ' '), line);
                memmove(line, line + cut, (size_t)(len - cut));
                len -= cut;
            }
            memcpy(line + len, piece, (size_t)w);
            len += w;
        }
    }
}

// The longest run of tokens that occurs twice in tok (n), the second time
// after the first ends: how greedy decoding loops.
static int longest_repeat(const int *tok, int n) {
    int best = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            int l = 0;
            while (b + l < n && a + l < b && tok[a + l] == tok[b + l]) l++;
            if (l > best) best = l;
        }
    return best;
}

static void section_generation(report_t *r, run_t *run) {
    report_section(r, "generation");
    const gpt_config_t *c = &run->md.cfg;
    gpt_cache_t *k = gpt_cache_new(c);
    xok(PROG, k ? 0 : -1, "gpt_cache_new");
    int *out = xmalloc(PROG, (size_t)c->T_max * sizeof(int));
    int all[MAX_PROMPT];
    const char *text = run->o.prompt;
    long np = bpe_encode(&run->bpe, (const unsigned char *)text, strlen(text), all);
    xok(PROG, np > 0 ? 0 : -1, "bpe_encode");
    // the model sees T_max tokens: a longer prompt keeps its last ones
    long room = c->T_max > GEN_TOKENS ? c->T_max - GEN_TOKENS : 1;
    long skip = np > room ? np - room : 0;
    const int *prompt = all + skip;
    np -= skip;
    rng_t g;
    rng_seed(&g, 2026);
    if (strcmp(text, "%\n") == 0)
        printf("prompt: the end of a record (\"%%\\n\"), so a new quotation follows\n");
    else {
        printf("prompt: \"");
        print_escaped((const unsigned char *)text, (long)strlen(text));
        printf("\", %ld tokens", np + skip);
        if (skip) printf(" (the first %ld dropped: the model sees %d)", skip, c->T_max);
        printf("\n");
    }
    printf("-- greedy (temperature 0):\n");
    int n = generate(run, k, prompt, (int)np, GEN_TOKENS, 0.0f, 0, 1.0f, &g, out);
    print_tokens(run, out + np, n - (int)np);
    int rep = longest_repeat(out + np, n - (int)np);
    printf("the longest run of tokens greedy decoding writes twice: %d tokens\n", rep);
    report_check_true(r, "greedy decoding repeats itself (a run of 4 tokens or more)",
                      rep >= 4);
    report_value(r, "greedy_repeat", "%.0f", rep);
    float temp = (float)run->o.temperature, top_p = (float)run->o.top_p;
    printf("-- sampled: temperature %.2f, top-k %ld, top-p %.2f, seed 2026:\n", temp,
           run->o.top_k, top_p);
    for (int i = 0; i < N_SAMPLES; i++) {
        n = generate(run, k, prompt, (int)np, GEN_TOKENS, temp, (int)run->o.top_k,
                     top_p, &g, out);
        printf("[%d]\n", i + 1);
        print_tokens(run, out + np, n - (int)np);
    }
    // the cache against recomputation: every position of the last sample
    double worst = 0.0;
    gpt_cache_reset(k);
    for (int t = 0; t < n; t++) {
        xok(PROG, gpt_cache_step(&run->md.p, c, k, out[t], run->logits), "cache");
        xok(PROG,
            gpt_next_logits(&run->md.p, c, out, t + 1, run->md.work, run->logits2),
            "gpt_next_logits");
        for (int i = 0; i < c->V; i++) {
            double d = fabs((double)run->logits[i] - run->logits2[i]);
            if (!(d <= worst)) worst = d;
        }
    }
    printf("KV cache against full recomputation, %d positions x %d logits:\n", n, c->V);
    report_check(r, "max |logit difference|", worst, 0.0);
    report_value(r, "cache_positions", "%.0f", n);
    gpt_cache_free(k);
    free(out);
}

// ---------------------------------------------------------------------------
// measured

static void section_measured(report_t *r, run_t *run) {
    report_section(r, "measured (CPU time)");
    double tokens =
        (double)run->o.steps * run->o.rounds * run->feed.bt.B * run->feed.bt.T;
    printf("training: %.1f s CPU for %.0f tokens, %.0f tokens/s (with held-out "
           "passes)\n", run->train_cpu, tokens, tokens / run->train_cpu);
    const gpt_config_t *c = &run->md.cfg;
    gpt_cache_t *k = gpt_cache_new(c);
    xok(PROG, k ? 0 : -1, "gpt_cache_new");
    int n = c->T_max;
    double t0 = clock_cpu_seconds();
    for (int t = 0; t < n; t++)
        xok(PROG, gpt_cache_step(&run->md.p, c, k, run->held_tok[t], run->logits),
            "gpt_cache_step");
    double cached = clock_cpu_seconds() - t0;
    t0 = clock_cpu_seconds();
    for (int t = 0; t < n; t++)
        xok(PROG, gpt_next_logits(&run->md.p, c, run->held_tok, t + 1, run->md.work,
                                  run->logits2), "gpt_next_logits");
    double full = clock_cpu_seconds() - t0;
    printf("decoding %d tokens: %.0f tokens/s with the KV cache,\n  %.0f tokens/s "
           "recomputing (%.1fx)\n", n, n / cached, n / full, full / cached);
    FILE *f = report_data(r, "measured_time.tsv");
    if (f)
        fprintf(f, "train_seconds\t%.1f\ntrain_tokens_per_s\t%.0f\n"
                "cache_speedup\t%.1f\n", run->train_cpu, tokens / run->train_cpu,
                full / cached);
    report_data_close(r, f);
    gpt_cache_free(k);
}

// ---------------------------------------------------------------------------
// pre-norm against post-norm

// The ablation's model: narrower than the chapter's, four blocks. Both orders
// start from the same weights and see the same batches, without warm-up.
enum { ABL_WIDTH = 32, ABL_LAYERS = 4, ABL_HEADS = 4, ABL_KV = 2, ABL_BATCH = 2,
       ABL_CTX = 32, ABL_ROUNDS = 8, ABL_STEPS = 40 };
#define ABL_LEVEL 0.02   // nats per token: a smaller difference is called level

typedef struct {
    gpt_config_t cfg;
    int rounds, steps;
    float *init;                            // the weights both orders start from
    double held[2][TRAINER_MAX_EPOCHS];     // held-out loss per round: pre, post
} ablation_t;

// Train the ablation's model in one order (post 0 or 1) from abl->init with the
// chapter's AdamW, clipping and peak learning rate, but no warm-up: the cosine
// decay starts at step 0. The held-out loss of each round into abl->held[post].
static void train_order(run_t *run, ablation_t *abl, int post) {
    gpt_model_t md = {.cfg = abl->cfg};
    md.cfg.post_norm = post;
    long n = gpt_param_count(&md.cfg);
    unsigned char *decay = xmalloc(PROG, (size_t)n);
    gpt_decay_mask(decay, &md.cfg);
    trainer_config_t tc = {.epochs = abl->rounds, .lr = (float)run->o.lr, .warmup = 0,
                           .schedule = lr_cosine, .beta1 = 0.9f, .beta2 = 0.95f,
                           .eps = 1e-8f, .weight_decay = WEIGHT_DECAY, .decay = decay,
                           .clip = CLIP_NORM, .clock = clock_cpu_seconds,
                           .progress = progress_print, .progress_ctx = (void *)PROG};
    trainer_t tr;
    xok(PROG, trainer_init(&tr, &tc, n, abl->steps), "trainer_init");
    memcpy(tr.w, abl->init, (size_t)n * sizeof(float));
    gpt_bind(&md.p, tr.w, &md.cfg);
    gpt_bind(&md.g, tr.g, &md.cfg);
    md.work = gpt_work_new(&md.cfg);
    xok(PROG, md.work ? 0 : -1, "gpt_work_new");
    feed_t fd;
    feed_new(&fd, run, md.cfg.B_max, md.cfg.T_max);
    rng_t shuffle;
    rng_seed(&fd.rng, 7), rng_seed(&shuffle, 8);   // the same for both orders
    trainer_model_t m = {.self = &md, .forward = gpt_model_forward,
                         .backward = gpt_model_backward,
                         .label = post ? "post-norm" : "pre-norm"};
    trainer_data_t d = {.self = &fd, .n_train = abl->steps,
                        .n_val = feed_val_batches(&fd, 8), .train_batch = feed_train,
                        .val_batch = feed_val};
    xok(PROG, trainer_run(&tr, &m, &d, &shuffle), "trainer_run");
    for (int e = 0; e < abl->rounds; e++) abl->held[post][e] = tr.val_loss[e];
    gpt_work_free(md.work);
    trainer_free(&tr);
    free(decay), free(fd.tok);
}

// The sentence the chapter writes about the two final held-out losses.
static void ablation_verdict(report_t *r, double pre, double post) {
    const char *verdict = "the two end level", *xiong = "does not show";
    if (!isfinite(post) && isfinite(pre))
        verdict = "the post-norm model diverges", xiong = "shows";
    else if (pre < post - ABL_LEVEL)
        verdict = "the pre-norm model ends lower", xiong = "shows";
    else if (post < pre - ABL_LEVEL)
        verdict = "the post-norm model ends lower";
    printf("%s: %s (level: within %.2f nats per token)\n",
           "verdict", verdict, ABL_LEVEL);
    report_text(r, "abl_verdict", verdict);
    report_text(r, "abl_xiong", xiong);
    report_value(r, "abl_level", "%.2f", ABL_LEVEL);
}

static void section_ablation(report_t *r, run_t *run, uint64_t seed) {
    report_section(r, "pre-norm against post-norm");
    rng_t rng;
    rng_seed(&rng, seed);
    double worst = grad_check(&rng, 1, 0);
    report_check(r, "post-norm backward == finite differences", worst, 1e-2);
    int small = (int)run->o.small, C = small ? 16 : ABL_WIDTH;
    ablation_t abl = {
        .cfg = {.V = run->bpe.vocab, .C = C, .L = ABL_LAYERS, .NH = ABL_HEADS,
                .NKV = ABL_KV, .F = swiglu_width(C),
                .B_max = ABL_BATCH, .T_max = ABL_CTX, .rope_base = 10000.0},
        .rounds = small ? 2 : ABL_ROUNDS, .steps = small ? 3 : ABL_STEPS};
    abl.init = xfloats(PROG, (size_t)gpt_param_count(&abl.cfg));
    gpt_init(abl.init, &abl.cfg, &rng);
    train_order(run, &abl, 0);
    train_order(run, &abl, 1);
    printf("C %d, L %d, batch %d x context %d, peak rate %g from step 1:\n", abl.cfg.C,
           abl.cfg.L, ABL_BATCH, ABL_CTX, run->o.lr);
    printf("%6s %8s %18s %18s\n", "round", "steps", "pre-norm held", "post-norm held");
    for (int e = 0; e < abl.rounds; e++)
        printf("%6d %8d %18.4f %18.4f\n", e + 1, (e + 1) * abl.steps, abl.held[0][e],
               abl.held[1][e]);
    double pre = abl.held[0][abl.rounds - 1], post = abl.held[1][abl.rounds - 1];
    report_check_true(r, "pre-norm without warm-up: held-out loss fell",
                      pre < abl.held[0][0]);
    ablation_verdict(r, pre, post);
    report_value(r, "abl_pre", "%.3f", pre);
    report_value(r, "abl_post", "%.3f", post);
    report_value(r, "abl_pre_first", "%.3f", abl.held[0][0]);
    report_value(r, "abl_post_first", "%.3f", abl.held[1][0]);
    report_value(r, "abl_steps", "%.0f", (double)abl.rounds * abl.steps);
    report_value(r, "abl_C", "%.0f", abl.cfg.C);
    report_value(r, "abl_L", "%.0f", abl.cfg.L);
    free(abl.init);
}

static void save_weights(report_t *r, run_t *run) {
    FILE *f = report_data(r, "ch10_weights.bin");
    if (f && gpt_save(f, &run->md.cfg, run->tr.w) != 0) {
        fprintf(stderr, "%s: cannot write the weights\n", PROG);
        r->failed = 1;
    }
    report_data_close(r, f);
    f = report_data(r, "ch10_prompt.txt");
    if (f) {
        for (int i = 0; i < run->md.cfg.T_max; i++) fprintf(f, "%d ", run->held_tok[i]);
        fputc('\n', f);
    }
    report_data_close(r, f);
}

// The attention weights of every head of the first and the last block on the
// first ATT_TOKENS tokens of the first held-out record, one gnuplot matrix
// (rowheaders, columnheaders) per head: att_bL_hH.dat. Token labels show a
// space as '_', a newline as '|' and a double quote as '`' (gnuplot quotes).
enum { ATT_TOKENS = 14 };
static void write_attention(report_t *r, run_t *run) {
    const gpt_config_t *c = &run->md.cfg;
    int n = ATT_TOKENS < c->T_max ? ATT_TOKENS : c->T_max, cnt;
    gpt_batch_t bt = {.B = 1, .T = n, .tokens = run->held_tok};
    gpt_forward(&run->md.p, c, &bt, run->md.work, &cnt);
    char label[ATT_TOKENS][32];
    for (int t = 0; t < n; t++) {
        int len, k = 0;
        const unsigned char *b = bpe_token(&run->bpe, run->held_tok[t], &len);
        for (int j = 0; j < len && k < 30; j++)
            label[t][k++] = b[j] == ' '    ? '_'
                            : b[j] == '\n' ? '|'
                            : b[j] == '"'  ? '`'
                                           : (char)b[j];
        label[t][k] = 0;
    }
    for (int l = 0; l < c->L; l += c->L > 1 ? c->L - 1 : 1)
        for (int h = 0; h < c->NH; h++) {
            char name[48];
            snprintf(name, sizeof name, "att_b%d_h%d.dat", l + 1, h + 1);
            FILE *f = report_data(r, name);
            if (!f) continue;
            const float *a = gpt_attention(run->md.work, l) + (long)h * n * n;
            fprintf(f, "%d", n);
            for (int t = 0; t < n; t++) fprintf(f, " %s", label[t]);
            for (int t = 0; t < n; t++) {
                fprintf(f, "\n%s", label[t]);
                for (int u = 0; u < n; u++) fprintf(f, " %.4f", a[(long)t * n + u]);
            }
            fputc('\n', f);
            report_data_close(r, f);
        }
}

static void run_free(run_t *run) {
    trainer_free(&run->tr);
    gpt_work_free(run->md.work);
    bpe_free(&run->bpe);
    corpus_split_free(&run->split);
    corpus_free(&run->corpus);
    free(run->train_tok), free(run->held_tok), free(run->feed.tok);
    free(run->logits), free(run->logits2), free(run->scratch), free(run->decay);
}

static int check_opts(const cli_t *cli, char *why, size_t size) {
    long c = cli_int(cli, "--width"), h = cli_int(cli, "--heads");
    long kv = cli_int(cli, "--kv-heads");
    if (cli_require(why, size, c % h == 0 && (c / h) % 2 == 0,
                    "--width %ld must be an even multiple of --heads %ld", c, h))
        return -1;
    return cli_require(why, size, h % kv == 0, "--kv-heads %ld must divide --heads %ld",
                       kv, h);
}

// Options into run->o, then the report: program_start's status, or -1 to go on.
static int start(run_t *run, cli_t *cli, report_t *r, int argc, char **argv) {
    opts_t *o = &run->o;
#define OPT(n, m, h, v, lo, hi) {.name = n, .meta = m, .help = h, .kind = CLI_INT, \
                                 .ival = v, .min = lo, .max = hi}
#define REAL(n, m, h, v, lo, hi) {.name = n, .meta = m, .help = h, .kind = CLI_REAL, \
                                  .rval = v, .min = lo, .max = hi}
    static cli_opt_t opts[16];
    const cli_opt_t all[] = {
        OPT("--vocab", "N", "BPE vocabulary size", &o->vocab, 257, 4096),
        OPT("--width", "N", "model width C", &o->width, 8, 512),
        OPT("--layers", "N", "blocks L", &o->layers, 1, GPT_MAX_LAYERS),
        OPT("--heads", "N", "query heads", &o->heads, 1, 64),
        OPT("--kv-heads", "N", "key/value heads (= heads: MHA, 1: MQA)", &o->kv_heads,
            1, 64),
        OPT("--rounds", "N", "rounds (held-out loss after each)", &o->rounds, 1, 64),
        OPT("--steps", "N", "steps per round (also the warm-up)", &o->steps, 1, 100000),
        OPT("--batch", "N", "sequences per step", &o->batch, 1, 256),
        OPT("--context", "N", "context length T in tokens", &o->ctx, 4, 1024),
        OPT("--top-k", "N", "sampling: keep the k most probable", &o->top_k, 0, 4096),
        REAL("--lr", "X", "peak learning rate", &o->lr, 1e-5, 0.1),
        REAL("--temperature", "X", "sampling temperature", &o->temperature, 0.0, 10.0),
        REAL("--top-p", "X", "sampling: nucleus mass", &o->top_p, 0.01, 1.0),
        {.name = "--prompt", .meta = "TEXT", .help = "the text the samples continue",
         .kind = CLI_TEXT, .sval = &o->prompt, .min = 1, .max = MAX_PROMPT},
        {.name = "--corpus", .meta = "FILE", .help = "the pinned cookie file",
         .kind = CLI_TEXT, .sval = &o->corpus, .min = 1, .max = 4096},
        {.name = "--small",
         .help = "tiny run on the first records, for the tests (no quality claim)",
         .kind = CLI_FLAG, .ival = &o->small},
    };
#undef OPT
#undef REAL
    memcpy(opts, all, sizeof all);
    *cli = (cli_t){.program = PROG,
                   .summary = "Chapter 10: a tiny GPT trained on real text.",
                   .opts = opts, .n_opts = 16, .seed = 10, .check = check_opts};
    int rc = program_start(cli, r, argc, argv);
    if (rc < 0 && o->small)
        o->vocab = 300, o->width = 16, o->layers = 1, o->rounds = 2, o->steps = 3,
        o->batch = 2;
    return rc;
}

int main(int argc, char **argv) {
    static run_t run = {.o = {.vocab = 512, .width = 64, .layers = 2, .heads = 4,
                              .kv_heads = 2, .rounds = 16, .steps = 100, .batch = 4,
                              .ctx = 64, .lr = 3e-3, .temperature = 0.8, .top_p = 0.9,
                              .top_k = 40, .corpus = CORPUS_PATH, .prompt = "%\n"}};
    cli_t cli;
    report_t r;
    int rc = start(&run, &cli, &r, argc, argv);
    if (rc >= 0) return rc;
    if (read_corpus(&run) != 0) return 2;
    rng_seed(&run.rng, cli.seed);
    section_text(&r, &run);
    if (run.o.small) {
        keep_first_records(run.split.train, &run.split.n_train, 20000);
        keep_first_records(run.split.held, &run.split.n_held, 3000);
    }
    section_tokens(&r, &run);
    model_new(&run);
    section_model(&r, &run);
    section_gradients(&r, &run.rng);
    train(&run);
    section_training(&r, &run);
    section_yardsticks(&r, &run);
    section_generation(&r, &run);
    section_measured(&r, &run);
    section_ablation(&r, &run, cli.seed);
    save_weights(&r, &run);
    write_attention(&r, &run);
    run_free(&run);
    return report_close(&r) == 0 ? 0 : 1;
}
