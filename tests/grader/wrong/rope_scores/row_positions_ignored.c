// MISTAKE: uses only the start positions, as if every query and key sat at qpos0 and kpos0.
            double dist = (double)(kpos0 - qpos0);
            for (int p = 0; p < d / 2; p++) {
                double phi = dist * pow(base, -2.0 * p / d);
                double q0 = qi[2 * p], q1 = qi[2 * p + 1];
                double k0 = kj[2 * p], k1 = kj[2 * p + 1];
                s += (q0 * k0 + q1 * k1) * cos(phi) + (q1 * k0 - q0 * k1) * sin(phi);
            }
