// MISTAKE: has no case for an empty state: exp(-inf - (-inf)) is NaN.
    float m = a->max > b->max ? a->max : b->max;
    double fa = exp((double)a->max - m);
    double fb = exp((double)b->max - m);
    a->sum = a->sum * fa + b->sum * fb;
    for (int c = 0; c < d_v; c++) a->acc[c] = a->acc[c] * fa + b->acc[c] * fb;
    a->max = m;
