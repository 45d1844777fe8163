#!/usr/bin/env bash
# reproducible.sh BUILD_DIR -- a second, clean build into BUILD_DIR/repro (from
# the first build's compiled programs and the slow programs' outputs: see
# below) gives byte-identical results: every HTML page, program output and
# data file, every figure (SVG and PDF), the PDF and EPUB books and the chapter
# tarballs in html/download/ (dates come from SOURCE_DATE_EPOCH, which the
# Makefile exports). The second build sits at another path, so this
# also shows that nothing depends on where the build directory is.
# Wall-clock timings (stdout sections "== measured ... ==", data files
# measured_*) are the one exemption; the second build then draws its figures and
# book from the first build's timings, and those must match byte for byte.
# The second build is also killed (SIGKILL to make and all it started) at three
# moments: while its programs run, while pandoc writes the PDF's LaTeX, and while
# LaTeX writes book.aux; and LaTeX then starts from a book.aux cut in half as a
# kill leaves it. Each time the next make completes, and the results must still be
# identical to the first build's: a kill leaves nothing half-written that a
# later make would take for finished.
# BUILD_DIR/repro is removed again when everything matches, kept otherwise.
set -u
B=$1
. tests/tap.sh
R=$B/repro
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

[ -s "$B/html/index.html" ] && [ -s "$B/attention-in-c.pdf" ] \
  || { fail "the first build is complete" "build $B first (make B=$B)"; exit 0; }

# The sources must not have changed since BUILD_DIR was made, or the two
# builds would differ for that reason alone.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -q B="$B" all 2>/dev/null; then
  fail "the first build is up to date" "make B=$B would rebuild: $(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    make --no-print-directory -n B="$B" all 2>&1 | grep -v '^ *$' | head -n 3)"
  exit 0
fi

rm -rf "$R"
# A clean make of its own: not part of a calling make's jobserver or variables.
# It runs in two steps: the programs first, then (after the measurements are
# shared, see below) the figures and the book.
remake() {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" \
    B="$R" "$@" >> "$T/make.log" 2>&1
}
# kill_when WHAT CONDITION TARGET...: a make of TARGET in a process group of
# its own, killed with everything it started as soon as CONDITION (a shell
# test) holds; one TAP line says whether the kill landed before make finished.
kill_when() {
  local what=$1 cond=$2; shift 2
  book/build/sweep.sh "$R"   # the last kill's temporaries, which CONDITION could match
  setsid env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory \
    -j"$(nproc 2>/dev/null || echo 2)" B="$R" "$@" >> "$T/make.log" 2>&1 &
  local pid=$! landed=0
  while kill -0 "$pid" 2>/dev/null; do
    if eval "$cond"; then kill -KILL -- "-$pid" 2>/dev/null && landed=1; break; fi
    nap 0.05
  done
  wait "$pid" 2>/dev/null
  # the group's processes die a moment after make: the next make comes later
  for _ in $(seq 200); do pgrep -g "$pid" >/dev/null 2>&1 || break; nap 0.05; done
  if [ $landed = 1 ]; then pass "the second build killed $what"
  else fail "the second build killed $what" "make ended before: $(tail -n 3 "$T/make.log")"; fi
}
# The second build starts from the first build's compiled library and programs,
# copied with their times (their dependency files rewritten from B to R), so it
# compiles nothing: compiling is not what this test compares (a path in the
# debugging information is the one thing that differs), and it would cost a
# tenth of the test. Everything the programs make, they make again, but for
# the slow programs (below).
mkdir -p "$R"
# (pax format: its times keep their nanoseconds; tar's default rounds them down to
# the second, and an object made in the second its source was saved in then
# looked older than the source, so make compiled it again)
(cd "$B" && tar --format=posix -cf - obj lib bin) | tar -xf - -C "$R" ||
  { fail "copy the first build's compiled programs into $R"; exit 0; }
