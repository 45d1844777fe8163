// MISTAKE: uses exp(-u^2 / h^2), the kernel without its factor 1/2.
        double best = -INFINITY;   // the largest score over j != i
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j];
            if (j != i && -c * u * u > best) best = -c * u * u;
        }
        double sum = 0.0, num = 0.0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double u = (double)x[i] - x[j], k = exp(-2 * c * u * u - 2 * best);
            sum += k;
            num += k * y[j];
        }
        pred = sum > 0.0 ? num / sum : 0.0;
