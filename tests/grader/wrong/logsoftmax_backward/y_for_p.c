// MISTAKE: uses the log-probability y where the probability exp(y) belongs.
    double total = 0.0;
    for (int i = 0; i < n; i++) total += dy[i];
    for (int i = 0; i < n; i++) dx[i] = (float)(dy[i] - (double)y[i] * total);
