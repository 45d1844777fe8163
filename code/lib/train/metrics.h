// metrics.h -- how often a model's predictions are right: per token and per
// sequence (chapter 9's accuracy against length counts whole sequences).
//
// N = rows (B sequences of T steps, row b T + t), V = vocabulary size. A row's
// prediction is the argmax of its logits (ties: the smallest index). Rows whose
// target is `ignore` (or outside 0..V-1) are not counted.
#ifndef METRICS_H
#define METRICS_H

// logits (N, V), targets (N,) -> the fraction of counted rows whose prediction
// is the target; *count = the number of counted rows. No counted row: 0.
// (torch: (logits.argmax(-1) == t)[t != ignore].float().mean())
double metrics_token_accuracy(const float *logits, const int *targets, int n, int v,
                              int ignore, int *count);

// logits (B T, V), targets (B T,) -> the fraction of sequences that are exact
// matches: every counted row of the sequence predicted right. A sequence with
// no counted row is not counted; *count = the number of sequences counted.
// None counted, or B, T or V below 1: 0.
// (torch: ((p == t) | (t == ignore)).all(1)[(t != ignore).any(1)].float().mean()
//  with p, t of shape (B, T))
double metrics_exact_match(const float *logits, const int *targets, int b, int t, int v,
                           int ignore, int *count);

#endif
