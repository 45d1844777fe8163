// MISTAKE: uses the signed distance i - j, so keys after the query get a bonus.
            b = -slope * (float)(i - j);
