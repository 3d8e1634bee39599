"""Widget state in files of its own: written at build time, read by everything that checks it.

MyST-NB embeds the state of every widget model of a page in one ``<script
type="application/vnd.jupyter.widget-state+json">``: 474 KB of the gallery's 562 KB, and the
page's loader (``rope-widgets.js``) could draw no widget until all of it had arrived. At build
time (:func:`publish`, called by ``site_assets``) each model that a widget view on the page
shows goes to a file of its own, as MyST-NB embedded it (``model_module``, ``model_name``,
``model_module_version``, ``state``, ``buffers``)::

    _build/html/_static/rope-widgets/<pagename>/<model_id>.json

and the page keeps a small manifest, ``{model_id: url relative to the page}`` in page order::

    <script type="application/vnd.rope.widget-state-urls+json">{"730b...": "../_static/...json"}</script>

The loader fetches the first view's file alone, then the others, and draws each widget as its
own file arrives. Models no view shows (ipywidgets' ``LayoutModel`` of each anywidget: the
loader never reads them) are not published.

The widgets' code is not in those files: the build writes the front end once,
``_static/rope-widgets/{common.css,common.js,drag.js,<widget>.js}`` (:func:`write_front_end`,
from ``rope_core.widgets._base.static_files``), and each model's ``_esm`` becomes the URL of
its widget's file relative to the state file, ``"../rotation_explorer.js?v=<hash>"``. The
browser caches every module across pages and evaluates ``common.js`` once per page; the
pages with widgets link ``common.css`` in ``<head>``. A model whose ``_esm`` is not a module
of the installed ``rope_core`` (a stale execution) keeps its text, which the loader imports
as before.

Why one folder per page under ``_static``: the pages' folders keep only pages, and rewriting
a page replaces its folder whole, so an incremental build that re-executes a page (new model
ids) leaves no stale files behind; a page that loses its widgets loses its folder.

The readers (tests, ``benchmarks/bench_widgets.py``, ``scripts/mutate_widgets.py``) go through
:func:`page_models` / :func:`model_files`, which also read a page that still embeds its state.
Import from outside the book: ``sys.path.insert(0, "<repo>/book/_ext"); import widget_state``.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import unquote

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
VIEW_TYPE = "application/vnd.jupyter.widget-view+json"
URLS_TYPE = "application/vnd.rope.widget-state-urls+json"
FOLDER = "_static/rope-widgets"
STYLESHEET = "rope-widgets/common.css"  # under _static

_SCRIPT = r'<script type="{}">(.*?)</script>'


def _scripts(html: str, mime: str) -> list[str]:
    return re.findall(_SCRIPT.format(re.escape(mime)), html, flags=re.S)


def view_ids(html: str) -> list[str]:
    """Model ids of the widget views in ``html``, in page order, each once."""
    return list(dict.fromkeys(json.loads(view)["model_id"] for view in _scripts(html, VIEW_TYPE)))


def has_widgets(html: str) -> bool:
    """Whether a built page carries widget state (files named in a manifest, or inline)."""
    return bool(_scripts(html, URLS_TYPE) or _scripts(html, STATE_TYPE))


def write_front_end(outdir: Path) -> dict[str, str]:
    """Write the widget modules and the shared stylesheet into the site; return
    ``{a widget's _esm: its file's versioned name}`` for :func:`publish`."""
    from rope_core.widgets._base import static_files, version

    files, names = static_files()
    folder = Path(outdir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return {esm: f"{name}?v={version(files[name])}" for esm, name in names.items()}


def clear(outdir: Path, pagename: str) -> None:
    """Drop the page's state folder (before the page is written again)."""
    shutil.rmtree(Path(outdir) / FOLDER / pagename, ignore_errors=True)


def publish(state_json: str, body: str, outdir: Path, pagename: str, pathto, modules=None) -> str:
    """Write the models the views in ``body`` show; return the manifest ``<script>`` for the page.

    ``state_json``: MyST-NB's embedded state (``{"state": {id: model}, ...}``); ``pathto``:
    Sphinx's page-context ``pathto(target, 1)``, which makes a URL relative to this page;
    ``modules``: :func:`write_front_end`'s map, whose files replace the ``_esm`` texts.
    """
    models = json.loads(state_json)["state"]
    folder = Path(outdir) / FOLDER / pagename
    folder.mkdir(parents=True, exist_ok=True)
    urls = {}
    for model_id in view_ids(body):
        if model_id not in models:
            continue  # the loader says so in the widget's place
        if not re.fullmatch(r"[\w-]+", model_id):
            raise ValueError(f"widget_state: model id {model_id!r} cannot name a file")
        model = models[model_id]
        esm = model.get("state", {}).get("_esm")
        if modules and esm in modules:
            up = posixpath.relpath(FOLDER, posixpath.dirname(f"{FOLDER}/{pagename}/x"))
            model = {**model, "state": {**model["state"], "_esm": f"{up}/{modules[esm]}"}}
        (folder / f"{model_id}.json").write_text(
            json.dumps(model, separators=(",", ":")), encoding="utf-8")
        urls[model_id] = pathto(f"{FOLDER}/{pagename}/{model_id}.json", 1)
    return f'<script type="{URLS_TYPE}">{json.dumps(urls)}</script>'


