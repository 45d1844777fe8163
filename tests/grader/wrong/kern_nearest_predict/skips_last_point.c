// MISTAKE: the loop stops one training point early.
        float best = INFINITY;
        for (int j = 0; j < n_t - 1; j++) {
            float u = fabsf(x_query[i] - x_train[j]);
            if (u < best) {
                best = u;
                pred = y_train[j];
            }
        }
