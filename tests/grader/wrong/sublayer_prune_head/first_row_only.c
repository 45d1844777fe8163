// MISTAKE: zeroes only the first row of the head's block.
    for (int r = head * dk; r < head * dk + 1; r++)
        for (int c = 0; c < d; c++) p->w_o[(long)r * d + c] = 0.0f;
