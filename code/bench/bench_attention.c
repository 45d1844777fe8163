// bench_attention.c -- how fast is exact attention? (make bench; never in make test)
//
// Times softmax(q k^T / sqrt(d)) v for one head of n queries and n keys of width
// d with every kernel in KERNELS, and prints one tab-separated line per
// measurement:
//
//   kernel  n  d  threads  median_seconds  gflops  extra_bytes  repeats
//
// gflops counts 4 n^2 d floating-point operations (two n x n x d products, as
// FlashAttention's papers do) for the forward kernels, also for the causal one
// (so its GFLOP/s over the plain kernel's is its speed-up), and 12 n^2 d for
// "flash_fwd_bwd", the forward with its log-sum-exp and the backward (six
// products); extra_bytes is the peak resident memory the call
// added beyond its inputs and output, measured by running each measurement in
// its own child process (getrusage's ru_maxrss against the resident size just
// before the first call). Each measurement: one warm-up call, then at least
// MIN_REPS timed calls, more while they take under a second, median reported.
//
// Built by the Makefile's bench target with its own flags (-O3 -march=native
// -fopenmp); the book's programs keep theirs.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "attention/attention.h"
#include "base/rng.h"
#include "fast/flash_backward.h"
#include "fast/tiled.h"
#include "variants/online.h"

enum { MIN_REPS = 3, MAX_REPS = 9 };

typedef struct {
    float *q, *k, *v, *out, *weights;   // weights: (n, n), only the standard kernel
    float *lse, *dout, *dq, *dk, *dv;   // only the backward
    int n, d;
} problem_t;

typedef int (*kernel_fn)(problem_t *p);

static int run_standard(problem_t *p) {
    attention_forward(p->q, p->k, p->v, NULL, p->out, p->weights, p->n, p->n, p->d,
                      p->d);
    return 0;
}

// chapter 5: key blocks of 64, one query at a time
static int run_online(problem_t *p) {
    return online_attention(p->q, p->k, p->v, NULL, p->out, p->n, p->n, p->d, p->d, 64);
}

static int run_tiled(problem_t *p) {
    return tiled_attention_forward(p->q, p->k, p->v, p->out, 1, p->n, p->n, p->d, p->d);
}

static int run_causal(problem_t *p) {
    return tiled_attention_causal(p->q, p->k, p->v, p->out, 1, p->n, p->n, p->d, p->d);
}

static int run_fwd_bwd(problem_t *p) {
    const tiled_shape_t shape = {1, p->n, p->n, p->d, p->d, 0};
    const flash_saved_t fw = {p->q, p->k, p->v, p->out, p->lse};
    if (tiled_attention(p->q, p->k, p->v, p->out, p->lse, &shape)) return -1;
    return flash_attention_backward(&fw, p->dout, p->dq, p->dk, p->dv, &shape);
}

