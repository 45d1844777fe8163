// MISTAKE: zeroes the head's columns of W_O instead of its rows.
    for (int r = head * dk; r < (head + 1) * dk; r++)
        for (int c = 0; c < d; c++) p->w_o[(long)c * d + r] = 0.0f;
