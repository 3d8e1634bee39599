// rope-widgets.js: the book's tiny loader for anywidget widgets on static pages.
//
// Why: every widget of the book is an anywidget, which draws itself from its own ES
// module. A static page only needs to restore each widget's embedded state and call the
// module's render({model, el}); the 3.6 MB ipywidgets html-manager and RequireJS did
// that and much else, and blocked first paint. In JupyterLab the real widget manager
// (and anywidget's own front end) still runs the same modules.
//
// What it reads (MyST-NB writes the views and the state; the book's build moves the state
// of each model a view shows into a file of its own, book/_ext/widget_state.py):
//   <script type="application/vnd.jupyter.widget-view+json">{"model_id": id}</script>
//   <script type="application/vnd.rope.widget-state-urls+json">{id: url of a JSON file
//       holding {model_module, model_name, state: {_esm, _css, _anywidget_id, ...traits},
//       buffers?}}</script>, `_esm` being the URL of the widget's module relative to the file
//   or, on a page built otherwise, the state inline:
//   <script type="application/vnd.jupyter.widget-state+json">{"state": {id: {...}}}</script>
// What it does: draw the first view at once, fetching its file alone (on a slow link the first
// slider does not share it with the others); draw each other view only when it comes within
// a screen of the window (an IntersectionObserver): a reader who reads the top of a page with
// many widgets (the gallery) fetches neither the state nor the code of those further down.
// Every view is drawn at once when the browser has no IntersectionObserver, when the page
// asks for it (window.ROPE_WIDGETS_LOAD_ALL = true, set before this script runs: the tests
// that drive every widget of a page), when the reader first presses Tab (a keyboard reader
// must meet every widget's controls in order) or is about to print (a view not drawn yet
// prints its print figure instead, rope-site.css). Per view, as soon as its own model is
// in: inject the widget's CSS once (a <style> per _anywidget_id, as anywidget does), import
// its ESM once (a Blob URL, as anywidget does; or, the book's case, the URL of its file), call
// `initialize({model})` once per model and `render({model, el})` per view, into a
// <div class="rope-widget-view" data-widget="ClassName"> placed where the view script is.
// A view that fails (its file missing, offline, a module error) shows a short note in its
// place and logs a console error; the others go on. While views are being drawn <html> has
// data-rope-widgets="loading"; once every view started so far has settled, "ready". The model offers anywidget's model interface: get, set, on,
// off, save_changes (no kernel: nothing to save), send (no kernel: dropped).
// Models that are not anywidgets (standard ipywidgets controls) are not supported: their
// place shows a short note instead.

const STATE_TYPE = "application/vnd.jupyter.widget-state+json";
const VIEW_TYPE = "application/vnd.jupyter.widget-view+json";
const URLS_TYPE = "application/vnd.rope.widget-state-urls+json";

class StaticModel {
  constructor(state) {
    this._state = { ...state };
    this._listeners = [];
  }
  get(name) {
    return this._state[name];
  }
  set(name, value) {
    const changed = this._state[name] !== value;
    this._state[name] = value;
    if (changed) this._emit(`change:${name}`, value);
  }
  // Backbone-style: on(event, callback, context); `event` may list several, space-separated.
  on(events, callback, context = null) {
    for (const event of events.split(/\s+/)) this._listeners.push({ event, callback, context });
  }
  // off() with no argument (or null) matches everything, as in Backbone.
  off(event = null, callback = null, context = null) {
    this._listeners = this._listeners.filter((l) =>
      !((event === null || l.event === event) && (callback === null || l.callback === callback)
        && (context === null || l.context === context)));
  }
  save_changes() {}
  send() {}
  _emit(event, value) {
    for (const l of this._listeners.slice()) {
      if (l.event === event || l.event === "change") l.callback.call(l.context, this, value);
    }
  }
}

function decodeBuffers(state, buffers = []) {
  // Binary traits are embedded base64 at a path inside the state (ipywidgets' format).
  for (const { path, data, encoding } of buffers) {
    const bytes = encoding === "hex"
      ? Uint8Array.from(data.match(/../g) || [], (h) => parseInt(h, 16))
      : Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    let target = state;
    for (const key of path.slice(0, -1)) target = target[key];
    target[path[path.length - 1]] = new DataView(bytes.buffer);
  }
  return state;
}

