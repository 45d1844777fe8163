// patterns.h -- what kind of attention matrix is this?
//
// Five numbers describe a square attention matrix w (n, n) (row i = how
// query i spreads its attention over the n keys of the same sequence), and a
// short list of rules turns them into one of four names:
//
//   diagonal  most weight on the token itself
//   local     most weight on the token and its immediate neighbours
//   global    weight spread (nearly) evenly over the whole sequence
//   sparse    most weights tiny, the mass on a few keys anywhere
#ifndef PATTERNS_H
#define PATTERNS_H

typedef enum {
    PATTERN_DIAGONAL,
    PATTERN_LOCAL,
    PATTERN_GLOBAL,
    PATTERN_SPARSE,
    PATTERN_NONE      // not classified (yet)
} pattern_kind_t;

// snippet: pattern_rules
// The thresholds of pattern_classify. Each is a fraction in [0, 1].
#define PATTERN_RADIUS 1            // "neighbour" means |i - j| <= 1
#define PATTERN_SMALL 0.1           // a weight below PATTERN_SMALL / n is "tiny"
#define PATTERN_GLOBAL_MIN 0.9      // entropy_ratio at least this: global
#define PATTERN_DIAGONAL_MIN 0.5    // diag at least this: diagonal
#define PATTERN_LOCAL_MIN 0.5       // locality at least this: local
#define PATTERN_SPARSE_MIN 0.5      // sparsity at least this: sparse
// end snippet

typedef struct {
    double locality;       // mean weight within PATTERN_RADIUS of the diagonal
    double diag;           // mean weight a token gives itself
    double sparsity;       // fraction of weights below PATTERN_SMALL / n
    double entropy;        // mean row entropy, nats
    double entropy_ratio;  // entropy / ln n: 1 = uniform rows, 0 = one-hot rows
    double max_weight;     // largest weight
} pattern_stats_t;

// w (n, n) -> the measurements above (attn_stats.h does the work).
// For n = 1, entropy_ratio is defined as 0; for n = 0 (or below) every
// measurement is 0.
void pattern_measure(const float *w, int n, pattern_stats_t *s);

// Measurements -> one of the four kinds, by the rules in patterns.c.
pattern_kind_t pattern_classify(const pattern_stats_t *s);

// "diagonal", "local", "global", "sparse", or "?" for PATTERN_NONE.
const char *pattern_name(pattern_kind_t kind);

#endif
