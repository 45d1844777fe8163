#!/usr/bin/env bash
# browser.sh BUILD_DIR -- open every HTML page in Debian's Chromium (headless,
# driven by playwright-core from npm; no browser is ever downloaded) and check
# what a reader sees: no errors, no network, images, MathML, links, navigation,
# phone width. Screenshots land in BUILD_DIR/screenshots/. See browser/check.mjs.
set -u
B=$1
. tests/tap.sh

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  fail "node and npm are installed" "run 'sudo make deps'"; exit 0
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
  fail "node is version 18 or later" "playwright-core needs node >= 18; this is $(node --version)"; exit 0
fi
if [ ! -x /usr/bin/chromium ]; then
  fail "Chromium is installed" "/usr/bin/chromium is missing: run 'sudo make deps'"; exit 0
fi

# playwright-core, exactly as pinned in package-lock.json; reinstalled only when
# the installed version is not the pinned one. It has no install script and
# downloads no browser (the variable below makes sure of it anyway).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
installed() {
  (cd tests/browser && node -e '
    const lock = require("./package-lock.json").packages;
    const same = (p) => lock["node_modules/" + p].version === require("./node_modules/" + p + "/package.json").version;
    process.exit(same("playwright-core") && same("axe-core") ? 0 : 1)' 2>/dev/null)
}
# The figures group installs into the same folder and runs beside this one: one
# npm ci at a time (two at once fail with ENOTEMPTY), and the second finds the
# first's install.
if ! installed; then
  if ! out=$( (flock 9 && { installed || (cd tests/browser && npm ci --no-audit --no-fund \
         --loglevel=error); }) 9> "$B/npm-browser.lock" 2>&1 ) || ! installed; then
    fail "npm ci installs playwright-core and axe-core in tests/browser" "$out"; exit 0
  fi
fi

[ -s "$B/html/index.html" ] || { fail "the HTML book is built" "$B/html/index.html is missing"; exit 0; }

CO=$(mktemp)
# check.mjs also prints each chapter into $PT (PRINT_DIR), for the labels check below
PT=$(mktemp -d)
TAP_START=$TAP_N PRINT_DIR=$PT timeout 600 node tests/browser/check.mjs "$B" > "$CO"
rc=$?
cat "$CO"
# the lines after check.mjs's are numbered on from its last
TAP_N=$((TAP_N + $(grep -cE '^(not )?ok ' "$CO")))
rm -f "$CO"
# check.mjs prints its own result lines; a crash or timeout with none is a failure too.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
  TAP_N=1000; fail "the browser test finished" "node exited with status $rc (124 = timed out)"
fi
# The search's snippets show maths as plain text, never TeX (check.mjs checks
# the book's). Planted: the first three chapters' search records made again
# with the maths converter disabled (book/filter/plainmath.lua returning the
# TeX as it is; the HTML itself is not kept, so not highlighted); the same check,
# run on them, must fail and quote the TeX.
PS=$(mktemp -d)
cp -r book "$PS/book"
printf 'return { convert = function(t) return t, {} end, symbol = function() end }\n' \
  > "$PS/book/filter/plainmath.lua"
mkdir -p "$PS/b/html"
mds=(chapters/[0-9][0-9]-*.md)
progs=(code/ch[0-9][0-9]_*.c); progs=("${progs[@]#code/}"); progs=("${progs[@]%.c}")
made=1
for md in "${mds[@]:0:3}"; do
  LITERATE_BUILD="$B" LITERATE_CHAPTERS="${mds[*]}" LITERATE_PROGRAMS="${progs[*]}" \
    LITERATE_DEPS="$PS/$(basename "$md" .md).html.d" \
    pandoc --lua-filter "$PS/book/literate.lua" -t html5 --mathml --no-highlight "$md" -o /dev/null 2>/dev/null || made=0
done
{ echo 'window.BOOK_SEARCH = ['; cat "$PS"/*.html.search 2>/dev/null; echo '];'; } > "$PS/b/html/search-index.js"
cp "$B/html/minisearch.js" "$B/html/$(basename "${mds[0]}" .md).html" "$PS/b/html/" || made=0
out=$(TAP_START=0 timeout 120 node tests/browser/check.mjs "$PS/b" --search-snippets 2>&1)
rm -rf "$PS"
what="search: a planted index with the maths converter disabled shows TeX in its snippets, and the check says so"
if [ $made = 1 ] && echo "$out" | grep -q '^not ok .* shows TeX$' && echo "$out" | grep -q '^# "softmax": .* shows TeX \\'; then
  pass "$what"
else fail "$what" "$out"; fi
# Printing a chapter (Chromium's print to PDF) never leaves a listing's or an
# output's label alone at the foot of a page, away from its block.
stranded=()
for html in "$B"/html/[0-9][0-9]-*.html; do
  name=$(basename "$html" .html)
  [ -s "$PT/$name.pdf" ] || { stranded+=("$name: Chromium printed no PDF"); continue; }
  grep -o 'class="\(listing\|output\)-label">[^<]*' "$html" | sed 's/^[^>]*>//; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' \
    | sed 's/[[:space:]]\+/ /g; s/ *$//' | sort -u > "$PT/labels"
  # every page's last line but the last page's (pdftotext ends each page with a
  # form feed), then the labels among them
  while IFS=$'\t' read -r p last; do
    stranded+=("$name: page $p ends with the label '$last'")
  done < <(pdftotext -layout "$PT/$name.pdf" - 2>/dev/null |
    awk '{ while (sub(/^\f/, "")) { end[++n] = last; last = "" }
           gsub(/[[:space:]]+/, " "); sub(/^ /, ""); sub(/ $/, ""); if ($0 != "") last = $0 }
         END { for (p = 1; p < n; p++) if (end[p] != "") print p "\t" end[p] }' |
    awk -F'\t' 'NR == FNR { label[$0]; next } $2 in label' "$PT/labels" -)
done
rm -rf "$PT"
if [ ${#stranded[@]} -eq 0 ]; then pass "printed chapters keep every listing label with its listing"
else fail "printed chapters keep every listing label with its listing" "$(printf '%s\n' "${stranded[@]}")"; fi
exit 0
