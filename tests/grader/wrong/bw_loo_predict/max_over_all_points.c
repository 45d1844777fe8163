// MISTAKE: takes the largest score over every j, i included (0): an isolated point underflows to 0 / 0.
        double best = -INFINITY;   // the largest score over j != i
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j];
            if (-c * u * u > best) best = -c * u * u;
        }
        double sum = 0.0, num = 0.0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double u = (double)x[i] - x[j], k = exp(-c * u * u - best);
            sum += k;
            num += k * y[j];
        }
        pred = sum > 0.0 ? num / sum : 0.0;
