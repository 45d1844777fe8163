// MISTAKE: computes p = softmax(x), forgetting the temperature.
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0, pdp = 0.0;
    for (int i = 0; i < n; i++) sum += exp(x[i] - max);
    for (int i = 0; i < n; i++) pdp += exp(x[i] - max) / sum * dp[i];
    for (int i = 0; i < n; i++) {
        double p = exp(x[i] - max) / sum;
        dt += p * (dp[i] - pdp) * (-(double)x[i] / ((double)t * t));
    }
