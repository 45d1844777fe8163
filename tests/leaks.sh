#!/usr/bin/env bash
# leaks.sh BUILD_DIR -- no graded function's body reaches a reader or another
# chapter's student (tests/grader/leak.py); TAP out.
#   one line per chapter: none of its task bodies is in the HTML pages, book.html,
#   the search index, the EPUB, the PDF's text, a program tarball or a student pack;
#   the check fails on a planted leak (a page, a wrapped PDF-like text, a tarball);
#   every program tarball builds and its checks pass with the graded functions stubbed.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d /tmp/leaks-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
make --no-print-directory -s B="$B" all assignments >&2 ||
  { fail "make all assignments"; exit 0; }

# --- the build --------------------------------------------------------------
python3 tests/grader/leak.py "$B" > "$T/leaks.txt" 2> "$T/leaks.err"
rc=$?
if [ "$rc" -gt 1 ] || grep -q '^pack:' "$T/leaks.err"; then
  fail "leak.py runs on the build" "$(cat "$T/leaks.err")"
else pass "leak.py runs on the build ($(tail -n 1 "$T/leaks.err"))"; fi
for tsv in tests/assignments/ch[0-9][0-9].tsv; do
  c=$(basename "$tsv" .tsv)
  n=$(grep -c "($c, " "$T/leaks.txt")
  if [ "$n" = 0 ]; then pass "$c: no graded body in the book, the downloads or another pack"
  else fail "$c: no graded body in the book, the downloads or another pack ($n leaks)" \
    "$(grep "($c, " "$T/leaks.txt" | sed "s|$B/||")"; fi
done

# --- planted leaks ----------------------------------------------------------
# The body of the last task of the last chapter, cut as leak.py cuts it.
read -r ch fn src <<< "$(python3 - <<'PY'
import importlib.util
s = importlib.util.spec_from_file_location("leak", "tests/grader/leak.py")
m = importlib.util.module_from_spec(s); s.loader.exec_module(m)
ch, fn, src, toks = [b for b in m.graded_bodies() if m.run_length(len(b[3]))][-1]
print(ch, fn, src)
PY
)"
body=$(python3 tests/grader/leak.py --body "$fn")
page=$B/html/index.html   # a page with no listing
cp "$page" "$T/page.html"
check "a copy of $(basename "$page") has no leak" python3 tests/grader/leak.py --files "$T/page.html"
# planted as pandoc highlights a listing: one span per token, entities for < > &
python3 - "$T/page.html" "$body" <<'PY'
import html, re, sys
path, body = sys.argv[1], sys.argv[2]
code = "".join(f'<span class="x">{html.escape(t)}</span>' if t.strip() else t
               for t in re.split(r"(\s+|\W)", body) if t)
text = open(path).read().replace("</body>", f"<pre><code>{code}</code></pre>\n</body>")
open(path, "w").write(text)
PY
planted() {   # planted WHAT FILE: leak.py fails, naming the task and the file
  local out rc
  out=$(python3 tests/grader/leak.py --files "$2" 2>&1); rc=$?
  if [ "$rc" = 1 ] && echo "$out" | grep -q "^leak: $fn ($ch, .*) in .*$(basename "$2")"; then
    pass "a leak planted in $1 is found: $(echo "$out" | grep '^leak:' | head -n 1 | sed "s|$T/||")"
  else fail "a leak planted in $1 is found" "exit $rc: $out"; fi
}
planted "a page (highlighted, HTML-escaped)" "$T/page.html"
# the same body as a PDF's text shows it: wrapped mid-token at 50 columns, with
# fvextra's continuation mark, comments and indentation kept
printf '%s\n' "$body" | fold -w 50 | sed '2~2s/^/\xe2\x86\xaa /' > "$T/wrapped.txt"
planted "a listing wrapped mid-token (a PDF's text)" "$T/wrapped.txt"
mkdir -p "$T/tgz/x/code" && cp "$src" "$T/tgz/x/code/" &&
  tar -czf "$T/program.tar.gz" -C "$T/tgz" x
planted "a program tarball" "$T/program.tar.gz"

# --- the program tarballs build and run -------------------------------------
# A tarball carries the library modules its program links, stubbed alike in every
# tarball: each module (a path and its bytes) is compiled once, a core each, and
# every program is linked from the objects of its own tarball's files. (book.sh
# builds one tarball with its README's own line.)
tgzs=("$B"/html/download/ch[0-9][0-9]_*.tar.gz)
O=$T/objs; mkdir -p "$O"
: > "$T/mods"
for tgz in "${tgzs[@]}"; do
  p=$(basename "$tgz" .tar.gz)
  rm -rf "${T:?}/$p"
  tar -xzf "$tgz" -C "$T" 2>/dev/null || continue
  (cd "$T/$p" && for f in code/lib/*/*.c; do
     [ -f "$f" ] && echo "$p $f $({ echo "$f"; cat "$f"; } | sha1sum | cut -c1-16)"; done) >> "$T/mods"
done
awk '!seen[$3]++' "$T/mods" | xargs -P "$(nproc 2>/dev/null || echo 2)" -L1 \
  sh -c 'cd "$1/$3" && cc -std=c11 -O2 -ffp-contract=off -Icode/lib -c "$4" -o "$2/$5.o" \
           2> "$2/$5.err"' _ "$T" "$O" 2>/dev/null || true
for tgz in "${tgzs[@]}"; do
  p=$(basename "$tgz" .tar.gz)
  read -r -a A <<< "$(test_args "$p")"
  if [ ! -s "$T/$p/code/$p.c" ]; then fail "$p.tar.gz unpacks"; continue; fi
  mapfile -t objs < <(awk -v p="$p" -v o="$O" '$1 == p {print o "/" $3 ".o"}' "$T/mods")
  if ! out=$(cd "$T/$p" && cc -std=c11 -O2 -ffp-contract=off \
       -Icode/lib "code/$p.c" "${objs[@]}" -lm -o "$p" 2>&1); then
    fail "$p.tar.gz builds with its graded functions stubbed" \
      "$out$(cat "${objs[@]/%.o/.err}" 2>/dev/null | head -n 5)"; continue
  fi
  if (cd "$T/$p" && timeout 600 "./$p" "${A[@]}" > out.txt 2> err.txt); then
    pass "$p.tar.gz builds with its graded functions stubbed, and its checks pass"
  else
    fail "$p.tar.gz builds with its graded functions stubbed, and its checks pass" \
      "$(grep FAILED "$T/$p/out.txt" | head -n 5; head -n 3 "$T/$p/err.txt")"
  fi
done
