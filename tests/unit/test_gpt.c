// test_gpt.c -- models/gpt: configurations it refuses, the parameter count,
// the sampling rules (greedy, top-k 1, a tiny top-p, seeded draws), the cache's
// limits, the cache against recomputation on a random model, and the post-norm
// order (chapter 10's ablation): its backward pass against finite differences
// (beside the pre-norm one), its cache, and what it refuses.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/gpt.h"

static gpt_config_t small(void) {
    return (gpt_config_t){.V = 11, .C = 8, .L = 2, .NH = 4, .NKV = 2, .F = 6,
                          .B_max = 2, .T_max = 5, .rope_base = 10000.0};
}

Test(gpt, config_check) {
    gpt_config_t c = small();
    cr_assert_eq(gpt_config_check(&c), 0);
    c.NKV = 3;                                  // does not divide NH
    cr_assert_eq(gpt_config_check(&c), -1);
    c = small(), c.NH = 8;                      // head size 1: odd, RoPE needs pairs
    cr_assert_eq(gpt_config_check(&c), -1);
    c = small(), c.L = GPT_MAX_LAYERS + 1;
    cr_assert_eq(gpt_config_check(&c), -1);
    c = small(), c.rope_base = 0.0;
    cr_assert_eq(gpt_config_check(&c), -1);
    cr_assert_eq(gpt_param_count(&c), -1);
}

Test(gpt, param_count) {
    // wte 11x8 + 2 x (n1 8 + wq 64 + wk 32 + wv 32 + wo 64 + n2 8 + 3 x 48) + nf 8
    gpt_config_t c = small();
    cr_assert_eq(gpt_param_count(&c), 88 + 2 * (8 + 64 + 32 + 32 + 64 + 8 + 144) + 8);
}

// The decay mask spares exactly the norms' scales, wherever gpt_bind puts them.
Test(gpt, decay_mask_spares_the_norms) {
    gpt_config_t c = small();
    long n = gpt_param_count(&c);
    float *buf = calloc((size_t)n, sizeof *buf);
    unsigned char *mask = malloc((size_t)n);
    cr_assert(buf && mask);
    memset(mask, 7, (size_t)n);
    gpt_decay_mask(mask, &c);
    gpt_params_t p;
    gpt_bind(&p, buf, &c);
    for (int l = 0; l < c.L; l++)
        for (int i = 0; i < c.C; i++) {
            p.layer[l].n1[i] = 1.0f;
            p.layer[l].n2[i] = 1.0f;
        }
    for (int i = 0; i < c.C; i++) p.nf[i] = 1.0f;
    long zeros = 0;
    for (long i = 0; i < n; i++) {
        cr_assert(mask[i] <= 1, "mask[%ld] = %d", i, mask[i]);
        cr_assert_eq(mask[i] == 0, buf[i] == 1.0f, "parameter %ld", i);
        zeros += mask[i] == 0;
    }
    cr_assert_eq(zeros, (2L * c.L + 1) * c.C);
    free(buf);
    free(mask);
}

Test(gpt, sample_rules) {
    float logits[5] = {0.1f, 2.0f, 1.9f, -1.0f, 2.0f}, scratch[10];
    rng_t rng;
    rng_seed(&rng, 1);
    cr_assert_eq(gpt_sample(logits, 5, 0.0f, 0, 1.0f, NULL, NULL), 1);   // first max
    for (int i = 0; i < 50; i++) {
        int k1 = gpt_sample(logits, 5, 1.0f, 1, 1.0f, &rng, scratch);
        cr_assert(k1 == 1 || k1 == 4, "top-k 1 keeps a most probable token: %d", k1);
        int p = gpt_sample(logits, 5, 1.0f, 0, 0.01f, &rng, scratch);
        cr_assert(p == 1 || p == 4, "a tiny top-p keeps one top token: %d", p);
        int k3 = gpt_sample(logits, 5, 1.0f, 3, 1.0f, &rng, scratch);
        cr_assert(k3 == 1 || k3 == 2 || k3 == 4, "top-k 3: %d", k3);
    }
    int seen[5] = {0};                          // all tokens reachable at top-k 0, p 1
    for (int i = 0; i < 2000; i++)
        seen[gpt_sample(logits, 5, 1.0f, 0, 1.0f, &rng, scratch)]++;
    for (int i = 0; i < 5; i++) cr_assert_gt(seen[i], 0, "token %d never drawn", i);
    rng_t a, b;
    rng_seed(&a, 9), rng_seed(&b, 9);
    for (int i = 0; i < 20; i++)
        cr_assert_eq(gpt_sample(logits, 5, 0.7f, 0, 0.9f, &a, scratch),
                     gpt_sample(logits, 5, 0.7f, 0, 0.9f, &b, scratch));
}

Test(gpt, cache_equals_recompute_and_refuses_overflow) {
    gpt_config_t c = small();
    long n = gpt_param_count(&c);
    float *w = malloc((size_t)n * sizeof *w), logits[11], full[11];
    rng_t rng;
    rng_seed(&rng, 3);
    gpt_init(w, &c, &rng);
    for (long i = 0; i < n; i++) w[i] += 0.3f * rng_normal(&rng);
    gpt_params_t p;
    gpt_bind(&p, w, &c);
    gpt_work_t *wk = gpt_work_new(&c);
    gpt_cache_t *k = gpt_cache_new(&c);
    cr_assert(wk && k);
    int tok[5] = {3, 10, 0, 7, 7};
    for (int t = 0; t < 5; t++) {
        cr_assert_eq(gpt_cache_step(&p, &c, k, tok[t], logits), 0);
        cr_assert_eq(gpt_next_logits(&p, &c, tok, t + 1, wk, full), 0);
        cr_assert_eq(memcmp(logits, full, sizeof logits), 0, "position %d differs", t);
    }
    cr_assert_eq(gpt_cache_len(k), 5);
    cr_assert_eq(gpt_cache_step(&p, &c, k, 1, logits), -1, "a full cache refuses");
    gpt_cache_reset(k);
    cr_assert_eq(gpt_cache_step(&p, &c, k, 11, logits), -1, "token out of range");
    cr_assert_eq(gpt_next_logits(&p, &c, tok, 6, wk, full), -1, "beyond T_max");
    gpt_cache_free(k);
    gpt_work_free(wk);
    free(w);
}