def model_files(page: Path) -> dict[str, Path]:
    """``{model_id: file}`` of the state files a built page names, in page order."""
    return _model_files(Path(page), Path(page).read_text(encoding="utf-8"))


def page_models(page: Path) -> dict[str, dict]:
    """``{model_id: model}`` of a built page: its state files (page order), or its inline state."""
    return _page_models(Path(page), Path(page).read_text(encoding="utf-8"))


def state_bytes(page: Path) -> dict[str, int]:
    """``{model_id: bytes}`` the page must fetch to draw each of its views' models, page order
    (the file's size; for inline state, the model's compact JSON)."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    models, files = _page_models(page, html), _model_files(page, html)
    return {model_id: files[model_id].stat().st_size if model_id in files
            else len(json.dumps(models[model_id], separators=(",", ":")).encode())
            for model_id in view_ids(html) if model_id in models}


def code_files(page: Path) -> list[Path]:
    """The widget code files a built page loads, each once: its widgets' modules, the
    modules they import, and the shared stylesheet (none for a page with inline state)."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    found = []
    for path in _model_files(page, html).values():
        esm = json.loads(path.read_text(encoding="utf-8")).get("state", {}).get("_esm", "")
        if not esm or re.search(r"\s", esm):
            continue
        module = (path.parent / esm.split("?")[0]).resolve()
        for name in [module.name, *(name for name, _ in _IMPORT_LINE.findall(module.read_text()))]:
            if module.parent / name not in found:
                found.append(module.parent / name)
        if module.parent / "common.css" not in found:
            found.append(module.parent / "common.css")
    return found


# The readers above, on a page's HTML already read (each page is read once).
def _model_files(page: Path, html: str) -> dict[str, Path]:
    files = {}
    for manifest in _scripts(html, URLS_TYPE):
        for model_id, url in json.loads(manifest).items():
            files[model_id] = (page.parent / unquote(url.split("?")[0])).resolve()
    return files


def _page_models(page: Path, html: str) -> dict[str, dict]:
    models = {}
    for inline in _scripts(html, STATE_TYPE):
        models.update(json.loads(inline).get("state", {}))
    for model_id, path in _model_files(page, html).items():
        models[model_id] = json.loads(path.read_text(encoding="utf-8"))
    return models


# ---- A page opened as a file: each widget's print figure in its place ----------------------
# Browsers run no ES module from a file:// page, so no widget draws there. The build puts a
# hidden copy of the widget's print figure (the one the gallery shows under it) just before
# each view; rope-site.js shows it, with one line on how to make it live, only on a file://
# page. Over http the figure stays hidden and its image is never fetched (lazy, hidden).
PRINT_CLASS = "rope-widget-print"
_FIGURE = re.compile(r'<figure[^>]*\bid="(fig-[\w-]+)"[^>]*>(.*?)</figure>', re.S)
_IMG = re.compile(r"<img\b[^>]*>")


def _attribute(tag: str, name: str) -> str:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return found.group(1) if found else ""


def _png_size(path: Path) -> tuple[int, int] | None:
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def print_figures(outdir: Path, classes) -> dict[str, dict]:
    """``{class name: {"path", "alt", "width", "height"}}``: the image of each widget's print
    figure in the built site: where its entry of ``rope_core.widgets.registry`` places it (the
    gallery's ``fig-gallery-<kebab-name>``, or a chapter's figure of the same thing)."""
    from rope_core.widgets.registry import entry

    outdir = Path(outdir)
    pages = {}

    def figures_of(pagename):
        if pagename not in pages:
            page = outdir / "book" / f"{pagename}.html"
            html = page.read_text(encoding="utf-8") if page.exists() else ""
            pages[pagename] = {fid: (page, body) for fid, body in _FIGURE.findall(html)}
        return pages[pagename]

    found = {}
    for name in classes:
        pagename, figure_id = entry(name).print_figure_place
        hit = figures_of(pagename).get(figure_id)
        img = _IMG.search(hit[1]) if hit else None
        if not img:
            continue
        path = (hit[0].parent / unquote(_attribute(img.group(0), "src"))).resolve()
        size = _png_size(path) if path.exists() else None
        if size:
            found[name] = {"path": path, "alt": _attribute(img.group(0), "alt"), "width": size[0], "height": size[1]}
    return found


