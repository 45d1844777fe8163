// MISTAKE: subtracts eps / V on the target only, not on every class.
        // Inverts: loss = -sum_j q_j log softmax(z)_j  ->  dz = softmax(z) - q,
        // since sum_j q_j = 1.
        for (int j = 0; j < v; j++) {
            double q = j == y ? 1.0 - eps + (double)eps / v : 0.0;
            dz[j] += (float)(scale * (p[j] - q));
        }