from=$(printf '%s' "$B" | sed 's/[][\.*^$|+?(){}#]/\\&/g')
to=$(printf '%s' "$R" | sed 's/[\&#]/\\&/g')
find "$R/obj" -name '*.d' -exec sed -E -i "s#(^| )$from/#\1$to/#g" {} +
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -q B="$R" programs; then
  pass "the second build has the first build's programs, up to date"
else
  fail "the second build has the first build's programs, up to date" \
    "$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -n B="$R" programs | head -n 3)"
fi
# A slow program (one with test arguments: the trainers of chapters 8-10, and
# chapters 5 and 7) is not run again in full: its stdout and data files are the
# first build's, copied with their times. Its run is shown reproducible where it
# costs a tenth as much: determinism.sh runs its small configuration built two
# ways, in another folder, against the book build's binary; valgrind.sh shows
# that run reads no uninitialised memory. Run again here, the three trainers
# were two fifths of this test's processor time.
reused=()
for bin in "$B"/bin/ch[0-9][0-9]_*; do
  p=$(basename "$bin")
  [ -n "$(test_args "$p")" ] || continue
  reused+=("$p")
  mkdir -p "$R/out" "$R/data"
  cp -a "$B/out/$p.txt" "$R/out/" && cp -a "$B/data/$p" "$R/data/" ||
    { fail "copy $p's outputs into $R"; exit 0; }
done
echo "# reused from the first build, not run again: ${reused[*]}"
first_output() {
  local f
  for f in "$R"/out/ch*.txt; do
    case " ${reused[*]} " in *" $(basename "$f" .txt) "*) ;; *) [ -e "$f" ] && return 0 ;; esac
  done
  return 1
}
kill_when "while its programs run" first_output outputs
if remake outputs; then
  pass "a second clean build of the program outputs into $R, after the kill"
else
  fail "a second clean build of the program outputs into $R, after the kill" "$(tail -n 15 "$T/make.log")"; exit 0
fi

# why A B: a few words on how two differing files differ
why() {
  local a=$1 b=$2
  case $a in
    *.pdf)
      echo "first difference at byte $(cmp "$a" "$b" 2>&1 | sed -n 's/.*byte \([0-9]*\).*/\1/p'), sizes $(stat -c %s "$a") and $(stat -c %s "$b")"
      # the usual suspects: document ID and dates (uncompressed in the file's tail)
      diff <(strings "$a" | grep -aoE '/(ID|CreationDate|ModDate)[^/]{0,80}' | sort -u) \
           <(strings "$b" | grep -aoE '/(ID|CreationDate|ModDate)[^/]{0,80}' | sort -u) | grep '^[<>]' | head -n 6 ;;
    *) diff "$a" "$b" 2>&1 | head -n 8 | cut -c1-160 ;;
  esac
}