def add_print_figures(page: Path, figures: dict[str, dict]) -> int:
    """Put the hidden print figure of each widget view's class before the view in ``page``;
    return how many views got one. A page that has them already is left as it is."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    if PRINT_CLASS in html or VIEW_TYPE not in html:
        return 0
    models = _page_models(page, html)
    added = 0

    def insert(match):
        nonlocal added
        model = models.get(json.loads(match.group(1)).get("model_id"), {})
        name = str(model.get("state", {}).get("_anywidget_id", "")).split(".")[-1]
        figure = figures.get(name)
        if not figure:
            return match.group(0)
        added += 1
        src = posixpath.relpath(figure["path"].as_posix(), page.parent.as_posix())
        return (f'<figure class="{PRINT_CLASS}" data-widget="{name}" hidden><img src="{src}" alt="{figure["alt"]}" '
                f'width="{figure["width"]}" height="{figure["height"]}" loading="lazy" decoding="async"></figure>'
                + match.group(0))

    html = re.sub(_SCRIPT.format(re.escape(VIEW_TYPE)), insert, html, flags=re.S)
    page.write_text(html, encoding="utf-8")
    return added


# ---- The first widget's files, asked for while the page still arrives -----------------------
# The loader is a module script: it runs once the whole page is in, then fetches the first
# view's state, then its module, then the modules that one imports: three round trips in a
# row after the page, before the first slider works. Links just after the first view make
# the browser fetch all of them while the rest of the page arrives. Only the first view's:
# the others would take the link's bandwidth from it.
PRELOAD_ATTRIBUTE = "data-rope-first-widget"


# A module's import of another of the book's modules, with its version query if it has one.
_IMPORT_LINE = re.compile(r'^import\s[^"\n;]*?from\s+"\./([a-z_]+\.js)(\?[^"]*)?"', re.M)


def _imports(module: Path, query: str, found: dict[Path, str]) -> dict[Path, str]:
    """``{file: version query}`` of ``module`` and of the book's modules it imports, directly
    or not (each by the URL its importer names, which is the one the browser fetches)."""
    if module in found or not module.is_file():
        return found
    found[module] = query
    for name, version in _IMPORT_LINE.findall(module.read_text(encoding="utf-8")):
        _imports(module.parent / name, version, found)
    return found


def add_first_widget_preloads(page: Path) -> int:
    """Put, at the end of ``page`` 's ``<head>``, a preload of its first widget view's state
    file (``data-rope-model``: the view's model id) and a ``modulepreload`` of its module and
    every module that imports; return how many links. A page without state files, or that
    has the links already, is left as it is.

    In ``<head>``, not at the view: the view may come after most of the page (chapter 2's,
    after 210 KB of 320 KB), and the files then arrive long after it. The state link names its
    model because the manifest of state files comes at the end of ``<body>``: the loader, which
    runs while the page arrives, finds the first view's file without it."""
    page = Path(page)
    html = page.read_text(encoding="utf-8")
    files = _model_files(page, html)
    first = next((files[i] for i in view_ids(html) if i in files), None)
    if PRELOAD_ATTRIBUTE in html or first is None or not first.is_file() or "</head>" not in html:
        return 0
    esm = json.loads(first.read_text(encoding="utf-8")).get("state", {}).get("_esm", "")
    if not esm or re.search(r"\s", esm):
        return 0

    def url(path: Path) -> str:
        return posixpath.relpath(path.resolve().as_posix(), page.parent.resolve().as_posix())

    module = (first.parent / esm.split("?")[0]).resolve()
    modules = _imports(module, esm[len(esm.split("?")[0]):], {})  # the loader imports it by this very URL
    first_id = next(i for i in view_ids(html) if i in files)
    # Low priority: in <head> these would otherwise share the link with the render-blocking
    # style sheets and hold up first paint (on slow 4G, chapter 2 painted 0.4 s later).
    links = [f'<link rel="preload" as="fetch" crossorigin href="{url(first)}" data-rope-model="{first_id}" '
             f'fetchpriority="low" {PRELOAD_ATTRIBUTE}>']
    links += [f'<link rel="modulepreload" href="{url(path)}{query}" fetchpriority="low" {PRELOAD_ATTRIBUTE}>'
              for path, query in modules.items()]
    head_end = html.index("</head>")
    page.write_text(html[:head_end] + "".join(links) + "\n" + html[head_end:], encoding="utf-8")
    return len(links)
