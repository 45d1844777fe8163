#!/usr/bin/env bash
# determinism.sh BUILD_DIR -- the same seed gives the same numbers whatever
# compiles the programs: every program is rebuilt the way the README says
# (cc -std=c11 ... -ffp-contract=off code/chNN_*.c code/lib/*/*.c -lm) with
# gcc at -O0 and with clang at -O3 -march=native, and its
# stdout and every data file must equal the book build's byte for byte. Exempt:
# measured timings, i.e. stdout sections titled "measured..." and data files
# named measured_*.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
ls "$B"/out/ch[0-9][0-9]_*.txt >/dev/null 2>&1 || { fail "the book build ran the programs" "make B=$B first"; exit 0; }

# stdout without its measured sections
unmeasured() { awk '/^== measured.* ==$/ { skip = 1; next } /^== .* ==$/ { skip = 0 } !skip' "$1"; }

# Two builds span what could change a result, each as far from the book's own
# (gcc -O3) as it goes: no optimisation at all, and the other compiler at its
# most aggressive, vectorised for this machine. gcc -O3 -march=native, which ran
# too, went to keep make test inside its time budget: it differs from the book's
# build only in how wide gcc vectorises element-wise loops, which cannot change a
# float without -ffast-math's reassociation, and clang -O3 -march=native
# vectorises as wide; clang at -O0 and -O2, which it once ran, lie between these.
configs=("gcc -O0" "clang -O3 -march=native")
n_jobs=$(nproc 2>/dev/null || echo 2)
# compile_one DIR SOURCE CC FLAGS...: DIR/obj/SOURCE_WITH_UNDERSCORES.o, errors in DIR/err.*
compile_one() {
  local d=$1 c=$2 name; shift 2
  name=$(echo "$c" | tr '/' '_')
  "$@" -c "$c" -o "$d/obj/$name.o" 2>"$d/err.$name" || return 1
  rm -f "$d/err.$name"
}
export -f compile_one
# The library modules the programs link (the book build's link records, written by
# book/build/link.sh from the linker's map): a module no program uses (a graded
# exercise's, the bench's) changes no output here, so it is not compiled again.
mapfile -t libs < <(sed -s -n '1s/^[^:]*://p' "$B"/obj/ch[0-9][0-9]_*.link.d |
  grep -o '/obj/lib/[a-z_0-9]*/[a-z_0-9]*\.o' | sed 's|^/obj/\(.*\)\.o$|code/\1.c|' | sort -u)
if [ ${#libs[@]} -eq 0 ] || [ ! -f "${libs[0]}" ]; then
  fail "the book build's link records name the modules the programs use" \
    "none read from $B/obj/*.link.d (make B=$B programs)"; exit 0
fi
for cfg in "${configs[@]}"; do
  read -r cc opt <<< "$cfg"
  command -v "$cc" >/dev/null || { fail "$cc is installed" "run 'sudo make deps'"; continue; }
  d=$T/$(echo "$cfg" | tr -c 'a-zA-Z0-9\n' '_'); mkdir -p "$d/obj"
  flags="-std=c11 $opt -ffp-contract=off -Icode/lib"
  # the library's files compiled a core each at a time
  if ! printf '%s\n' "${libs[@]}" | xargs -P "$n_jobs" -I{} bash -c 'compile_one "$@"' _ \
       "$d" {} $cc $flags; then
    fail "$cfg compiles the library" "$(cat "$d"/err.* 2>/dev/null | head -n 5)"; continue
  fi
  for out in "$B"/out/ch[0-9][0-9]_*.txt; do
    p=$(basename "$out" .txt)
    if ! $cc $flags "code/$p.c" "$d"/obj/*.o -lm -o "$d/$p" 2>"$d/err"; then
      fail "$p built with $cfg" "$(head -n 5 "$d/err")"; continue
    fi
    # A slow program (training) is compared in its small test configuration:
    # the book build's binary and this one, both run with its test arguments.
    read -r -a A <<< "$(test_args "$p")"
    ref=$out; ref_data=$B/data/$p
    if [ ${#A[@]} -gt 0 ]; then
      ref=$T/ref_$p.txt; ref_data=$T/ref_data_$p
      [ -s "$ref" ] || timeout 300 "$B/bin/$p" "${A[@]}" --data "$ref_data" > "$ref" 2>/dev/null
    fi
    if ! timeout 300 "$d/$p" "${A[@]}" --data "$d/data_$p" > "$d/$p.txt" 2>"$d/err"; then
      fail "$p built with $cfg runs" "$(head -n 5 "$d/err")"; continue
    fi
    diffs=()
    if ! cmp -s <(unmeasured "$ref") <(unmeasured "$d/$p.txt"); then
      diffs+=("stdout: $(diff <(unmeasured "$ref") <(unmeasured "$d/$p.txt") | grep '^[<>]' | head -n 4)")
    fi
    while read -r f; do
      case $(basename "$f") in measured_*) continue ;; esac
      if [ ! -e "$ref_data/$f" ]; then diffs+=("$f: not written by the book build")
      elif [ ! -e "$d/data_$p/$f" ]; then diffs+=("$f: not written")
      elif ! cmp -s "$ref_data/$f" "$d/data_$p/$f"; then
        diffs+=("$f: $(diff "$ref_data/$f" "$d/data_$p/$f" | grep '^[<>]' | head -n 2 | tr '\n' ' ')")
      fi
    done < <({ (cd "$ref_data" && find . -type f); (cd "$d/data_$p" && find . -type f); } | sort -u)
    if [ ${#diffs[@]} -eq 0 ]; then pass "$p built with $cfg: same stdout and data files"
    else fail "$p built with $cfg: same stdout and data files" "$(printf '%s\n' "${diffs[@]}")"; fi
  done
  rm -rf "$d"
done
exit 0