# Measured timings differ from run to run by design: a program's stdout is
# compared without its sections titled "== measured ... ==", and data files
# named measured_* are not compared (CONTRIBUTING.md, "Measurements").
unmeasured() { awk '/^== .* ==$/ { skip = ($0 ~ /^== measured/) } !skip' "$1"; }
same_file() {
  case $1 in
    out/*.txt) cmp -s <(unmeasured "$B/$1") <(unmeasured "$R/$1") ;;
    *) cmp -s "$B/$1" "$R/$1" ;;
  esac
}

differ=0
# same LABEL FILE... (paths relative to the build directory): one TAP line
same() {
  local label=$1; shift
  local bad=() f
  for f in "$@"; do
    if [ ! -e "$B/$f" ]; then bad+=("$f: only in the second build")
    elif [ ! -e "$R/$f" ]; then bad+=("$f: not made by the second build")
    elif ! same_file "$f"; then bad+=("$f differs:" "$(why "$B/$f" "$R/$f" | sed 's/^/  /')")
    fi
  done
  if [ ${#bad[@]} -eq 0 ]; then pass "$label is reproducible$( [ $# -gt 1 ] && echo " ($# files)")"
  else fail "$label is reproducible" "$(printf '%s\n' "${bad[@]}")"; differ=1; fi
}

# every file under DIR in either build, relative to the build directory
files_in() { { (cd "$B" && find "$@" -type f 2>/dev/null); (cd "$R" && find "$@" -type f 2>/dev/null); } \
  | grep -v '\.tmp$' | sort -u; }

# Program outputs. Wall-clock timings are the one thing allowed to differ: the
# stdout sections titled "measured ..." and data files named measured_*. They
# are compared without those; everything else must match byte for byte.
measured=()
for out in $(files_in out); do
  p=$(basename "$out" .txt)
  case " ${reused[*]} " in *" $p "*) continue ;; esac
  mapfile -t data < <(files_in "data/$p" | grep -v '/measured_[^/]*$')
  if [ -e "$B/$out" ] && [ -e "$R/$out" ] && grep -q '^== measured.* ==$' "$B/$out"; then
    measured+=("$p")
    if cmp -s <(unmeasured "$B/$out") <(unmeasured "$R/$out"); then
      pass "$p: stdout is reproducible, apart from its measured sections"
    else
      fail "$p: stdout is reproducible, apart from its measured sections" \
        "$(diff <(unmeasured "$B/$out") <(unmeasured "$R/$out") | head -n 8)"; differ=1
    fi
    [ ${#data[@]} -gt 0 ] && same "$p: data files other than measured_*" "${data[@]}"
  else
    same "$p: stdout and data files" "$out" "${data[@]}"
  fi
done

# The second build then draws its figures and book from the first build's
# measurements, so that everything made from them must be identical too.
for p in "${measured[@]}"; do
  cp "$B/out/$p.txt" "$R/out/$p.txt"
  rm -f "$R/data/$p"/measured_*
  for f in "$B/data/$p"/measured_*; do [ -e "$f" ] && cp "$f" "$R/data/$p/"; done
done
# pdf.sh works in R/tex.tmp.PID: pandoc writes book.tex there, then LaTeX runs
in_pandoc() { compgen -G "$R/tex.tmp.*" >/dev/null && ! compgen -G "$R/tex.tmp.*/book.tex" >/dev/null; }
in_latex() { compgen -G "$R/tex.tmp.*/book.aux" >/dev/null; }
kill_when "while pandoc writes the PDF's LaTeX" in_pandoc all
kill_when "while LaTeX writes book.aux" in_latex all
# LaTeX then starts from the first build's auxiliary files with book.aux cut in
# half, as a kill while LaTeX writes it leaves one: the PDF must still come out
# the same (pdf.sh starts over without them when LaTeX fails on them).
if [ -s "$B/tex/book.aux" ]; then
  mkdir -p "$R/tex"
  for f in book.toc book.out; do [ -f "$B/tex/$f" ] && cp "$B/tex/$f" "$R/tex/"; done
  head -c $(( $(stat -c %s "$B/tex/book.aux") / 2 )) "$B/tex/book.aux" > "$R/tex/book.aux"
else fail "the first build keeps LaTeX's auxiliary files" "no $B/tex/book.aux"; differ=1; fi
if remake all && remake -q all; then
  pass "the second build's figures and book, from the first build's measurements, after the kills and a cut book.aux"
else
  fail "the second build's figures and book, from the first build's measurements, after the kills and a cut book.aux" \
    "$(tail -n 15 "$T/make.log")"; exit 0
fi
left=$(find "$R" -name '*.tmp.*' 2>/dev/null | head -n 5)
if [ -z "$left" ]; then pass "no temporary file of a killed make outlives the next make"
else fail "no temporary file of a killed make outlives the next make" "$left"; fi

mapfile -t pages < <(files_in html)
for f in "${pages[@]}"; do same "$f" "$f"; done


mapfile -t svgs < <(files_in figures | grep '\.svg$')
mapfile -t figpdfs < <(files_in figures | grep '\.pdf$')
same "figures/*.svg" "${svgs[@]}"
same "figures/*.pdf" "${figpdfs[@]}"
same "the PDF book" attention-in-c.pdf
same "the EPUB book" attention-in-c.epub

[ "$differ" = 0 ] && rm -rf "$R"
exit 0
