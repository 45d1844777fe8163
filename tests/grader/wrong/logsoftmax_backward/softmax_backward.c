// MISTAKE: uses the softmax backward p (dy - <p, dy>) instead of the log-softmax one.
    double dot = 0.0;
    for (int i = 0; i < n; i++) dot += exp((double)y[i]) * dy[i];
    for (int i = 0; i < n; i++) dx[i] = (float)(exp((double)y[i]) * (dy[i] - dot));
