// MISTAKE: keeps top + 1 keys (rank <= top).
        float max = -INFINITY;
        for (int j = 0; j < m; j++)
            if (s[j] > max) max = s[j];
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            int rank = 0;   // how many keys beat j: larger, or equal and earlier
            for (int l = 0; l < m; l++) rank += s[l] > s[j] || (s[l] == s[j] && l < j);
            double w = rank <= top ? exp((double)s[j] - max) : 0.0;
            sum += w;
            for (int c = 0; c < d_v; c++) o[c] += (float)(w * v[(long)j * d_v + c]);
        }
        for (int c = 0; c < d_v && sum > 0.0; c++) o[c] = (float)(o[c] / sum);
