// child.c -- Child et al.'s fixed pattern and its two-step reachability.
#include "variants/child.h"

int child_fixed_mask(unsigned char *mask, int n, int l, int c) {
    if (n < 0 || l < 1 || c < 0 || c > l) return -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int visible = 0;
            // BEGIN SOLUTION
            visible = j <= i && (j / l == i / l || j % l >= l - c);
            // END SOLUTION
            mask[(long)i * n + j] = (unsigned char)visible;
        }
    return 0;
}

int child_reach_steps(const unsigned char *mask, int n, int *steps) {
    if (n < 0) return -1;
    int missing = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int s = 0;
            // BEGIN SOLUTION
            if (mask[(long)i * n + j]) s = 1;
            for (int k = 0; k < n && !s; k++)
                if (mask[(long)i * n + k] && mask[(long)k * n + j]) s = 2;
            if (j <= i && !s) missing++;
            // END SOLUTION
            steps[(long)i * n + j] = s;
        }
    return missing;
}
