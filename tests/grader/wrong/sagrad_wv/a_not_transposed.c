// MISTAKE: weighs dout by row j of a (A dout) instead of column j (A^T dout).
        for (int c = 0; c < d_v; c++) {
            double g = 0.0;
            for (int i = 0; i < n; i++)
                g += (double)a[(long)j * n + i] * dout[(long)i * d_v + c];
            for (int r = 0; r < d_model; r++)
                dwv[(long)r * d_v + c] += (float)(xj[r] * g);
        }
