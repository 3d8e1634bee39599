// rope-site.js (every page, deferred, ~4 KB): keyboard access for the book's pages.
// 1. Pages with widgets get a second skip link, "Skip to the first interactive figure",
//    after the theme's "Skip to main content": a keyboard reader reaches the first slider
//    in a few presses instead of walking the chapter list, header and text.
// 2. Boxes that scroll sideways can be scrolled with the keyboard (below).
// Wide formulas and tables scroll inside their own box on a phone; a box that really
// overflows becomes a tab stop (a labelled region) so arrow keys can scroll it. Boxes
// that fit stay out of the tab order. Runs once the page is parsed and on resize.
(function () {
  const BOXES = 'mjx-container[display="true"], .rope-table, .pst-scrollable-table-container, '
    + "dl.field-list mjx-container";
  function mark() {
    for (const box of document.querySelectorAll(BOXES)) {
      const overflows = box.scrollWidth > box.clientWidth;
      if (overflows && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        const caption = box.querySelector("caption");
        box.setAttribute("aria-label", caption ? caption.textContent.trim()
          : box.matches("mjx-container") ? "formula (scrolls sideways)" : "table (scrolls sideways)");
        box.dataset.ropeScrollBox = "";
      } else if (!overflows && box.hasAttribute("data-rope-scroll-box")) {
        for (const a of ["tabindex", "role", "aria-label", "data-rope-scroll-box"]) box.removeAttribute(a);
      }
    }
    // Code boxes: the theme makes a box that overflows a tab stop only once the window has
    // loaded; until then a keyboard (or axe) found no way to scroll it. Marked here as soon as
    // the page is parsed, and again at load and when fonts are ready.
    for (const pre of document.querySelectorAll(".bd-article pre")) {
      if (pre.scrollWidth > pre.clientWidth && pre.tabIndex < 0) pre.tabIndex = 0;
    }
  }
  const view = document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]');
  const skip = document.querySelector("#pst-skip-link a");
  if (view && skip) {
    const target = view.closest(".cell") || view.parentElement;
    target.id = target.id || "rope-first-widget";
    target.setAttribute("tabindex", "-1");
    // The theme's skip bar shows while a link in it has focus: the second link lives there.
    const link = Object.assign(document.createElement("a"), {
      href: `#${target.id}`, className: "rope-skip-widget",
      textContent: "Skip to the first interactive figure",
    });
    skip.after(" · ", link);
  }
  // 3. One Tab stop for each run of look-alike controls (the WAI-ARIA roving tabindex):
  //    the chapter list, the page's header buttons (a toolbar) and the code cells' copy
  //    buttons. Tab enters a group at its current member (the page's own chapter, the last
  //    button used); the arrow keys move inside it (up/down in the lists, left/right in
  //    the toolbar), Home/End to its ends; every member stays a link or button for screen
  //    readers, and a hidden line tells the focused member how to move on. Chapter 2 had
  //    19 chapter links, 6 header buttons and 18 copy buttons before its first slider
  //    (66 Tabs).
  const KEYS = {
    vertical: { ArrowDown: 1, ArrowUp: -1 },
    horizontal: { ArrowRight: 1, ArrowLeft: -1 },
  };
  function roving(items, start, hint, orientation = "vertical") {
    if (items.length < 2) return;
    const note = Object.assign(document.createElement("span"), {
      id: `rope-hint-${hint.id}`, className: "visually-hidden", textContent: hint.text,
    });
    document.body.append(note);
    const shown = () => items.filter((i) => i.getClientRects().length > 0);
    let current = items.includes(start) ? start : shown()[0] || items[0];
    const take = (item) => {
      for (const other of items) other.setAttribute("tabindex", other === item ? "0" : "-1");
      current = item;
    };
    // A hidden member (a header button the phone layout drops) must not hold the stop.
    const keep = () => { if (!current.getClientRects().length && shown().length) take(shown()[0]); };
    window.addEventListener("resize", keep);
    for (const item of items) {
      item.dataset.ropeRoving = hint.id;
      item.setAttribute("aria-describedby",
        [item.getAttribute("aria-describedby"), note.id].filter(Boolean).join(" "));
      item.addEventListener("focus", () => take(item));
      item.addEventListener("keydown", (event) => {
        if (event.altKey || event.ctrlKey || event.metaKey) return;
        const visible = shown();
        const at = visible.indexOf(item);
        const step = KEYS[orientation][event.key];
        const next = step !== undefined ? at + step
          : { Home: 0, End: visible.length - 1 }[event.key];
        if (next === undefined || at < 0) return;
        event.preventDefault();
        const target = visible[Math.max(0, Math.min(visible.length - 1, next))];
        take(target);
        target.focus();
      });
    }
    take(current);
    keep();
  }
  const chapters = [...document.querySelectorAll(".bd-docs-nav a.reference")];
  roving(chapters, document.querySelector(".bd-docs-nav a.current") || chapters[0],
    { id: "chapters", text: "Up and down arrows: the other chapters." });
  const toolbar = document.querySelector(".bd-header-article .header-article__inner");
  if (toolbar) {
    const tools = [...toolbar.querySelectorAll("button, a.btn")].filter((b) => !b.closest(".dropdown-menu"));
    if (tools.length > 1) {
      toolbar.setAttribute("role", "toolbar");
      toolbar.setAttribute("aria-label", "Page tools");
      roving(tools, null, { id: "tools", text: "Left and right arrows: the other page tools." }, "horizontal");
    }
  }
  const copies = () => [...document.querySelectorAll(".bd-article button.copybtn")];
  const copyGroup = () => roving(copies(), null,
    { id: "copy", text: "Up and down arrows: the copy buttons of the other code cells." });
  // copybutton.js (deferred, before this file) adds its buttons when the page is parsed.
  if (copies().length) copyGroup();
  else document.addEventListener("DOMContentLoaded", copyGroup, { once: true });
  // 4. The theme's search field shows "Search Ctrl+K" but is named "Search": its name becomes
  //    what it shows (WCAG 2.5.3, label in name), so voice control finds it by its text.
  for (const field of document.querySelectorAll(".search-button-field[aria-label]")) {
    field.removeAttribute("aria-label");
  }
  // 5. A page opened from a file (file://): browsers do not run the widgets' modules from
  //    files. Each widget's place shows its print figure (the build hides one before each
  //    view) and one line on how to make it live. If the loader does run (a browser that
  //    allows it), it removes these notes.
  if (location.protocol === "file:") {
    const root = new URL(document.documentElement.dataset.content_root || "./", location.href).href;
    const path = location.href.startsWith(root) ? location.href.slice(root.length).split("#")[0] : "index.html";
    const code = () => Object.assign(document.createElement("code"), { textContent: "make serve" });
    for (const script of document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')) {
      const figure = script.previousElementSibling;
      const note = document.createElement("div");
      note.className = "rope-widget-file-note";
      const line = document.createElement("p");
      if (figure && figure.classList.contains("rope-widget-print")) {
        figure.hidden = false;
        note.append(figure);
        line.append("A picture of an interactive figure. To move it, run ", code(),
          ` in the book's repository and open http://127.0.0.1:8000/${path}`);
      } else {
        line.append("An interactive figure is here. Browsers do not run it from a page opened as a file: "
          + "in the book's repository run ", code(), ` and open http://127.0.0.1:8000/${path}`);
      }
      note.append(line);
      script.before(note);
    }
  }
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(mark, 150); });
  // An opened fold (a hidden cell's <details>, a solution's toggle) can show boxes that overflow.
  document.addEventListener("toggle", mark, true);
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest(".toggle-button, .admonition-title")) requestAnimationFrame(mark);
  });
  // The maths is typeset at build time (SVG): the boxes can be measured at once.
  mark();
  // Measure again once fonts and images have arrived (they change what overflows).
  window.addEventListener("load", mark, { once: true });
  if (document.fonts) document.fonts.ready.then(mark);
})();
