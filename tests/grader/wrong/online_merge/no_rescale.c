// MISTAKE: adds the sums and accumulators without moving them to a common maximum.
    if (b->max == -INFINITY) return;   // b saw nothing
    float m = a->max > b->max ? a->max : b->max;
    double fa = a->max == -INFINITY ? 0.0 : exp((double)a->max - m);
    double fb = exp((double)b->max - m);
    a->sum = a->sum + b->sum;
    for (int c = 0; c < d_v; c++) a->acc[c] = a->acc[c] + b->acc[c];
    a->max = m;
