// MISTAKE: cuts at the entry with k entries before it, keeping k + 1.
    // The k-th best entry (value cut, index cut_at) has k - 1 entries ranked
    // before it; find it before anything changes, then hide what ranks after it.
    float cut = 0.0f;
    int cut_at = -1;
    for (int j = 0; j < v && cut_at < 0; j++) {
        int ahead = 0;
        for (int i = 0; i < v; i++) ahead += ranks_before(logits, i, j);
        if (ahead == k) cut = logits[j], cut_at = j;
    }
    for (int j = 0; j < v; j++)
        if (logits[j] < cut || (logits[j] == cut && j > cut_at)) logits[j] = -INFINITY;
    return k;
