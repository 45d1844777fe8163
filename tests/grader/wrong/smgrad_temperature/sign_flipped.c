// MISTAKE: takes dz_i/dt = +x_i / t^2.
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0, pdp = 0.0;
    for (int i = 0; i < n; i++) sum += exp((x[i] - max) / t);
    for (int i = 0; i < n; i++) pdp += exp((x[i] - max) / t) / sum * dp[i];
    for (int i = 0; i < n; i++) {
        double p = exp((x[i] - max) / t) / sum;
        dt += p * (dp[i] - pdp) * ((double)x[i] / ((double)t * t));
    }
