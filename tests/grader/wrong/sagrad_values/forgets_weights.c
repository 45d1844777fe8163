// MISTAKE: sums dout over the queries without the attention weights.
            for (int i = 0; i < n; i++)
                acc += dout[(long)i * d_v + c];
            acc += dv[(long)j * d_v + c];
