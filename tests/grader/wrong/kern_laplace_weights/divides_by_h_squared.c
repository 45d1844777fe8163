// MISTAKE: divides |u| by h^2: right only at h = 1, the by-hand width.
        double near = INFINITY;   // the smallest distance: its weight is the largest
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            if (u < near) near = u;
        }
        double sum = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            row[j] = (float)exp(-(u - near) / (h * h));
            sum += row[j];
        }
        for (int j = 0; j < n_t; j++) row[j] = (float)(row[j] / sum);
