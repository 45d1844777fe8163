#!/usr/bin/env bash
# bench.sh BUILD_DIR [--quick] -- make bench: the fast kernels against PyTorch +
# OpenBLAS on this machine, the build's own time budget, and one table with each
# target met or not (BUILD_DIR/bench/report.txt). Never part of make test: it
# measures. The kernels are built here with their own flags (BENCH_CFLAGS); the
# book's programs keep theirs, which make their printed numbers the same
# everywhere. Also one training step of each of the book's models against a
# plain PyTorch module (bench_train.c, torch_train.py), and a perf profile of the
# exact kernel (profile_tiled.c; code/bench/README.md reads it). --quick: fewer
# shapes, shorter timings, no profile, no build budget (a smoke run, minutes).
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
# -mprefer-vector-width=512: with AVX-512, GCC still vectorises plain loops (the
# softmax's, not tile_mm's vector types) 256 bits wide unless told; 512 made the
# tiled kernel 3-6 % faster on the Xeon of code/bench/README.md. Only where the
# compiler knows the option (x86).
if $CC -mprefer-vector-width=512 -x c -c /dev/null -o /dev/null 2>/dev/null; then
  BENCH_CFLAGS+=" -mprefer-vector-width=512"
fi
# -g: source lines for the profile (no change to the code the compiler makes)
BENCH_CFLAGS+=" -g -Wall -Wextra -Werror"
out=$build/bench
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

srcs=()   # the library without program/ (the chapter programs' command line)
for f in code/lib/*/*.c; do [[ $f == code/lib/program/* ]] || srcs+=("$f"); done
echo "bench: building the kernels and models ($BENCH_CFLAGS)"
mkdir -p "$tmp/obj"
# shellcheck disable=SC2086
( cd "$tmp/obj" && printf '%s\n' "${srcs[@]/#/$top/}" |
  xargs -d '\n' -P 2 -n 8 $CC -I"$top/code/lib" $BENCH_CFLAGS -c )
ar rcs "$tmp/libbench.a" "$tmp"/obj/*.o
for prog in bench_attention bench_train profile_tiled; do
  # shellcheck disable=SC2086
  $CC -Icode/lib $BENCH_CFLAGS "code/bench/$prog.c" "$tmp/libbench.a" -lm -o "$tmp/$prog"
done

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
echo "bench: one training step of each model, C and PyTorch (one thread) ..."
OMP_NUM_THREADS=1 "$tmp/bench_train" $quick > "$tmp/train_c.tsv"
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$PY3" code/bench/torch_train.py $quick \
  > "$tmp/train_torch.tsv"
: > "$tmp/profile.txt"
if [ -z "$quick" ]; then
  echo "bench: the exact kernel under perf (n = 1024, d = 64, one thread, 10 s) ..."
  if command -v perf >/dev/null &&
     OMP_NUM_THREADS=1 perf record -q -o "$tmp/perf.data" \
       "$tmp/profile_tiled" 1024 64 10 > "$tmp/profile_run.txt" 2>/dev/null; then
    # the busiest functions and source lines (awk, not head: perf would die of
    # SIGPIPE); report.py keeps the top ones and sums the lines by file
    top_of() { perf report -i "$tmp/perf.data" --stdio --sort "$1" 2>/dev/null |
               awk -v k="$2" '/%/ && n < k { print; n++ }'; }
    { cat "$tmp/profile_run.txt"
      echo "# by function"; top_of symbol 8
      echo "# by source line"; top_of srcline 200
    } > "$tmp/profile.txt"
  else
    echo "bench: perf is missing or may not record here: no profile" >&2
  fi
  echo "bench: the build's own budget (clean make -j2 of a copy of the tree) ..."
  code/bench/build_budget.sh "$tmp/budget.tsv"
else
  : > "$tmp/budget.tsv"
fi
"$PY3" code/bench/report.py "$tmp/c.tsv" "$tmp/torch.tsv" "$tmp/budget.tsv" \
  "$tmp/machine.txt" "$tmp/train_c.tsv" "$tmp/train_torch.tsv" "$tmp/profile.txt" \
  > "$tmp/report.txt"
for f in c.tsv torch.tsv train_c.tsv train_torch.tsv profile.txt budget.tsv machine.txt \
    report.txt; do
  mv "$tmp/$f" "$out/$f"
done
cat "$out/report.txt"
