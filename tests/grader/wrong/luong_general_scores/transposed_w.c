// MISTAKE: reads W as if it were K x S (W[b][a]), the transpose of the stored matrix.
        for (int a = 0; a < sd; a++) {
            double wh = 0.0;
            for (int b = 0; b < k; b++) wh += (double)w[(long)b * sd + a] * h[b];
            e += s[a] * wh;
        }
