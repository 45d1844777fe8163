// MISTAKE: sets dv instead of adding to what it holds.
            for (int i = 0; i < n; i++)
                acc += (double)a[(long)i * m + j] * dout[(long)i * d_v + c];