static const struct {
    const char *name;
    kernel_fn run;
    int threaded;       // uses more than one thread when asked
    int needs_weights;  // allocates the (n, n) matrix itself (counted as extra)
    double flops;       // per n^2 d
} KERNELS[] = {
    {"standard", run_standard, 0, 1, 4},
    {"online", run_online, 0, 0, 4},
    {"tiled", run_tiled, 1, 0, 4},
    {"tiled_causal", run_causal, 1, 0, 4},
    {"flash_fwd_bwd", run_fwd_bwd, 1, 0, 12},
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long resident_bytes(void) {
    long pages_total, pages_resident;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    int ok = fscanf(f, "%ld %ld", &pages_total, &pages_resident) == 2;
    fclose(f);
    return ok ? pages_resident * sysconf(_SC_PAGESIZE) : 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static float *alloc_touched(size_t count) {
    float *p = malloc(count * sizeof *p);
    if (p) memset(p, 0, count * sizeof *p);
    return p;
}

// In a child process: set up, measure, write "median extra reps" to fd.
static int measure(int kernel, int n, int d, int threads, int fd) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    problem_t p = {.n = n, .d = d};
    size_t nd = (size_t)n * d;
    p.q = alloc_touched(nd), p.k = alloc_touched(nd), p.v = alloc_touched(nd);
    p.out = alloc_touched(nd);
    p.lse = alloc_touched((size_t)n), p.dout = alloc_touched(nd);
    p.dq = alloc_touched(nd), p.dk = alloc_touched(nd), p.dv = alloc_touched(nd);
    if (!p.q || !p.k || !p.v || !p.out || !p.lse || !p.dout || !p.dq || !p.dk || !p.dv)
        return 1;
    rng_t rng;
    rng_seed(&rng, 42);
    rng_fill_normal(&rng, p.q, (int)nd, 0.0f, 1.0f);
    rng_fill_normal(&rng, p.k, (int)nd, 0.0f, 1.0f);
    rng_fill_normal(&rng, p.v, (int)nd, 0.0f, 1.0f);
    rng_fill_normal(&rng, p.dout, (int)nd, 0.0f, 1.0f);
    long before = resident_bytes();
    if (KERNELS[kernel].needs_weights) {   // the standard kernel's n x n matrix
        p.weights = malloc((size_t)n * n * sizeof(float));
        if (!p.weights) return 1;
    }
    if (KERNELS[kernel].run(&p) != 0) return 1;   // warm-up
    double t[MAX_REPS], spent = 0.0;
    int reps = 0;
    while (reps < MIN_REPS || (reps < MAX_REPS && spent < 1.0)) {
        double t0 = now();
        if (KERNELS[kernel].run(&p) != 0) return 1;
        t[reps] = now() - t0;
        spent += t[reps++];
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long extra = ru.ru_maxrss * 1024L - before;
    char line[128];
    int len = snprintf(line, sizeof line, "%.9g %ld %d\n", median,
                       extra < 0 ? 0 : extra, reps);
    return write(fd, line, (size_t)len) == len ? 0 : 1;
}

// One measurement in a child process of its own (its peak memory is its own),
// printed as a line of the table. Returns 0; 1 if it failed.
static int measure_apart(int kk, int n, int d, int threads) {
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        close(fds[0]);
        _exit(measure(kk, n, d, threads, fds[1]));
    }
    close(fds[1]);
    char buf[128] = {0};
    ssize_t got = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    double median;
    long extra;
    int reps;
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        sscanf(buf, "%lf %ld %d", &median, &extra, &reps) != 3) {
        fprintf(stderr, "bench_attention: %s n=%d d=%d threads=%d failed\n",
                KERNELS[kk].name, n, d, threads);
        return 1;
    }
    double gflops = KERNELS[kk].flops * (double)n * n * d / median / 1e9;
    printf("%s\t%d\t%d\t%d\t%.6g\t%.2f\t%ld\t%d\n", KERNELS[kk].name, n, d, threads,
           median, gflops, extra, reps);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv) {
    int quick = 0, max_threads = 2;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quick") == 0) quick = 1;
        else if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc &&
                 (max_threads = atoi(argv[++a])) >= 1 && max_threads <= 64) {
        } else {
            fprintf(stderr, "usage: bench_attention [--quick] [--threads 1..64]\n");
            return 2;
        }
    }
    const int full_n[] = {256, 512, 1024, 2048, 4096, 8192};
    const int quick_n[] = {256, 1024, 2048};
    const int *ns = quick ? quick_n : full_n;
    const int n_ns = quick ? 3 : 6, n_ds = quick ? 1 : 2, ds[] = {64, 128};
    const int n_kernels = (int)(sizeof KERNELS / sizeof *KERNELS);
    printf("kernel\tn\td\tthreads\tmedian_seconds\tgflops\textra_bytes\trepeats\n");
    fflush(stdout);
    for (int di = 0; di < n_ds; di++)
        for (int ni = 0; ni < n_ns; ni++)
            for (int kk = 0; kk < n_kernels; kk++)
                for (int th = 1; th <= max_threads; th++) {
                    if (th > 1 && !KERNELS[kk].threaded) continue;
                    if (measure_apart(kk, ns[ni], ds[di], th) != 0) return 1;
                }
    return 0;
}
