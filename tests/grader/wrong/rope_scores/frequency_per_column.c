// MISTAKE: gives pair p the frequency of column p, base^(-p / d), instead of base^(-2p / d).
            double dist = (double)((kpos0 + j) - (qpos0 + i));
            for (int p = 0; p < d / 2; p++) {
                double phi = dist * pow(base, -1.0 * p / d);
                double q0 = qi[2 * p], q1 = qi[2 * p + 1];
                double k0 = kj[2 * p], k1 = kj[2 * p + 1];
                s += (q0 * k0 + q1 * k1) * cos(phi) + (q1 * k0 - q0 * k1) * sin(phi);
            }
