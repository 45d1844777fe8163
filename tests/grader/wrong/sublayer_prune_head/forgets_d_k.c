// MISTAKE: starts at row head instead of head d_k (right for head 0 only).
    for (int r = head; r < head + dk; r++)
        for (int c = 0; c < d; c++) p->w_o[(long)r * d + c] = 0.0f;
