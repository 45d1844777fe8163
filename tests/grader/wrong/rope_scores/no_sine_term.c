// MISTAKE: keeps only the cosine term, as if the turn just scaled each pair's dot product.
            double dist = (double)((kpos0 + j) - (qpos0 + i));
            for (int p = 0; p < d / 2; p++) {
                double phi = dist * pow(base, -2.0 * p / d);
                double q0 = qi[2 * p], q1 = qi[2 * p + 1];
                double k0 = kj[2 * p], k1 = kj[2 * p + 1];
                s += (q0 * k0 + q1 * k1) * cos(phi);
            }
