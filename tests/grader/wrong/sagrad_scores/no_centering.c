// MISTAKE: forgets the softmax backward's - rowsum(a * dA) term.
        double dot = 0.0;   // rowsum(a * dA) of row i
        for (int j = 0; j < m; j++) {
            double da = 0.0;
            for (int c = 0; c < d_v; c++) da += (double)gi[c] * v[(long)j * d_v + c];
            si[j] = (float)da;
            dot += ai[j] * da;
        }
        for (int j = 0; j < m; j++) si[j] = (float)(scale * ai[j] * si[j]);
