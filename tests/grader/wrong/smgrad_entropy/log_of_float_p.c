// MISTAKE: takes log of the float probability: an underflowed p gives 0 * -inf = NaN.
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp(x[i] - max);
    double lse = max + log(sum);
    for (int i = 0; i < n; i++) {
        float p = (float)exp(x[i] - lse);
        h -= p * log(p);
    }
    for (int i = 0; i < n; i++) {
        float p = (float)exp(x[i] - lse);
        dx[i] = (float)(-p * (log(p) + h));
    }
