// MISTAKE: uses xent_backward's gradient p - onehot, forgetting the smoothing.
        // Inverts: loss = -sum_j q_j log softmax(z)_j  ->  dz = softmax(z) - q,
        // since sum_j q_j = 1.
        for (int j = 0; j < v; j++) {
            double q = (j == y); (void)eps;
            dz[j] += (float)(scale * (p[j] - q));
        }
