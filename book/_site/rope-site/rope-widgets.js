// rope-widgets.js: the book's tiny loader for anywidget widgets on static pages.
//
// Why: every widget of the book is an anywidget, which draws itself from its own ES
// module. A static page only needs to restore each widget's embedded state and call the
// module's render({model, el}); the 3.6 MB ipywidgets html-manager and RequireJS did
// that and much else, and blocked first paint. In JupyterLab the real widget manager
// (and anywidget's own front end) still runs the same modules.
//
// What it reads (written by MyST-NB into the page):
//   <script type="application/vnd.jupyter.widget-state+json">{"state": {id: {model_module,
//       model_name, state: {_esm, _css, _anywidget_id, ...traits}, buffers?}}}</script>
//   <script type="application/vnd.jupyter.widget-view+json">{"model_id": id}</script>
// What it does, per view script: inject the widget's CSS once (a <style> per
// _anywidget_id, as anywidget does), import its ESM once (a Blob URL, as anywidget
// does; `_esm` may also be an http(s) URL), call `initialize({model})` once per model and
// `render({model, el})` per view, into a <div class="rope-widget-view"> placed where the
// view script is. The model offers anywidget's model interface: get, set, on, off,
// save_changes (no kernel: nothing to save), send (no kernel: dropped).
// Models that are not anywidgets (standard ipywidgets controls) are not supported: their
// place shows a short note instead.

const STATE_TYPE = "application/vnd.jupyter.widget-state+json";
const VIEW_TYPE = "application/vnd.jupyter.widget-view+json";

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

async function importWidget(esm) {
  let mod;
  if (/^https?:\/\//.test(esm)) {
    mod = await import(esm);
  } else {
    const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
    try { mod = await import(url); } finally { URL.revokeObjectURL(url); }
  }
  if (mod.render && !mod.default) return { render: mod.render };
  return typeof mod.default === "function" ? await mod.default() : mod.default;
}

export async function renderAll(root = document) {
  const models = {};
  for (const script of root.querySelectorAll(`script[type="${STATE_TYPE}"]`)) {
    Object.assign(models, JSON.parse(script.textContent).state || {});
  }
  const ready = new Map(); // model id -> Promise<{model, widget}>
  const load = (id) => {
    if (!ready.has(id)) {
      ready.set(id, (async () => {
        const spec = models[id];
        if (!spec) throw new Error(`no embedded state for widget model ${id}`);
        if (spec.model_module !== "anywidget") return { unsupported: spec.model_name };
        const model = new StaticModel(decodeBuffers(spec.state, spec.buffers));
        const cssId = model.get("_anywidget_id") || id;
        injectCss(model.get("_css"), cssId);
        const widget = await importWidget(model.get("_esm"));
        if (widget.initialize) await widget.initialize({ model });
        return { model, widget };
      })());
    }
    return ready.get(id);
  };
  const views = [...root.querySelectorAll(`script[type="${VIEW_TYPE}"]`)].map(async (script) => {
    const el = document.createElement("div");
    el.className = "rope-widget-view";
    script.before(el);
    const { model_id: id } = JSON.parse(script.textContent);
    const { model, widget, unsupported } = await load(id);
    if (unsupported) {
      el.textContent = `(${unsupported}: this control needs a running notebook)`;
      return;
    }
    // The widget's class name (anywidget's id is the Python path): tests and styles can tell views apart.
    el.dataset.widget = String(model.get("_anywidget_id") || "").split(".").pop();
    await widget.render({ model, el });
  });
  // One failing widget must not stop the others; report each failure.
  for (const result of await Promise.allSettled(views)) {
    if (result.status === "rejected") console.error("[rope-widgets]", result.reason);
  }
  document.documentElement.dataset.ropeWidgets = "ready";
}

renderAll();
