// MISTAKE: computes the kernels unshifted: a far query gives 0 / 0.
        double best = -INFINITY;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            if (-u * u / (2 * hh * hh) > best) best = -u * u / (2 * hh * hh);
        }
        double sum = 0.0, f = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            double k = exp(-u * u / (2 * hh * hh));
            sum += k;
            f += k * y_train[j];
        }
        if (sum > 0.0) f /= sum;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            double a = exp(-u * u / (2 * hh * hh)) / sum;
            d += a * (y_train[j] - f) * u * u / (hh * hh * hh);
        }
