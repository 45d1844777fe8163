// MISTAKE: pairs adjacent columns (2i, 2i + 1), which is rope_apply, not the rotate-half layout.
        for (int i = 0; i < h; i++) {
            double a = (double)(pos0 + r) * pow(base, -2.0 * i / d);
            double c = cos(a), s = sin(a);
            double x0 = row[2 * i], x1 = row[2 * i + 1];
            row[2 * i] = (float)(x0 * c - x1 * s);
            row[2 * i + 1] = (float)(x0 * s + x1 * c);
        }
