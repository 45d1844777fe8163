// Numbers of the chapter 2 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <math.h>
#include <stdio.h>

int main(void) {
    // Exercise 2: two keys, trace 1 - p1^2 - p2^2 = 2 p (1 - p), p = sigmoid(delta).
    // Bisection for the delta at which the trace falls to 0.1 (it decreases in delta).
    double lo = 0.0, hi = 50.0;
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), p = 1.0 / (1.0 + exp(-mid));
        if (2.0 * p * (1.0 - p) > 0.1) lo = mid; else hi = mid;
    }
    double delta = hi, p = 1.0 / (1.0 + exp(-delta));
    printf("trace_delta\t%.3f\n", delta);
    printf("trace_delta_closed\t%.3f\n", 2.0 * acosh(sqrt(5.0)));
    printf("trace_p1\t%.4f\n", p);
    // a raw score difference q.k1 - q.k2 has standard deviation sqrt(2 d_k)
    int dk = 1;
    while (sqrt(2.0 * dk) < delta) dk++;
    printf("trace_dk_real\t%.2f\n", delta * delta / 2.0);
    printf("trace_dk\t%d\n", dk);
    // Exercise 4: entropy of (1/2, 1/4, 1/4) and its effective range.
    const double w[3] = {0.5, 0.25, 0.25};
    double h = 0.0;
    for (int i = 0; i < 3; i++) h -= w[i] * log(w[i]);
    printf("entropy_half_quarters\t%.4f\n", h);
    printf("range_half_quarters\t%.4f\n", exp(h));
    // Exercise 11: the target entropy, half of ln 6.
    printf("half_ln6\t%.4f\n", 0.5 * log(6.0));
    return 0;
}
