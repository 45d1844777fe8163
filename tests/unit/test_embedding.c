// test_embedding.c -- lookup and scatter-add.
#include <criterion/criterion.h>

#include "layers/embedding.h"

static const float TABLE[6] = {1, 2, 3, 4, 5, 6};   // V = 3, E = 2

Test(embedding, looks_up_rows) {
    int ids[3] = {2, 0, 2};
    float out[6];
    cr_assert_eq(embedding_forward(TABLE, ids, out, 3, 3, 2), 0);
    const float want[6] = {5, 6, 1, 2, 5, 6};
    for (int i = 0; i < 6; i++) cr_assert_eq(out[i], want[i]);
}

Test(embedding, rejects_ids_out_of_range) {
    int ids[2] = {1, 3};
    float out[4];
    cr_assert_eq(embedding_forward(TABLE, ids, out, 2, 3, 2), -1);
}

// A token used twice collects both gradients (the derivative of a sum).
Test(embedding, backward_adds_repeated_tokens) {
    int ids[3] = {2, 0, 2};
    float dout[6] = {1, 1, 10, 20, 2, 3}, dt[6] = {0};
    embedding_backward(ids, dout, dt, 3, 3, 2);
    const float want[6] = {10, 20, 0, 0, 3, 4};
    for (int i = 0; i < 6; i++) cr_assert_eq(dt[i], want[i]);
}

// The Transformer's input, by hand: E = 4, so sqrt(E) = 2 exactly.
static const float TABLE4[12] = {1, 0, -1, 2, 0.5f, 0.25f, 0, -2, 3, 1, 0, 0};  // V = 3
static const float PE4[12] = {0, 1, 0, 1, 0.5f, 0.5f, 0.5f, 0.5f, -1, 0, 1, 0}; // n = 3

Test(embedding, pos_forward_by_hand) {
    int ids[3] = {2, 0, 2};
    float out[12];
    cr_assert_eq(embedding_pos_forward(TABLE4, ids, PE4, out, 3, 3, 4), 0);
    // row i = 2 * TABLE4[ids[i]] + PE4[i]
    const float want[12] = {6, 3, 0, 1, 2.5f, 0.5f, -1.5f, 4.5f, 5, 2, 1, 0};
    for (int i = 0; i < 12; i++)
        cr_assert_eq(out[i], want[i], "out[%d] = %g", i, out[i]);
}

Test(embedding, pos_forward_rejects_ids_out_of_range) {
    int ids[2] = {0, 3};
    float out[8];
    cr_assert_eq(embedding_pos_forward(TABLE4, ids, PE4, out, 2, 3, 4), -1);
}

// dtable[ids[i]] += 2 dout[i]: a repeated token collects both, the positions
// get nothing, an id out of range is skipped.
Test(embedding, pos_backward_by_hand) {
    int ids[4] = {2, 0, 2, 7};
    float dout[16] = {1, 1, 1, 1, 0.5f, -1, 0, 2, 10, 20, 30, 40, 9, 9, 9, 9};
    float dt[12] = {0};
    dt[4] = 1.0f;                          // the gradient accumulates (+=)
    embedding_pos_backward(ids, dout, dt, 4, 3, 4);
    const float want[12] = {1, -2, 0, 4, 1, 0, 0, 0, 22, 42, 62, 82};
    for (int i = 0; i < 12; i++)
        cr_assert_eq(dt[i], want[i], "dtable[%d] = %g", i, dt[i]);
}
