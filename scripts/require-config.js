// Point RequireJS at the book's own copy of anywidget, so that the widget
// html-manager never falls back to a CDN. Paths are resolved from this script's URL,
// which works for pages at any depth of the site.
(function () {
  var here = document.currentScript.src.replace(/[^/]*$/, "");
  require.config({ paths: { anywidget: here + "anywidget/index" } });
})();
