// MISTAKE: spreads eps over the V - 1 wrong classes only, not all V.
        double lse = mx + log(sum), all = 0.0;   // log softmax(z)_j = z_j - lse
        for (int j = 0; j < v; j++) all += j == y ? 0.0 : z[j] - lse;
        row = -(1.0 - eps) * (z[y] - lse) - (v > 1 ? eps / (v - 1) : 0.0) * all;
