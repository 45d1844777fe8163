// MISTAKE: adds the distance instead of subtracting it, rewarding far keys.
            b = slope * (float)abs(i - j);
