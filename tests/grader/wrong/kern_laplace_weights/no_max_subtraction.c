// MISTAKE: exponentiates -|u| / h directly: a far query underflows to 0 / 0.
        double near = INFINITY;   // the smallest distance: its weight is the largest
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            if (u < near) near = u;
        }
        double sum = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            row[j] = (float)exp(-u / h);
            sum += row[j];
        }
        for (int j = 0; j < n_t; j++) row[j] = (float)(row[j] / sum);
