#!/usr/bin/env bash
# Copy the pinned browser libraries from node_modules into the book's static folder.
# Run after `npm ci`. Nothing copied here is committed (book/_vendor is git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
out=book/_vendor/static/rope-vendor
rm -rf "$out"
mkdir -p "$out/html-manager" "$out/anywidget" "$out/mathjax"
cp node_modules/requirejs/require.js "$out/require.js"
cp scripts/require-config.js "$out/require-config.js"
# embed-amd.js is self-contained; the other bundles of the package are not used by the page.
cp node_modules/@jupyter-widgets/html-manager/dist/embed-amd.js "$out/html-manager/"
# The html-manager's bundle asks for its icon fonts at <page dir>/@jupyter-widgets/html-manager/dist/
# (its webpack public path); every page of the book lives in book/, so serve them there too.
fonts=book/_vendor/extra/book/@jupyter-widgets/html-manager/dist
rm -rf book/_vendor/extra && mkdir -p "$fonts"
find node_modules/@jupyter-widgets/html-manager/dist -maxdepth 1 -type f \
  \( -name '*.woff*' -o -name '*.ttf' -o -name '*.eot' -o -name '*.svg' \) -exec cp {} "$fonts/" \;
cp node_modules/anywidget/dist/index.js "$out/anywidget/index.js"
# MathJax: the TeX+MathML-to-HTML bundle and what it loads on demand (fonts, extensions,
# accessibility); the other bundles and the SVG output are not used.
cp node_modules/mathjax/es5/tex-mml-chtml.js "$out/mathjax/"
mkdir -p "$out/mathjax/output"
cp -r node_modules/mathjax/es5/output/chtml node_modules/mathjax/es5/output/chtml.js "$out/mathjax/output/"
for part in input a11y sre ui adaptors; do cp -r "node_modules/mathjax/es5/$part" "$out/mathjax/"; done
# The two copies of anywidget (Python kernel side and browser side) must agree.
py_version=$(.venv/bin/python -c "import anywidget; print(anywidget.__version__)")
js_version=$(node -p "require('./node_modules/anywidget/package.json').version")
if [ "${py_version%.*}" != "${js_version%.*}" ]; then
  echo "anywidget mismatch: Python $py_version, vendored JS $js_version (fix package.json)" >&2
  exit 1
fi
echo "vendored JS into $out ($(du -sh "$out" | cut -f1))"
