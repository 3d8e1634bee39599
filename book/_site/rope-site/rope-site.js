// rope-site.js (every page, deferred, ~2 KB): keyboard access for the book's pages.
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
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(mark, 150); });
  // The maths is typeset at build time (SVG): the boxes can be measured at once.
  mark();
})();
