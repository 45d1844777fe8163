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
if ! installed; then
  if ! out=$(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error 2>&1) || ! installed; then
    fail "npm ci installs playwright-core and axe-core in tests/browser" "$out"; exit 0
  fi
fi

[ -s "$B/html/index.html" ] || { fail "the HTML book is built" "$B/html/index.html is missing"; exit 0; }

TAP_START=$TAP_N timeout 300 node tests/browser/check.mjs "$B"
rc=$?
# check.mjs prints its own result lines; a crash or timeout with none is a failure too.
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
  TAP_N=1000; fail "the browser test finished" "node exited with status $rc (124 = timed out)"
fi
exit 0