// A random model off its initialisation (norms near 1, matrices of scale 0.3).
static float *random_model(const gpt_config_t *c, unsigned seed) {
    long n = gpt_param_count(c);
    float *w = malloc((size_t)n * sizeof *w);
    cr_assert(w);
    rng_t rng;
    rng_seed(&rng, seed);
    gpt_init(w, c, &rng);
    for (long i = 0; i < n; i++) w[i] += 0.3f * rng_normal(&rng);
    return w;
}

// The summed loss of bt at the parameters w.
static double loss_at(float *w, const gpt_config_t *c, const gpt_batch_t *bt,
                      gpt_work_t *wk) {
    gpt_params_t p;
    gpt_bind(&p, w, c);
    int count;
    return gpt_forward(&p, c, bt, wk, &count);
}

// Both block orders: the gradient of every parameter of a two-block model
// against central differences, one parameter at a time. Step 3e-3: a float32
// loss of ~20 nats is rounded by ~2e-6, which the quotient turns into ~4e-4;
// the curvature error is ~0.1 % (1e-2 already costs 5 % on some embedding
// entries). Tolerance 2e-3 + 2 % of the gradient.
Test(gpt, backward_equals_finite_differences_pre_and_post_norm) {
    int tok[2 * 6] = {3, 10, 0, 7, 7, 1, 4, 4, 9, 2, 0, 5};
    for (int post = 0; post <= 1; post++) {
        gpt_config_t c = small();
        c.post_norm = post;
        long n = gpt_param_count(&c);
        float *w = random_model(&c, 5), *g = calloc((size_t)n, sizeof *g);
        cr_assert(g);
        gpt_params_t p, d;
        gpt_bind(&p, w, &c);
        gpt_bind(&d, g, &c);
        gpt_work_t *wk = gpt_work_new(&c);
        cr_assert(wk);
        gpt_batch_t bt = {.B = 2, .T = 5, .tokens = tok};
        loss_at(w, &c, &bt, wk);
        cr_assert_eq(gpt_backward(&p, &d, &c, &bt, wk, 1.0f), 0);
        for (long i = 0; i < n; i++) {
            float keep = w[i], h = 3e-3f;
            w[i] = keep + h;
            double up = loss_at(w, &c, &bt, wk);
            w[i] = keep - h;
            double down = loss_at(w, &c, &bt, wk);
            w[i] = keep;
            double num = (up - down) / (2.0 * h);
            cr_assert(fabs(num - g[i]) <= 2e-3 + 0.02 * fabs(num),
                      "post_norm %d, parameter %ld: backward %g, numeric %g", post, i,
                      (double)g[i], num);
        }
        gpt_work_free(wk);
        free(w), free(g);
    }
}

Test(gpt, post_norm_is_another_model_with_the_same_parameters) {
    gpt_config_t pre = small(), post = small();
    post.post_norm = 1;
    cr_assert_eq(gpt_config_check(&post), 0);
    cr_assert_eq(gpt_param_count(&post), gpt_param_count(&pre));
    post.post_norm = 2;
    cr_assert_eq(gpt_config_check(&post), -1, "post_norm is 0 or 1");
    post.post_norm = 1;
    float *w = random_model(&pre, 7), a[11], b[11];
    gpt_params_t p;
    gpt_bind(&p, w, &pre);
    gpt_work_t *wk = gpt_work_new(&pre), *wk2 = gpt_work_new(&post);
    cr_assert(wk && wk2);
    int tok[3] = {1, 2, 3};
    cr_assert_eq(gpt_next_logits(&p, &pre, tok, 3, wk, a), 0);
    cr_assert_eq(gpt_next_logits(&p, &post, tok, 3, wk2, b), 0);
    cr_assert_neq(memcmp(a, b, sizeof a), 0, "the flag changes the model");
    FILE *f = tmpfile();
    cr_assert(f);
    cr_assert_eq(gpt_save(f, &post, w), -1, "the weights format is pre-norm only");
    fclose(f);
    gpt_work_free(wk), gpt_work_free(wk2);
    free(w);
}

Test(gpt, post_norm_cache_equals_recompute) {
    gpt_config_t c = small();
    c.post_norm = 1;
    float *w = random_model(&c, 11), logits[11], full[11];
    gpt_params_t p;
    gpt_bind(&p, w, &c);
    gpt_work_t *wk = gpt_work_new(&c);
    gpt_cache_t *k = gpt_cache_new(&c);
    cr_assert(wk && k);
    int tok[5] = {6, 0, 10, 10, 2};
    for (int t = 0; t < 5; t++) {
        cr_assert_eq(gpt_cache_step(&p, &c, k, tok[t], logits), 0);
        cr_assert_eq(gpt_next_logits(&p, &c, tok, t + 1, wk, full), 0);
        cr_assert_eq(memcmp(logits, full, sizeof logits), 0, "position %d differs", t);
    }
    gpt_cache_free(k);
    gpt_work_free(wk);
    free(w);
}
