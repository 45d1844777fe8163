// MISTAKE: divides without checking the sum: with one point the prediction is 0 / 0.
        double best = -INFINITY;   // the largest score over j != i
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j];
            if (j != i && -c * u * u > best) best = -c * u * u;
        }
        double sum = 0.0, num = 0.0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double u = (double)x[i] - x[j], k = exp(-c * u * u - best);
            sum += k;
            num += k * y[j];
        }
        pred = num / sum;
