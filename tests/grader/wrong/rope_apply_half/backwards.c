// MISTAKE: swaps the signs of the sines, turning every pair backwards.
        for (int i = 0; i < h; i++) {
            double a = (double)(pos0 + r) * pow(base, -2.0 * i / d);
            double c = cos(a), s = sin(a);
            double x0 = row[i], x1 = row[i + h];
            row[i] = (float)(x0 * c + x1 * s);
            row[i + h] = (float)(-x0 * s + x1 * c);
        }
