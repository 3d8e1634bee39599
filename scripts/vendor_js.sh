#!/usr/bin/env bash
# Check the pinned JavaScript the book build needs from node_modules (run after `npm ci`).
# Nothing is copied into the pages any more: the maths is typeset at build time by
# book/_ext/prerender_math.js (MathJax in node) and widgets need no library
# (book/_site/rope-site/rope-widgets.js); axe-core is read by the browser tests from
# node_modules. book/_vendor/static stays as an (empty) static folder of the build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=book/_vendor/static/rope-vendor
rm -rf "$out" book/_vendor/extra
mkdir -p "$out"
for needed in node_modules/mathjax/es5/node-main.js node_modules/axe-core/axe.min.js; do
  [ -f "$needed" ] || { echo "missing $needed: run 'npm ci'" >&2; exit 1; }
done
