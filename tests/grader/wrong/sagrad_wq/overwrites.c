// MISTAKE: sets dW_Q instead of adding to it.
    double scale = 1.0 / sqrt((double)dk);
    for (int i = 0; i < n; i++) {   // dS = A * (dA - rowsum(A * dA)), dA = dout V^T
        const float *ai = a + (long)i * n, *gi = dout + (long)i * dv;
        float *si = ds + (long)i * n;
        double dot = 0.0;
        for (int j = 0; j < n; j++) {
            double da = 0.0;
            for (int c = 0; c < dv; c++) da += (double)gi[c] * v[(long)j * dv + c];
            si[j] = (float)da;
            dot += ai[j] * da;
        }
        for (int j = 0; j < n; j++) si[j] = (float)(ai[j] * (si[j] - dot));
        for (int c = 0; c < dk; c++) {   // row i of dQ = dS K / sqrt(d_k)
            double acc = 0.0;
            for (int j = 0; j < n; j++) acc += (double)si[j] * k[(long)j * dk + c];
            dq[(long)i * dk + c] = (float)(acc * scale);
        }
    }
    for (int r = 0; r < dm; r++)   // dW_Q += X^T dQ
        for (int c = 0; c < dk; c++) {
            double acc = 0.0;
            for (int i = 0; i < n; i++)
                acc += (double)in->x[(long)i * dm + r] * dq[(long)i * dk + c];
            dwq[(long)r * dk + c] = (float)acc;
        }
