// MISTAKE: uses the squared distance of the Gaussian kernel instead of |u|.
        double near = INFINITY;   // the smallest distance: its weight is the largest
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            if (u < near) near = u;
        }
        double sum = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            row[j] = (float)exp(-(u * u - near * near) / (2 * h));
            sum += row[j];
        }
        for (int j = 0; j < n_t; j++) row[j] = (float)(row[j] / sum);
