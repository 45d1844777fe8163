#!/usr/bin/env bash
# bench.sh BUILD_DIR [--quick] -- make bench: the fast kernels against PyTorch +
# OpenBLAS on this machine, the build's own time budget, and one table with each
# target met or not (BUILD_DIR/bench/report.txt). Never part of make test: it
# measures. The kernels are built here with their own flags (BENCH_CFLAGS); the
# book's programs keep theirs, which make their printed numbers the same
# everywhere. --quick: fewer shapes, no build budget (a smoke run, minutes).
set -euo pipefail
usage() { echo "usage: code/bench/bench.sh BUILD_DIR [--quick]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
build=$1 quick=
if [ $# -eq 2 ]; then [ "$2" = --quick ] || usage; quick=--quick; fi
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
CC=${CC:-cc}
PY3=${PY3:-/usr/bin/python3}
# -fno-trapping-math: lets the compiler turn the softmax's clamps into vector
# max/blend instructions (results unchanged: no code here reads the FP flags).
BENCH_CFLAGS="-std=c11 -O3 -march=native -fno-trapping-math -ffp-contract=fast -fopenmp"
BENCH_CFLAGS+=" -Wall -Wextra -Werror"
out=$build/bench
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

srcs=(code/bench/bench_attention.c $(ls code/lib/*/*.c | grep -v '^code/lib/program/'))
echo "bench: building the kernels ($BENCH_CFLAGS)"
# shellcheck disable=SC2086
$CC -Icode/lib $BENCH_CFLAGS "${srcs[@]}" -lm -o "$tmp/bench_attention"

{ echo "machine: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)," \
    "$(nproc) cores; $($CC --version | head -n1); C flags: $BENCH_CFLAGS"
  echo "PyTorch $($PY3 -c 'import torch; print(torch.__version__)'), BLAS:" \
    "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)"
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$tmp/machine.txt"

echo "bench: C kernels (a few minutes) ..."
"$tmp/bench_attention" $quick > "$tmp/c.tsv"
echo "bench: PyTorch and sgemm on the same shapes ..."
for t in 1 2; do
  OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t "$PY3" code/bench/torch_anchor.py $quick \
    --threads $t
done > "$tmp/torch.tsv"
if [ -z "$quick" ]; then
  echo "bench: the build's own budget (clean make -j2 of a copy of the tree) ..."
  code/bench/build_budget.sh "$tmp/budget.tsv"
else
  : > "$tmp/budget.tsv"
fi
"$PY3" code/bench/report.py "$tmp/c.tsv" "$tmp/torch.tsv" "$tmp/budget.tsv" \
  "$tmp/machine.txt" > "$tmp/report.txt"
for f in c.tsv torch.tsv budget.tsv machine.txt report.txt; do mv "$tmp/$f" "$out/$f"; done
cat "$out/report.txt"
