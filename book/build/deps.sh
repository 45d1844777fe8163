#!/usr/bin/env bash
# deps.sh -- install the Debian packages the project needs (the list, with the
# reason for each, is book/build/packages.txt). Idempotent: a quick check first,
# apt only if something is missing, and only as root. Then the locale the tests
# use, and Node.js for the browser test (a machine's own node is kept).
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/../.."
mapfile -t pkgs < <(sed 's/#.*//' book/build/packages.txt | awk 'NF { print $1 }')
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
done
root=$([ "$(id -u)" = 0 ] && echo yes || echo no)
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#pkgs[@]} packages installed"
elif [ "$root" = no ]; then
  echo "deps: missing: ${missing[*]}"; echo "deps: run 'sudo make deps' (needs root for apt-get)"
  exit 1
else
  echo "deps: installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# The Turkish locale: tests/robust.sh runs the text checks under it (a dotless i).
if ! locale -a 2>/dev/null | grep -qix 'tr_TR.utf8'; then
  if [ "$root" = yes ]; then
    sed -i 's/^# *\(tr_TR.UTF-8 UTF-8\)/\1/' /etc/locale.gen
    grep -q '^tr_TR.UTF-8 UTF-8' /etc/locale.gen || echo 'tr_TR.UTF-8 UTF-8' >> /etc/locale.gen
    locale-gen >/dev/null
  else
    echo "deps: the locale tr_TR.UTF-8 is missing: run 'sudo make deps'"; exit 1
  fi
fi
# Node.js (for the browser test): keep a machine's own node if it has one.
if ! command -v npm >/dev/null; then
  [ "$root" = yes ] || { echo "deps: npm is missing: run 'sudo make deps'"; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm
fi
