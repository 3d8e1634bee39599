#!/usr/bin/env bash
# Copy the pinned browser libraries (MathJax) from node_modules into the book's static folder.
# Run after `npm ci`. (axe-core, also pinned, is read by the browser tests from node_modules.) Nothing copied here is committed (book/_vendor is git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
out=book/_vendor/static/rope-vendor
rm -rf "$out" book/_vendor/extra
mkdir -p "$out/mathjax"
# Widgets need no library on the page: book/_site/rope-site/rope-widgets.js renders them.
# MathJax: the TeX+MathML-to-HTML bundle and what it loads on demand (fonts, extensions,
# accessibility); the other bundles and the SVG output are not used.
cp node_modules/mathjax/es5/tex-mml-chtml.js "$out/mathjax/"
mkdir -p "$out/mathjax/output"
cp -r node_modules/mathjax/es5/output/chtml node_modules/mathjax/es5/output/chtml.js "$out/mathjax/output/"
for part in input a11y sre ui adaptors; do cp -r "node_modules/mathjax/es5/$part" "$out/mathjax/"; done
echo "vendored JS into $out ($(du -sh "$out" | cut -f1))"
