// MISTAKE: skips the softmax backward's - <p, dp> term.
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0, pdp = 0.0;
    for (int i = 0; i < n; i++) sum += exp((x[i] - max) / t);
    for (int i = 0; i < n; i++) pdp += exp((x[i] - max) / t) / sum * dp[i];
    for (int i = 0; i < n; i++) {
        double p = exp((x[i] - max) / t) / sum;
        dt += p * dp[i] * (-(double)x[i] / ((double)t * t));
    }
