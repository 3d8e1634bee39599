// critical_css.mjs OUTDIR FIRST_BYTES PAGE...: the rules of the book's joined style sheet that
// each PAGE's first screen uses (Beasties, pinned in package.json); prints {page: css} as JSON.
//
// Why: first paint waited for the whole joined sheet (about 200 KB, three files): on a slow
// link (1.6 Mbit/s) that alone is a second. site_assets.py puts these rules in the page's
// <head> and loads the whole sheet without blocking the paint.
//
// The first screen: the page as built with its <article> cut after FIRST_BYTES of markup
// (everything around the article, the header, both sidebars and the footer, stays whole).
// Beasties keeps a rule when its selector matches an element of that document (with every
// custom property the rule sets). Kept as well: every @font-face; the rules for states that
// scripts set before the first paint (the theme's palettes and mode switch,
// `html[data-theme=dark]`); and, when a widget's view is on the first screen, every rule of
// the widgets' shared sheet (the loader builds the view's elements at run time, and they must
// not appear unstyled). Print rules are dropped: the whole sheet, linked for print at once,
// has them.
//
// The rules keep their order, so the whole sheet, once it arrives, gives every element the
// same style as before; url()s stay relative to the joined sheet (site_assets.py moves them).
import fs from "node:fs";
import path from "node:path";
import Beasties from "beasties";
import postcss from "postcss";

const [outdir, firstBytes, ...pages] = process.argv.slice(2);
if (!outdir || !/^\d+$/.test(firstBytes || "")) {
  console.error("usage: node critical_css.mjs OUTDIR FIRST_BYTES PAGE...");
  process.exit(2);
}
const out = path.resolve(outdir);
const sheets = [1, 2, 3].map((i) => path.join(out, "_static", "rope-site", `rope-book-${i}.css`));
const joined = sheets.map((f) => fs.readFileSync(f, "utf8")).join("\n");
const widgetSheet = path.join(out, "_static", "rope-widgets", "common.css");
const widgetSelectors = [];
if (fs.existsSync(widgetSheet)) {
  postcss.parse(fs.readFileSync(widgetSheet, "utf8")).walkRules((rule) => {
    if (rule.parent.type !== "atrule" || rule.parent.name !== "keyframes") widgetSelectors.push(...rule.selectors);
  });
}
const fontFaces = (joined.match(/@font-face\s*\{[^}]*\}/g) || []).join("\n");
const WIDGET_VIEW = 'type="application/vnd.jupyter.widget-view+json"';
// The theme's palettes and mode switch, for whichever setting the reader has: to match them
// all, `html[data-theme=dark]` reads `html[data-rope-theme-dark]` while Beasties chooses, and
// the first screen's <html> carries every such attribute.
const STATE = /html\[data-(theme|mode)=["']?(\w+)["']?\]/g;
const STATES = [...new Set([...joined.matchAll(STATE)].map(([, name, value]) => `data-rope-${name}-${value}`))];
const forMatching = joined.replace(STATE, "html[data-rope-$1-$2]");

const firstScreen = (html) => {
  const start = html.indexOf("<article");
  const end = html.lastIndexOf("</article>");
  if (start < 0 || end < 0) return html;
  let cut = Math.min(start + Number(firstBytes), end);
  const tagStart = html.lastIndexOf("<", cut);
  if (tagStart > html.lastIndexOf(">", cut)) cut = tagStart;  // not inside a tag
  return html.slice(0, cut) + html.slice(end);
};

const found = {};
for (const page of pages) {
  const screen = firstScreen(fs.readFileSync(page, "utf8"));
  // The document Beasties reads: the first screen with the joined sheet as its only style.
  const documentText = screen
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/g, "")
    .replace(/<noscript\b[^>]*>[\s\S]*?<\/noscript>/g, "")
    .replace(/<link\b[^>]*\brel="(?:stylesheet|preload)"[^>]*>/g, "")
    .replace(/<html\b/, `<html ${STATES.join(" ")}`)
    .replace("</head>", `<style data-rope-joined>${forMatching}</style></head>`);
  const beasties = new Beasties({
    path: out, logLevel: "silent", reduceInlineStyles: true, compress: true,
    fonts: true, keyframes: "critical", mergeStylesheets: false,
    // Beasties matches selectors inside <body>, and drops a selector that begins with a
    // pseudo-class (`:not(li) > ul > li:first-child > :first-child`, `:is(html, body)[...]`):
    // rules for <html> alone and those few are named here.
    allowRules: [/^html\[data-rope-(theme|mode)-\w+\]$/, /^:/, ...(screen.includes(WIDGET_VIEW) ? widgetSelectors : [])],
  });
  const done = await beasties.process(documentText);
  const style = /<style data-rope-joined[^>]*>([\s\S]*?)<\/style>/.exec(done);
  if (!style) throw new Error(`critical_css: Beasties kept no style sheet for ${page}`);
  const root = postcss.parse(style[1]);
  root.walkAtRules("media", (rule) => {
    if (/^\s*print\s*$/.test(rule.params)) rule.remove();
  });
  // Every @font-face, in order (a face named later wins): the icons of the first screen's
  // boxes and buttons come from a font a custom property names, which Beasties cannot follow.
  found[page] = fontFaces + root.toString().replace(/html\[data-rope-(theme|mode)-(\w+)\]/g, 'html[data-$1="$2"]');
}
process.stdout.write(JSON.stringify(found));
