// MISTAKE: writes entry (r, c) at the transposed position c d_model + r.
        for (int c = 0; c < d_v; c++) {
            double g = 0.0;
            for (int i = 0; i < n; i++)
                g += (double)a[(long)i * n + j] * dout[(long)i * d_v + c];
            for (int r = 0; r < d_model; r++)
                dwv[(long)c * d_model + r] += (float)(xj[r] * g);
        }
