// MISTAKE: sets dwv with each key's outer product, so only the last key remains.
        for (int c = 0; c < d_v; c++) {
            double g = 0.0;
            for (int i = 0; i < n; i++)
                g += (double)a[(long)i * n + j] * dout[(long)i * d_v + c];
            for (int r = 0; r < d_model; r++)
                dwv[(long)r * d_v + c] = (float)(xj[r] * g);
        }
