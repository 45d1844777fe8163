// MISTAKE: the sum over queries stops one row early.
            for (int i = 0; i < n - 1; i++)
                acc += (double)a[(long)i * m + j] * dout[(long)i * d_v + c];
            acc += dv[(long)j * d_v + c];
