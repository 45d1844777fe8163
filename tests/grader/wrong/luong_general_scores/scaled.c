// MISTAKE: divides the score by sqrt(K) as in scaled dot-product attention.
        for (int a = 0; a < sd; a++) {
            double wh = 0.0;
            for (int b = 0; b < k; b++) wh += (double)w[(long)a * k + b] * h[b];
            e += s[a] * wh;
        }
        e /= sqrt((double)k);
