#!/usr/bin/python3
"""torch_anchor.py [--quick] --threads T -- what readers would otherwise use, on the same shapes.

Prints tab-separated lines in bench_attention's format:

  kernel  n  d  threads  median_seconds  gflops  extra_bytes  repeats

kernel "torch": softmax(q k^T / sqrt(d)) v in float32 with Debian's python3-torch
(one head, as bench_attention), timed like bench_attention (a warm-up call, then at
least 3 timed calls, more while they take under a second; the median).
kernel "sgemm": a (2048, 2048) by (2048, 2048) float32 product through torch.mm,
which calls the system BLAS: the machine's practical peak (2 n^3 operations).
kernel "torch_causal": the same with the causal mask (masked_fill with -inf before
the softmax), GFLOP/s counted as 4 n^2 d like bench_attention's tiled_causal.
kernel "torch_fwd_bwd": autograd of the same (non-causal) expression, forward and
backward with a given dout, 12 n^2 d operations like flash_fwd_bwd.
extra_bytes is 0 here: the Python process's peak memory is not comparable.
Run it once per thread count, with OPENBLAS_NUM_THREADS=T and OMP_NUM_THREADS=T
in the environment so OpenBLAS's own threads match torch's (the Makefile does).
"""
import math
import sys
import time

import torch

FULL_N, QUICK_N = [256, 512, 1024, 2048, 4096, 8192], [256, 1024, 2048]


def median_time(fn, warm_up=1, min_reps=3, max_reps=9, budget=1.0):
    """Median seconds of fn() over at least min_reps timed calls (up to max_reps
    while under budget seconds), after warm_up untimed calls; and the count."""
    for _ in range(warm_up):
        fn()
    times, spent = [], 0.0
    while len(times) < min_reps or (len(times) < max_reps and spent < budget):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        spent += times[-1]
    times.sort()
    k = len(times)
    return (times[k // 2] if k % 2 else 0.5 * (times[k // 2 - 1] + times[k // 2])), k


def main(argv):
    args, quick, threads = argv[1:], False, None
    while args:
        a = args.pop(0)
        if a == "--quick":
            quick = True
        elif a == "--threads" and args and args[0].isdigit() and 1 <= int(args[0]) <= 64:
            threads = int(args.pop(0))
        else:
            threads = None
            break
    if threads is None:
        print("usage: torch_anchor.py [--quick] --threads 1..64", file=sys.stderr)
        return 2
    torch.set_num_threads(threads)
    ns, ds = (QUICK_N, [64]) if quick else (FULL_N, [64, 128])
    gen = torch.Generator().manual_seed(42)
    a = torch.randn(2048, 2048, generator=gen)
    b = torch.randn(2048, 2048, generator=gen)
    t, reps = median_time(lambda: torch.mm(a, b))
    print(f"sgemm\t2048\t2048\t{threads}\t{t:.6g}\t{2 * 2048.0 ** 3 / t / 1e9:.2f}\t0\t{reps}",
          flush=True)
    for d in ds:
        for n in ns:
            q, k, v = (torch.randn(n, d, generator=gen) for _ in range(3))
            scale = 1.0 / math.sqrt(d)
            hidden = torch.ones(n, n).tril() == 0
            qg, kg, vg = (x.clone().requires_grad_() for x in (q, k, v))
            dout = torch.randn(n, d, generator=gen)

            def fwd_bwd():
                out = torch.softmax((qg @ kg.T) * scale, -1) @ vg
                qg.grad = kg.grad = vg.grad = None
                out.backward(dout)

            for name, fn, flops in (
                    ("torch", lambda: torch.softmax((q @ k.T) * scale, -1) @ v, 4),
                    ("torch_causal", lambda: torch.softmax(
                        ((q @ k.T) * scale).masked_fill(hidden, -math.inf), -1) @ v, 4),
                    ("torch_fwd_bwd", fwd_bwd, 12)):
                t, reps = median_time(fn)
                print(f"{name}\t{n}\t{d}\t{threads}\t{t:.6g}"
                      f"\t{flops * n * n * d / t / 1e9:.2f}\t0\t{reps}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
