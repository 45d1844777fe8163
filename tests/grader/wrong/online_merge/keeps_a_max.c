// MISTAKE: moves b to a's maximum but never raises it: a larger b overflows.
    if (b->max == -INFINITY) return;   // b saw nothing
    float m = a->max == -INFINITY ? b->max : a->max;
    double fa = a->max == -INFINITY ? 0.0 : exp((double)a->max - m);
    double fb = exp((double)b->max - m);
    a->sum = a->sum * fa + b->sum * fb;
    for (int c = 0; c < d_v; c++) a->acc[c] = a->acc[c] * fa + b->acc[c] * fb;
    a->max = m;
