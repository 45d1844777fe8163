// MISTAKE: forgets the maximum in the log-sum-exp: lse = log(sum), which is off by mx.
        double lse = log(sum), all = 0.0;   // log softmax(z)_j = z_j - lse
        for (int j = 0; j < v; j++) all += z[j] - lse;
        row = -(1.0 - eps) * (z[y] - lse) - eps / v * all;
