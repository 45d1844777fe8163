// MISTAKE: returns the nearest point's x instead of its y.
        float best = INFINITY;
        for (int j = 0; j < n_t; j++) {
            float u = fabsf(x_query[i] - x_train[j]);
            if (u < best) {
                best = u;
                pred = x_train[j];
            }
        }
