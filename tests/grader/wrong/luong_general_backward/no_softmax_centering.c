// MISTAKE: forgets the softmax's - sum alpha dalpha term, de_t = alpha_t dalpha_t.
    double dot = 0.0;                            // sum_u alpha_u dalpha_u
    for (int t = 0; t < t_len; t++) {
        double da = 0.0;
        for (int b = 0; b < k; b++) da += (double)dc[b] * ann[(long)t * k + b];
        dot += alpha[t] * da;
    }
    for (int t = 0; t < t_len; t++) {
        const float *h = ann + (long)t * k;
        float *dh = dann + (long)t * k;
        double da = 0.0;
        for (int b = 0; b < k; b++) da += (double)dc[b] * h[b];
        double de = alpha[t] * da;
        for (int b = 0; b < k; b++) dh[b] += alpha[t] * dc[b];
        for (int a = 0; a < sd; a++) {
            double wh = 0.0;
            for (int b = 0; b < k; b++) {
                wh += (double)w[(long)a * k + b] * h[b];
                dw[(long)a * k + b] += (float)(de * s[a] * h[b]);
                dh[b] += (float)(de * w[(long)a * k + b] * s[a]);
            }
            ds[a] += (float)(de * wh);
        }
    }
