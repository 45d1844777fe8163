// MISTAKE: writes q - p, the gradient of the negated loss.
        // Inverts: loss = -sum_j q_j log softmax(z)_j  ->  dz = softmax(z) - q,
        // since sum_j q_j = 1.
        for (int j = 0; j < v; j++) {
            double q = (1.0 - eps) * (j == y) + (double)eps / v;
            dz[j] += (float)(scale * (q - p[j]));
        }
