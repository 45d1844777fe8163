// MISTAKE: compares signed differences, so the largest x_train always wins.
        float best = INFINITY;
        for (int j = 0; j < n_t; j++) {
            float u = x_query[i] - x_train[j];
            if (u < best) {
                best = u;
                pred = y_train[j];
            }
        }
