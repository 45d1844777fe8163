// test_mirror.c -- chapter 8's task: translations, word texts, the splits
// (lengths, distinct words, sorted order, seeded), and padded batches.
#include <criterion/criterion.h>
#include <string.h>

#include "base/rng.h"
#include "data/mirror.h"

Test(mirror, translate_reverses_and_shifts_ids) {
    int src[4] = {1, 7, 60, 3}, tgt[4];
    mirror_translate(src, 4, tgt);
    int want[4] = {5, 62, 9, 3};
    cr_assert_arr_eq(tgt, want, sizeof want);
    cr_assert_eq(mirror_tgt_of_src(1), 3);
}

Test(mirror, word_texts) {
    char b[3];
    cr_assert_str_eq(mirror_src_text(1, b), "ba");
    cr_assert_str_eq(mirror_src_text(2, b), "be");
    cr_assert_str_eq(mirror_src_text(6, b), "da");
    cr_assert_str_eq(mirror_tgt_text(3, b), "BA");
    cr_assert_str_eq(mirror_tgt_text(S2S_EOS, b), "</s>");
    cr_assert_str_eq(mirror_src_text(MIRROR_SRC_EOS, b), "</s>");
    cr_assert_str_eq(mirror_src_text(0, b), "?");
    cr_assert_str_eq(mirror_tgt_text(MIRROR_WORDS + 3, b), "?");
    // every word is distinct
    char seen[MIRROR_WORDS][3];
    for (int k = 0; k < MIRROR_WORDS; k++) {
        mirror_word_text(k, 0, seen[k]);
        for (int j = 0; j < k; j++) cr_assert_str_neq(seen[k], seen[j]);
    }
}

Test(mirror, splits_hold_distinct_words_sorted_by_length) {
    rng_t rng;
    rng_seed(&rng, 5);
    mirror_split_t s;
    cr_assert_eq(mirror_split_make(&s, 400, 1, &rng), 0);
    double mean_even = 0, mean_odd = 0;
    for (int i = 0; i < s.n; i++) {
        int len = s.len[i];
        cr_assert(len >= MIRROR_MIN_LEN && len <= MIRROR_MAX_LEN, "len %d", len);
        *(i % 2 ? &mean_odd : &mean_even) += len;
        for (int t = 0; t < MIRROR_MAX_LEN; t++) {
            int id = s.tok[i * MIRROR_MAX_LEN + t];
            if (t >= len) {
                cr_assert_eq(id, S2S_PAD);
                continue;
            }
            cr_assert(id >= 1 && id <= MIRROR_WORDS);
            for (int u = 0; u < t; u++)
                cr_assert_neq(id, s.tok[i * MIRROR_MAX_LEN + u]);
        }
    }
    cr_assert(mean_odd < mean_even, "log-uniform half not shorter");
    for (int k = 1; k < s.n; k++) {
        int a = s.order[k - 1], b = s.order[k];
        cr_assert(s.len[a] < s.len[b] || (s.len[a] == s.len[b] && a < b));
    }
    rng_seed(&rng, 5);   // the same seed, the same split
    mirror_split_t t;
    cr_assert_eq(mirror_split_make(&t, 400, 1, &rng), 0);
    cr_assert_eq(memcmp(s.tok, t.tok, sizeof(int) * 400 * MIRROR_MAX_LEN), 0);
    mirror_split_free(&s);
    mirror_split_free(&t);
    mirror_split_free(&t);   // safe twice
    cr_assert_eq(mirror_split_make(&s, 0, 0, &rng), -1);
}

Test(mirror, batches_pad_and_mark_the_end) {
    mirror_split_t s = {0};
    int len[2] = {2, 4}, order[2] = {0, 1};
    int tok[2 * MIRROR_MAX_LEN] = {0};
    tok[0] = 5, tok[1] = 9;
    tok[MIRROR_MAX_LEN] = 1, tok[MIRROR_MAX_LEN + 1] = 2, tok[MIRROR_MAX_LEN + 2] = 3,
    tok[MIRROR_MAX_LEN + 3] = 4;
    s.n = 2, s.len = len, s.tok = tok, s.order = order;
    static mirror_batch_t bb;
    mirror_batch_fill(&bb, &s, order, 2, 0);
    cr_assert_eq(bb.bt.b, 2);
    cr_assert_eq(bb.bt.t_len, 4);
    cr_assert_eq(bb.bt.u_len, 5);
    int src0[4] = {5, 9, 0, 0}, tin0[5] = {1, 11, 7, 0, 0}, tout0[5] = {11, 7, 2, 0, 0};
    cr_assert_arr_eq(bb.src, src0, sizeof src0);
    cr_assert_arr_eq(bb.tin, tin0, sizeof tin0);
    cr_assert_arr_eq(bb.tout, tout0, sizeof tout0);
    cr_assert_eq(bb.mask[1], 1);
    cr_assert_eq(bb.mask[2], 0);
    mirror_batch_fill(&bb, &s, order, 2, 1);   // with the end marker
    cr_assert_eq(bb.bt.t_len, 5);
    int src1[5] = {1, 2, 3, 4, MIRROR_SRC_EOS}, src0e[5] = {5, 9, MIRROR_SRC_EOS, 0, 0};
    cr_assert_arr_eq(bb.src, src0e, sizeof src0e);
    cr_assert_arr_eq(bb.src + 5, src1, sizeof src1);
    cr_assert_eq(bb.mask[2], 1);
    cr_assert_eq(bb.mask[3], 0);
    mirror_batch_fill(&bb, &s, order, 0, 0);
    cr_assert_eq(bb.bt.b, 0);
    mirror_batch_fill(&bb, &s, order, MIRROR_BATCH_MAX + 1, 0);
    cr_assert_eq(bb.bt.b, 0);
}