function injectCss(css, id) {
  if (!css || document.querySelector(`style[data-anywidget-id="${id}"]`)) return;
  if (/^https?:\/\//.test(css)) {
    document.head.appendChild(Object.assign(document.createElement("link"), { rel: "stylesheet", href: css }));
    return;
  }
  const style = document.createElement("style");
  style.dataset.anywidgetId = id;
  style.textContent = css;
  document.head.appendChild(style);
}

// `_esm` is the module's text, or (no white space) its URL: the book's build writes each
// widget's module once, as a file beside the shared ones it imports, and names it relative to
// the state file (`base`).
async function importWidget(esm, base) {
  let mod;
  if (!/\s/.test(esm)) {
    mod = await import(new URL(esm, base).href);
  } else {
    const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
    try { mod = await import(url); } finally { URL.revokeObjectURL(url); }
  }
  if (mod.render && !mod.default) return { render: mod.render };
  return typeof mod.default === "function" ? await mod.default() : mod.default;
}

async function fetchModel(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

// The note a failed view shows (styled here: the loader also serves pages without the book's CSS).
function showFailure(el, id, error) {
  console.error(`[rope-widgets] widget ${id} failed:`, error);
  const note = document.createElement("p");
  note.className = "rope-widget-error";
  note.textContent = location.protocol === "file:"
    ? "This interactive figure cannot load from a page opened as a file: in the book's repository run "
      + "`make serve` and open this page on http://127.0.0.1:8000."
    : "This interactive figure could not be loaded. Reload the page to try again.";
  note.style.cssText = "margin: 0.5rem 0; padding: 0.5rem 0.75rem; border: 1px dashed currentColor; font-size: 0.9rem;";
  el.append(note);
}

// How far below (and above) the window a view starts loading: a screen, so that on a normal
// scroll it is drawn before it shows and the text around it does not move in view.
const NEAR = "100% 0px";
// The build's preload, in <head>, of the first view's state file names its model: the loader
// (an async module, which may run while the page still arrives) can fetch that file before
// the manifest at the end of <body> is there.
const FIRST_MODEL = "link[data-rope-model]";

// A script element's JSON, or null while the parser has not yet given it all its text (no
// prefix of these objects is valid JSON).
function parseComplete(script) {
  try {
    return JSON.parse(script.textContent);
  } catch {
    return null;
  }
}

// Draws the views of `root`. On a document still being parsed it draws each view as the
// parser adds it (a MutationObserver), so the first slider works before the rest of a long
// page has arrived; the page's last views are found at DOMContentLoaded at the latest.
export async function renderAll(root = document) {
  const removeFileNotes = () => {
    // The notes rope-site.js leaves where widgets would be on a page opened as a file.
    for (const note of root.querySelectorAll(".rope-widget-file-note")) note.remove();
  };
  removeFileNotes();
  const streaming = root === document && document.readyState === "loading";
  const inline = {};
  const urls = {};
  for (const link of root.querySelectorAll(FIRST_MODEL)) urls[link.dataset.ropeModel] = link.href;
  const read = new WeakSet(); // state and manifest scripts already read
  const waiting = new Map(); // model id -> resolve, for a model whose state is not in yet
  let parsed = !streaming;
  // A model's spec, fetched once, when its first view is drawn.
  const specs = new Map();
  const known = (id) => id in inline || id in urls;
  const specFor = (id) => {
    if (id in inline) return Promise.resolve(inline[id]);
    if (id in urls) return fetchModel(urls[id]);
    return Promise.reject(new Error(`no state for widget model ${id}`));
  };
  const spec = (id) => {
    if (!specs.has(id)) {
      const arrived = known(id) || parsed ? Promise.resolve() : new Promise((resolve) => waiting.set(id, resolve));
      specs.set(id, arrived.then(() => specFor(id)));
    }
    return specs.get(id);
  };
  const ready = new Map(); // model id -> Promise<{model, widget}>
  const load = (id) => {
    if (!ready.has(id)) {
      ready.set(id, (async () => {
        const found = await spec(id);
        if (found.model_module !== "anywidget") return { unsupported: found.model_name };
        const model = new StaticModel(decodeBuffers(found.state, found.buffers));
        const cssId = model.get("_anywidget_id") || id;
        injectCss(model.get("_css"), cssId);
        const widget = await importWidget(model.get("_esm"), new URL(urls[id] || "", document.baseURI));
        if (widget.initialize) await widget.initialize({ model });
        return { model, widget };
      })());
    }
    return ready.get(id);
  };
  const draw = async (id, el) => {
    try {
      const { model, widget, unsupported } = await load(id);
      if (unsupported) {
        el.textContent = `(${unsupported}: this control needs a running notebook)`;
        return;
      }
      // The widget's class name (anywidget's id is the Python path): tests and styles can tell views apart.
      el.dataset.widget = String(model.get("_anywidget_id") || "").split(".").pop();
      await widget.render({ model, el });
    } catch (error) {
      // One failing widget must not stop the others, nor leave a blank box.
      showFailure(el, id, error);
    }
  };
  const html = document.documentElement;
  let unsettled = 0;
  let started = 0;
  // "ready" only once the page is parsed: a view further down may still be on its way.
  const settle = () => {
    if (unsettled === 0 && started > 0 && parsed) html.dataset.ropeWidgets = "ready";
  };
  const start = (place) => {
    if (place.started) return place.started;
    unsettled += 1;
    started += 1;
    html.dataset.ropeWidgets = "loading";
    place.started = draw(place.id, place.el).finally(() => {
      unsettled -= 1;
      settle();
    });
    return place.started;
  };
  // Every view after the first waits for it: on a slow link the first slider gets the
  // bandwidth to itself.
  let firstDrawn = null;
  let eager = window.ROPE_WIDGETS_LOAD_ALL === true || !("IntersectionObserver" in window);
  const later = [];
  const startAfterFirst = (place) => firstDrawn.finally(() => start(place));
  const observer = eager ? null : new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      startAfterFirst(later.find((place) => place.el === entry.target));
    }
  }, { rootMargin: NEAR });
  const placed = new WeakSet(); // view scripts that have their place
  const scan = () => {
    for (const script of root.querySelectorAll(`script[type="${STATE_TYPE}"], script[type="${URLS_TYPE}"]`)) {
      const found = read.has(script) ? null : parseComplete(script);
      if (!found) continue;
      read.add(script);
      Object.assign(script.type === STATE_TYPE ? inline : urls, script.type === STATE_TYPE ? found.state || {} : found);
    }
    for (const [id, resolve] of waiting) {
      if (known(id) || parsed) {
        waiting.delete(id);
        resolve();
      }
    }
    for (const script of root.querySelectorAll(`script[type="${VIEW_TYPE}"]`)) {
      const view = placed.has(script) ? null : parseComplete(script);
      if (!view) continue;
      placed.add(script);
      const el = document.createElement("div");
      el.className = "rope-widget-view";
      script.before(el);
      const place = { id: view.model_id, el, started: null };
      if (!firstDrawn) {
        firstDrawn = start(place);
      } else {
        later.push(place);
        if (eager) startAfterFirst(place);
        else observer.observe(el);
      }
    }
  };
  const startAll = () => {
    if (eager) return;
    eager = true;
    observer.disconnect();
    for (const place of later) startAfterFirst(place);
  };
  addEventListener("keydown", (event) => { if (event.key === "Tab") startAll(); });
  addEventListener("beforeprint", startAll);
  scan();
  if (streaming) {
    const watcher = new MutationObserver(scan);
    watcher.observe(document, { childList: true, subtree: true, characterData: true });
    await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
    watcher.disconnect();
    parsed = true;
    removeFileNotes();
    scan();
    settle();
  }
  if (firstDrawn) await firstDrawn;
  if (eager) await Promise.all(later.map((place) => place.started || startAfterFirst(place)));
}

renderAll();
