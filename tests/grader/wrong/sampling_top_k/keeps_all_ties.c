// MISTAKE: keeps every entry equal to the k-th value, so ties can keep more than k.
    // The k-th best entry (value cut, index cut_at) has k - 1 entries ranked
    // before it; find it before anything changes, then hide what ranks after it.
    float cut = 0.0f;
    int cut_at = -1;
    for (int j = 0; j < v && cut_at < 0; j++) {
        int ahead = 0;
        for (int i = 0; i < v; i++) ahead += ranks_before(logits, i, j);
        if (ahead == k - 1) cut = logits[j], cut_at = j;
    }
    for (int j = 0; j < v; j++)
        if (logits[j] < cut) logits[j] = -INFINITY; (void)cut_at;
    return k;
