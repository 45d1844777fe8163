// MISTAKE: lets point i vote for itself (plain Nadaraya-Watson at x_i).
        double best = -INFINITY;   // the largest score over j != i
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j];
            if (-c * u * u > best) best = -c * u * u;
        }
        double sum = 0.0, num = 0.0;
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j], k = exp(-c * u * u - best);
            sum += k;
            num += k * y[j];
        }
        pred = sum > 0.0 ? num / sum : 0.0;
