// MISTAKE: on a tie keeps the last nearest point (<= instead of <).
        float best = INFINITY;
        for (int j = 0; j < n_t; j++) {
            float u = fabsf(x_query[i] - x_train[j]);
            if (u <= best) {
                best = u;
                pred = y_train[j];
            }
        }
