// MISTAKE: takes log of the rounded float probabilities, which is -inf when one underflows to 0.
        double lse = mx + log(sum), all = 0.0;   // log softmax(z)_j = z_j - lse
        for (int j = 0; j < v; j++) all += log(p[j]);
        row = -(1.0 - eps) * log(p[y]) - eps / v * all; (void)lse;
