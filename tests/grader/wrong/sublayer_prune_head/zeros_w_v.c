// MISTAKE: silences the head through W_V's columns and leaves W_O alone.
    for (int r = 0; r < d; r++)
        for (int c = head * dk; c < (head + 1) * dk; c++) p->w_v[(long)r * d + c] = 0.0f;
