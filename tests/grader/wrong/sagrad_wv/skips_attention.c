// MISTAKE: takes dV = dout, as if out were V: dW_V = X^T dout.
        for (int c = 0; c < d_v; c++) {
            double g = 0.0;
            g = dout[(long)j * d_v + c];
            for (int r = 0; r < d_model; r++)
                dwv[(long)r * d_v + c] += (float)(xj[r] * g);
        }
