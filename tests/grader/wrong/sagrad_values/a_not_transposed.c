// MISTAKE: uses A dout (row j of a) where A^T dout (column j) belongs.
            for (int i = 0; i < n; i++)
                acc += (double)a[(long)j * m + i] * dout[(long)i * d_v + c];
            acc += dv[(long)j * d_v + c];
