// purge_css.mjs OUTDIR STASHDIR: cut the third-party style sheets of the built book to the
// rules its pages can use (PurgeCSS, pinned in package.json).
//
// Why: every page blocks its first paint on its style sheets. The theme's is 305 KB (all of
// Bootstrap), sphinx-design's 55 KB and MyST-NB's 43 KB; the pages use a fraction. On a slow
// link (1.6 Mbit/s) those bytes alone held the first paint back by about 2 s.
//
// What counts as used: a selector is kept when every class, id, tag and attribute it names
// occurs as a word in a built page or in a script a page loads (PurgeCSS's default
// extractor: any run of letters, digits, "-" and "_"). Scripts count because the theme,
// Bootstrap and the book's own scripts add classes and attributes at run time ("show",
// "dark", "collapsing"); widget state files count for the same reason.
// Kept whatever the pages say: the rules for class names a script builds from pieces
// (Bootstrap's `bs-${NAME}-auto` placements), every @font-face, @keyframes and custom
// property (PurgeCSS's defaults).
// The book's own style sheets (`_static/rope-site/`, `_static/rope-widgets/`) are not touched.
// Each original goes to STASHDIR under the same relative path (outside the published site),
// so tests can load a page with the original style sheets and compare what it looks like.
import fs from "node:fs";
import path from "node:path";
import { PurgeCSS } from "purgecss";

const [outdir, stashdir] = process.argv.slice(2);
if (!outdir || !stashdir) {
  console.error("usage: node purge_css.mjs OUTDIR STASHDIR");
  process.exit(2);
}
const out = path.resolve(outdir);
const files = fs.readdirSync(out, { recursive: true }).map((f) => path.join(out, f));
const pages = files.filter((f) => f.endsWith(".html"));
const inSite = (from, href) => {
  if (/^([a-z]+:)?\/\//i.test(href) || href.startsWith("data:") || href.includes("{{")) return null;
  const target = path.resolve(path.dirname(from), href.split(/[?#]/)[0]);
  return target.startsWith(out + path.sep) && fs.existsSync(target) ? target : null;
};

const scripts = new Set();
const sheets = new Set();
for (const page of pages) {
  const html = fs.readFileSync(page, "utf8");
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) {
    const target = inSite(page, src);
    if (target) scripts.add(target);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(tag);
    const target = /\brel="stylesheet"/.test(tag) && href && inSite(page, href[1]);
    if (target) sheets.add(target);
  }
}
// A page left from an earlier build links the one joined sheet (site_assets.py,
// bundle_style_sheets): it counts for the sheets that sheet was joined from.
const bundled = path.join(stashdir, "bundle-sources.json");
if (fs.existsSync(bundled)) {
  for (const source of JSON.parse(fs.readFileSync(bundled, "utf8"))) {
    const target = path.join(out, source);
    if (fs.existsSync(target)) sheets.add(target);
  }
}
// Style sheets a linked sheet @imports (the theme's theme.css imports Sphinx's basic.css).
for (const sheet of [...sheets]) {
  for (const [, href] of fs.readFileSync(sheet, "utf8").matchAll(/@import\s+(?:url\()?["']([^"']+)["']/g)) {
    const target = inSite(sheet, href);
    if (target) sheets.add(target);
  }
}
const own = [path.join(out, "_static", "rope-site") + path.sep, path.join(out, "_static", "rope-widgets") + path.sep];
const purged = [...sheets].filter((s) => !own.some((dir) => s.startsWith(dir))).sort();
// The widgets' modules (they build their elements at run time) and the JSON next to the
// pages (widget state), not the vendored libraries'.
const vendored = path.join(out, "_static", "rope-vendor") + path.sep;
const widgetModules = files.filter((f) => f.startsWith(own[1]) && f.endsWith(".js"));
const content = [...pages, ...scripts, ...widgetModules,
  ...files.filter((f) => f.endsWith(".json") && !f.startsWith(vendored))];

// A sheet Sphinx did not copy again since the last purge: start from the stashed original.
const MARK = "\n/* cut to the rules the book uses by book/_ext/purge_css.mjs */\n";
for (const sheet of purged) {
  if (fs.readFileSync(sheet, "utf8").endsWith(MARK)) {
    fs.copyFileSync(path.join(stashdir, path.relative(out, sheet)), sheet);
  }
}
const results = await new PurgeCSS().purge({
  content,
  css: purged,
  safelist: { greedy: [/^bs-(tooltip|popover)-/] },
});
let before = 0;
let after = 0;
for (const { file, css } of results) {
  const original = fs.readFileSync(file, "utf8");
  const stash = path.join(stashdir, path.relative(out, file));
  fs.mkdirSync(path.dirname(stash), { recursive: true });
  fs.writeFileSync(stash, original);
  fs.writeFileSync(file, css + MARK);
  before += Buffer.byteLength(original);
  after += Buffer.byteLength(css);
}
console.log(`purge_css: ${results.length} style sheets, ${before} -> ${after} bytes `
  + `(${pages.length} pages, ${scripts.size} scripts)`);
