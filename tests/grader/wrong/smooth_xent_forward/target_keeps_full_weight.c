// MISTAKE: keeps weight 1 on the target and adds eps / V on every class, so q sums to 1 + eps.
        double lse = mx + log(sum), all = 0.0;   // log softmax(z)_j = z_j - lse
        for (int j = 0; j < v; j++) all += z[j] - lse;
        row = -(z[y] - lse) - eps / v * all;
