// MISTAKE: counts the distance from 1, so even the query itself is penalised.
            b = -slope * (float)(abs(i - j) + 1);
