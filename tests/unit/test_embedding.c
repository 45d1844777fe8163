// test_embedding.c -- lookup and scatter-add.
#include <criterion/criterion.h>

#include "train/embedding.h"

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
