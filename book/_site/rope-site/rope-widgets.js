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
// What it does: fetch the first view's file alone (on a slow link the first slider does not
// share it with the others), then the others together; per view, as soon as its own model is
// in: inject the widget's CSS once (a <style> per _anywidget_id, as anywidget does), import
// its ESM once (a Blob URL, as anywidget does; or, the book's case, the URL of its file), call
// `initialize({model})` once per model and `render({model, el})` per view, into a
// <div class="rope-widget-view" data-widget="ClassName"> placed where the view script is.
// A view that fails (its file missing, offline, a module error) shows a short note in its
// place and logs a console error; the others go on. When all are settled, <html> gets
// data-rope-widgets="ready". The model offers anywidget's model interface: get, set, on,
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

export async function renderAll(root = document) {
  // The notes rope-site.js leaves where widgets would be on a page opened as a file.
  for (const note of root.querySelectorAll(".rope-widget-file-note")) note.remove();
  const parsed = (type) => [...root.querySelectorAll(`script[type="${type}"]`)].map((s) => JSON.parse(s.textContent));
  const inline = Object.assign({}, ...parsed(STATE_TYPE).map((s) => s.state || {}));
  const urls = Object.assign({}, ...parsed(URLS_TYPE));
  const viewScripts = [...root.querySelectorAll(`script[type="${VIEW_TYPE}"]`)];
  const ids = [...new Set(viewScripts.map((s) => JSON.parse(s.textContent).model_id))];
  // Model specs: inline ones at once; files: the first view's alone, the rest after it.
  const specs = new Map();
  let previous = null;
  for (const id of ids) {
    if (id in inline) specs.set(id, Promise.resolve(inline[id]));
    else if (!(id in urls)) specs.set(id, Promise.reject(new Error(`no state for widget model ${id}`)));
    else if (previous === null) specs.set(id, previous = fetchModel(urls[id]));
    else specs.set(id, previous.catch(() => {}).then(() => fetchModel(urls[id])));
  }
  const ready = new Map(); // model id -> Promise<{model, widget}>
  const load = (id) => {
    if (!ready.has(id)) {
      ready.set(id, (async () => {
        const spec = await specs.get(id);
        if (spec.model_module !== "anywidget") return { unsupported: spec.model_name };
        const model = new StaticModel(decodeBuffers(spec.state, spec.buffers));
        const cssId = model.get("_anywidget_id") || id;
        injectCss(model.get("_css"), cssId);
        const widget = await importWidget(model.get("_esm"), new URL(urls[id] || "", document.baseURI));
        if (widget.initialize) await widget.initialize({ model });
        return { model, widget };
      })());
    }
    return ready.get(id);
  };
  const views = viewScripts.map(async (script) => {
    const el = document.createElement("div");
    el.className = "rope-widget-view";
    script.before(el);
    const { model_id: id } = JSON.parse(script.textContent);
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
  });
  await Promise.all(views);
  document.documentElement.dataset.ropeWidgets = "ready";
}

renderAll();
