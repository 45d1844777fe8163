#!/usr/bin/env bash
# validate.sh BUILD_DIR -- the book against the standards' own checkers:
#   - the Nu HTML checker (vnu.jar from npm vnu-jar, pinned in
#     tests/validate/package-lock.json) finds no error in any HTML page or any
#     figure's SVG; one Java run checks them all;
#   - epubcheck (Debian) finds no error and no warning in the EPUB.
# Each checker first shows it can fail: the vnu run also reads a planted page
# (a duplicate id, a misnested element) and a planted SVG (an unknown element),
# which must each be reported; epubcheck must refuse a small EPUB with a file
# its manifest does not list (pandoc makes it, in a second).
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

for tool in java pandoc zip; do
  command -v $tool >/dev/null || { fail "$tool is installed" "run 'sudo make deps'"; exit 0; }
done
EPUBCHECK=/usr/share/java/epubcheck.jar
[ -f "$EPUBCHECK" ] || { fail "epubcheck is installed" "$EPUBCHECK is missing: run 'sudo make deps'"; exit 0; }
command -v npm >/dev/null || { fail "npm is installed" "run 'sudo make deps'"; exit 0; }

# vnu.jar, exactly as pinned; installed with --ignore-scripts (its install
# script would download a Java runtime: Debian's is used).
VNU=tests/validate/node_modules/vnu-jar/build/dist/vnu.jar
installed() {
  (cd tests/validate && node -e '
    const lock = require("./package-lock.json").packages["node_modules/vnu-jar"].version;
    process.exit(lock === require("./node_modules/vnu-jar/package.json").version ? 0 : 1)' 2>/dev/null)
}
if ! installed || [ ! -s "$VNU" ]; then
  if ! out=$(cd tests/validate && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error 2>&1) \
      || ! installed; then
    fail "npm ci installs vnu-jar in tests/validate" "$out"; exit 0
  fi
fi

# Both checkers are short Java runs: the first JIT tier and the serial collector
# halve their CPU time (the full JIT and parallel GC threads never pay back).
JAVA=(java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)

pages=("$B"/html/*.html)
svgs=("$B"/figures/*.svg)
[ -s "$B/html/index.html" ] || { fail "the HTML book is built" "$B/html/index.html is missing"; exit 0; }
[ -e "${svgs[0]}" ] || { fail "the figures are drawn" "no $B/figures/*.svg"; exit 0; }

# --- the Nu HTML checker: every page and SVG, and the two planted files ------
mkdir -p "$T/planted"
sed 's|<main|<p id="planted-dup"><div id="planted-dup"></p></div><main|' "$B/html/index.html" \
  > "$T/planted/page.html"
sed 's|</svg>|<planted-nonsense/></svg>|' "${svgs[0]}" > "$T/planted/figure.svg"
"${JAVA[@]}" -Xss4m -jar "$VNU" --errors-only --format gnu --also-check-svg \
  "${pages[@]}" "${svgs[@]}" "$T/planted/page.html" "$T/planted/figure.svg" > "$T/vnu.out" 2>&1
rc=$?
grep -E '^"?file:' "$T/vnu.out" > "$T/errors" || true
planted_page=$(grep -c 'planted/page\.html' "$T/errors")
planted_svg=$(grep -c 'planted/figure\.svg' "$T/errors")
if [ "$rc" -ne 0 ] && [ "$planted_page" -gt 0 ] && [ "$planted_svg" -gt 0 ]; then
  pass "the Nu HTML checker reports a planted invalid page and a planted invalid SVG"
else
  fail "the Nu HTML checker reports a planted invalid page and a planted invalid SVG" \
    "exit $rc; $planted_page errors for the page, $planted_svg for the SVG: $(head -n 5 "$T/vnu.out")"
fi
real=$(grep -v '/planted/' "$T/errors")
if [ -z "$real" ] && [ "$planted_page" -gt 0 ]; then
  pass "the Nu HTML checker finds no error in the ${#pages[@]} pages and ${#svgs[@]} figures"
else
  fail "the Nu HTML checker finds no error in the ${#pages[@]} pages and ${#svgs[@]} figures" \
    "$(printf '%s\n' "$real" | sed "s|file:$PWD/||" | head -n 20)"
fi

# --- epubcheck: a planted fault, then the book -------------------------------
printf '# Planted\n\nA book with a file its manifest does not list.\n' \
  | pandoc --from markdown --to epub3 --metadata title=Planted -o "$T/planted.epub" 2>"$T/pandoc.err"
mkdir -p "$T/stray/EPUB" && printf 'not listed\n' > "$T/stray/EPUB/stray.txt"
(cd "$T/stray" && zip -qX "$T/planted.epub" EPUB/stray.txt)
"${JAVA[@]}" -jar "$EPUBCHECK" --failonwarnings "$T/planted.epub" > "$T/planted.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q 'stray.txt' "$T/planted.out"; then
  pass "epubcheck refuses a planted EPUB (a file the manifest does not list)"
else
  fail "epubcheck refuses a planted EPUB (a file the manifest does not list)" \
    "exit $rc: $(cat "$T/pandoc.err" "$T/planted.out" | head -n 10)"
fi
EPUB=$B/attention-in-c.epub
if [ ! -s "$EPUB" ]; then
  fail "epubcheck: no error and no warning in the EPUB" "$EPUB is missing"
elif "${JAVA[@]}" -jar "$EPUBCHECK" --failonwarnings "$EPUB" > "$T/epub.out" 2>&1 \
    && grep -q '0 fatals / 0 errors / 0 warnings' "$T/epub.out"; then
  pass "epubcheck: no error and no warning in the EPUB"
else
  fail "epubcheck: no error and no warning in the EPUB" "$(grep -E '^(FATAL|ERROR|WARNING)|Messages' "$T/epub.out" | head -n 20)"
fi
exit 0
