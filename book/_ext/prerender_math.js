// Typeset every formula of the built pages at build time, so no page loads MathJax.
//
// Usage: node book/_ext/prerender_math.js PAGE.html ...   (called by site_assets.py after
// each HTML build; pages already rendered are skipped, so rerunning it is a no-op).
//
// Why: MathJax in the browser cost every page with maths 1.2 MB of script plus web fonts
// and a second of typesetting, and formulas appeared as raw TeX until it finished. Here the
// same MathJax (npm `mathjax`, pinned in package.json) runs in node, offline, on the TeX
// that Sphinx wrote into `<span|div class="math ...">` elements, and writes SVG in their
// place: drawn at first paint, dark-mode aware (currentColor), no web fonts. Accessibility:
// every formula keeps a hidden MathML copy (MathJax's assistive-mml) that screen readers
// read; the SVG itself is aria-hidden.
//
// Only the maths is parsed by MathJax's DOM: each math element's inner HTML is cut out of
// the page text, rendered inside one small document (so all formulas of a page share one
// glyph cache) and spliced back; the rest of the page stays byte for byte as Sphinx wrote it.
// The page's MathJax <script> tags (config and loader) are removed.
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "..", "..");
const MATH = /<(span|div) class="math notranslate nohighlight"([^>]*)>([\s\S]*?)<\/\1>/g;
const MARK = '<meta name="rope-math" content="prerendered" />';
// Sphinx's MathJax config and loader (sphinx.ext.mathjax), on pages with maths only.
const SCRIPTS = [
  /<script>window\.MathJax = [^<]*<\/script>\s*/g,
  /<script defer="defer" src="[^"]*mathjax\/tex-mml-chtml\.js[^"]*"><\/script>\s*/g,
];

// Bytes the page does not need (an eighth of the SVG): the MathML node name MathJax writes
// on every <g> for its own menu and explorer, which the page does not load (kept for the
// three its style sheet selects on: table lines, errors, actions), and namespace
// declarations that the HTML parser supplies for <svg> and <math> by itself. (data-c stays:
// the style sheet thickens glyphs through it.)
const UNNEEDED = / data-mml-node="(?!mtable"|merror"|maction")[^"]*"| xmlns(?::xlink)?="http:\/\/www\.w3\.org\/(?:2000\/svg|1999\/xlink|1998\/Math\/MathML)"/g;

function slim(html) {
  return html.replace(UNNEEDED, "");
}

// Punctuation that must stay on the line of the inline formula it touches: the browser may
// break a line on either side of a formula (an inline block), and would start a line with
// ", why" or end one with "(". The formula and that punctuation go into one unbreakable span.
const OPENING = /[([“‘]+$/;
const CLOSING = /^[,.;:!?)\]”’]+/;

// The page with each formula replaced by its rendering (`parts` from extract, `rendered` in
// the same order).
function splice(html, parts, rendered) {
  let out = "";
  let at = 0;
  parts.forEach((p, i) => {
    let before = html.slice(at, p.start);
    let formula = `<${p.m[1]} class="math notranslate nohighlight"${p.m[2]}>${rendered[i]}</${p.m[1]}>`;
    at = p.end;
    const next = i + 1 < parts.length ? parts[i + 1].start : html.length;
    const opening = p.m[1] === "span" ? before.match(OPENING) : null;
    const closing = p.m[1] === "span" ? html.slice(at, next).match(CLOSING) : null;
    if (opening || closing) {
      if (opening) before = before.slice(0, -opening[0].length);
      formula = `<span style="white-space: nowrap">${opening ? opening[0] : ""}${formula}${closing ? closing[0] : ""}</span>`;
      if (closing) at += closing[0].length;
    }
    out += before + formula;
  });
  return out + html.slice(at);
}

function extract(html) {
  // Sphinx never nests a math element in another, and escapes "<" inside TeX, so the
  // lazy match ends at the element's own closing tag (a numbered equation's inner
  // <span class="eqno"> closes before it).
  const parts = [];
  for (const m of html.matchAll(MATH)) {
    if (/\\\(|\\\[/.test(m[3])) parts.push({start: m.index, end: m.index + m[0].length, m});
  }
  return parts;
}

async function main(files) {
  const MathJax = await require(path.join(ROOT, "node_modules/mathjax/es5/node-main.js")).init({
    loader: {
      paths: {mathjax: path.join(ROOT, "node_modules/mathjax/es5")},
      load: ["adaptors/liteDOM", "input/tex-full", "output/svg", "a11y/assistive-mml"],
    },
    // The delimiters Sphinx writes (sphinx.ext.mathjax's defaults for MathJax 3).
    tex: {inlineMath: [["\\(", "\\)"]], displayMath: [["\\[", "\\]"]], processEscapes: true},
    svg: {fontCache: "global"},
    startup: {typeset: false},
  });
  const adaptor = MathJax.startup.adaptor;
  let pages = 0, formulas = 0;
  for (const file of files) {
    let html = fs.readFileSync(file, "utf8");
    if (html.includes(MARK)) continue;
    const parts = extract(html);
    if (parts.length === 0) continue;
    const fragment = parts.map((p, i) => `<div class="math" data-rope-math="${i}">${p.m[3]}</div>`).join("");
    const doc = MathJax.startup.getDocument(`<!DOCTYPE html><html><head></head><body>${fragment}</body></html>`);
    doc.render();
    const count = Array.from(doc.math).length;
    const rendered = adaptor.tags(adaptor.body(doc.document), "div")
      .filter((node) => adaptor.getAttribute(node, "data-rope-math") !== null)
      .map((node) => slim(adaptor.innerHTML(node)));
    if (rendered.length !== parts.length) throw new Error(`${file}: ${rendered.length} of ${parts.length} math elements came back`);
    const errors = rendered.filter((s) => s.includes('data-mjx-error'));
    if (errors.length) throw new Error(`${file}: TeX error in ${errors[0].slice(0, 300)}`);
    const cache = adaptor.tags(adaptor.body(doc.document), "svg")
      .filter((node) => adaptor.getAttribute(node, "id") === "MJX-SVG-global-cache")
      .map((node) => slim(adaptor.outerHTML(node))).join("");
    const styles = adaptor.textContent(MathJax.svgStylesheet());
    let out = splice(html, parts, rendered);
    for (const re of SCRIPTS) out = out.replace(re, "");
    out = out.replace("</head>", `${MARK}\n<style id="MJX-SVG-styles">${styles}</style>\n</head>`);
    // The glyph cache first in <body>: every formula below <use>s its paths.
    out = out.replace(/(<body[^>]*>)/, `$1${cache}`);
    fs.writeFileSync(file, out);
    pages += 1;
    formulas += count;
  }
  console.log(`prerender_math: ${formulas} formulas typeset on ${pages} pages`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`prerender_math: ${error.stack || error}`);
  process.exit(1);
});
