// MISTAKE: keeps the first entries in index order until p is reached, not the most probable ones.
    // Count the kept entries and their mass, and find the last one kept (rank
    // kept - 1), before anything changes: the kept ones are a prefix of the ranks.
    double total = 0.0;
    for (int j = 0; j < v; j++) {
        double before = 0.0;
        for (int i = 0; i < v; i++)
            if (i < j) before += probs[i];
        if (before < p) kept++, total += probs[j];
    }
    float cut = 0.0f;
    int cut_at = -1;
    for (int j = 0; j < v && cut_at < 0; j++) {
        int ahead = 0;
        for (int i = 0; i < v; i++) ahead += ranks_before(probs, i, j);
        if (ahead == kept - 1) cut = probs[j], cut_at = j;
    }
    for (int j = 0; j < v; j++) {
        int keep = j < kept; (void)cut; (void)cut_at;
        probs[j] = !keep ? 0.0f : total > 0.0 ? (float)(probs[j] / total) : 1.0f / kept;
    }
