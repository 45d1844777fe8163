// MISTAKE: counts the prefix inclusively (i <= prefix and j <= prefix), so one token too many sees the future.
            visible = j <= i || (i <= prefix && j <= prefix);
