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
cp node_modules/@jupyter-widgets/html-manager/dist/*.js "$out/html-manager/"
# The html-manager's icon fonts and their hashed names live next to its bundle.
find node_modules/@jupyter-widgets/html-manager/dist -maxdepth 1 -type f \
  \( -name '*.woff*' -o -name '*.ttf' -o -name '*.eot' -o -name '*.svg' \) \
  -exec cp {} "$out/html-manager/" \;
# The html-manager's bundle asks for those fonts at <page dir>/@jupyter-widgets/html-manager/dist/
# (its webpack public path); every page of the book lives in book/, so serve them there too.
fonts=book/_vendor/extra/book/@jupyter-widgets/html-manager/dist
rm -rf book/_vendor/extra && mkdir -p "$fonts"
cp "$out"/html-manager/*.woff* "$out"/html-manager/*.ttf "$out"/html-manager/*.eot "$out"/html-manager/*.svg "$fonts/"
cp node_modules/anywidget/dist/index.js "$out/anywidget/index.js"
cp -r node_modules/mathjax/es5/. "$out/mathjax/"
# The two copies of anywidget (Python kernel side and browser side) must agree.
py_version=$(.venv/bin/python -c "import anywidget; print(anywidget.__version__)")
js_version=$(node -p "require('./node_modules/anywidget/package.json').version")
if [ "${py_version%.*}" != "${js_version%.*}" ]; then
  echo "anywidget mismatch: Python $py_version, vendored JS $js_version (fix package.json)" >&2
  exit 1
fi
echo "vendored JS into $out ($(du -sh "$out" | cut -f1))"
