"""The second way to read the book: ``make lab``, tested end to end in a real browser.

The server is started with the very command of ``make lab`` (``make -o .venv/.installed
lab``: the same target, minus a re-install), on 127.0.0.1 with a token, from the
repository root. The tests check that

* the overrides that make the chapters' ``.md`` files open as notebooks are installed and served;
* jupytext's contents manager is active: every chapter comes back from the contents API
  as a notebook with the same cells jupytext reads from the file;
* no churn: saving every chapter back through the contents API, as opened and as JupyterLab
  sends it after a run (outputs, language_info, widget state, cell UI metadata), leaves every
  file byte-identical (``jupytext.toml`` filters, the pre-save hook in
  ``scripts/jupyter_lab_config.py``), while a real edit is still written;
* in Debian's chromium, a chapter with a widget opens with the default viewer as a notebook
  (not in the text editor), Run All Cells runs every cell with no error, moving a
  widget slider with the keyboard redraws the widget's SVG drawing and reaches the kernel,
  and dragging a vector with the mouse turns and stretches it in the kernel too.
  Screenshots go to ``_build/screenshots/lab-<chapter>.png`` and ``lab-drag.png``;
* chapters 2 and 9 render their MyST, run clean, survive autosave byte-identical, and run
  with two parameters changed; a line typed into a cell is saved as a one-line diff.

JupyterLab's user settings and workspaces go to a temporary folder, so a reader's own
settings cannot change the outcome; autosave is ON there (every 10 s), and the tests check
that no chapter changes on disk.

The chapter tests drive JupyterLab through its public hooks (``make lab`` with
``LAB_ARGS=--LabApp.expose_app_in_browser=True`` exposes ``window.jupyterapp``): the
``docmanager:open`` and ``notebook:run-all-cells`` commands, whose promises resolve when the
work is done, and the notebook model's JSON for outputs. They wait on those promises and on
the kernel status, and poll the contents API until an autosave has happened, never on fixed
delays.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import jupytext
import pytest
from test_widgets_drag_browser import DRAG_DEG, drag, turned

from conftest import ROOT, _open_page

pytestmark = [pytest.mark.lab, pytest.mark.browser]

BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the notebooks, in the toc's order)

OVERRIDES_SOURCE = ROOT / "scripts" / "jupyterlab-overrides.json"
START_TIMEOUT = 60  # seconds for `make lab` to print its URL
# Test-only user settings: autosave ON and frequent (a reader's lab saves every 120 s; the
# chapters must survive it), no news pop-up, and every cell kept in the DOM so that the test
# can read every rendered cell.
AUTOSAVE_SECONDS = 10
OBSERVE_AUTOSAVE_SECONDS = 120  # at most: the tests poll until an autosave has happened
TEST_USER_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {
        "autosave": True,
        "autosaveInterval": AUTOSAVE_SECONDS,
    },
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def notebook_chapters() -> list[Path]:
    """The pages of ``book/`` that are jupytext notebooks (plain pages are left out)."""
    return [
        path
        for path in book_pages.notebooks(ROOT)
    ]


def widget_chapter() -> Path:
    """The page to drive in the browser: the gallery if it has widgets, else a chapter."""
    candidates = [BOOK / "gallery.md", BOOK / "02-rotations.md", *notebook_chapters()]
    for path in candidates:
        if path.exists() and path in notebook_chapters():
            source = path.read_text(encoding="utf-8")
            if "rope_core.widgets" in source or re.search(r"from rope_core import [^\n]*\bwidgets\b", source):
                return path
    pytest.fail("no chapter in book/ uses rope_core.widgets")


class LabServer:
    """A running ``make lab``: its base URL, token and collected output."""

    def __init__(self, process: subprocess.Popen, base_url: str, token: str, output: list[str]):
        self.process = process
        self.base_url = base_url
        self.token = token
        self.output = output

    def get_json(self, path: str):
        request = urllib.request.Request(
            self.base_url + path, headers={"Authorization": f"token {self.token}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise AssertionError(f"GET {path}: {error.code} {error.read().decode()[:2000]}") from None

    def put_json(self, path: str, body: dict):
        request = urllib.request.Request(
            self.base_url + path,
            method="PUT",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            raise AssertionError(f"PUT {path}: {error.code} {error.read().decode()[:2000]}") from None


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    """Start the project's JupyterLab exactly as `make lab` does; stop it afterwards."""
    home = tmp_path_factory.mktemp("lab-user")
    settings_dir = home / "settings"
    for name, values in TEST_USER_SETTINGS.items():
        target = settings_dir / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    # No JUPYTER_TOKEN: Jupyter generates a token and `make lab` must print it in the URL
    # (a token given through the environment would be printed as "token=...").
    env = {
        **{
            key: value
            for key, value in os.environ.items()
            # Not the outer `make test`'s job-server flags either: this is a fresh `make lab`.
            if key not in {"JUPYTER_TOKEN", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
        },
        "JUPYTERLAB_SETTINGS_DIR": str(settings_dir),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
    }
    # Port 0: the server picks a free port, and prints it in its URL.
    process = subprocess.Popen(
        [
            "make", "--no-print-directory", "-o", ".venv/.installed", "lab", "LAB_PORT=0",
            # window.jupyterapp: the test drives JupyterLab through its public command registry.
            "LAB_ARGS=--LabApp.expose_app_in_browser=True",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, so the finalizer stops make and Jupyter
    )
    output: list[str] = []
    url_found = threading.Event()
    url_holder: list[str] = []

    def read_output():
        for line in process.stdout:
            output.append(line)
            match = re.search(r"(http://127\.0\.0\.1:(\d+)/lab\?token=(\w+))", line)
            if match and not url_found.is_set():
                url_holder.append(match.group(1))
                url_found.set()

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        if not url_found.wait(START_TIMEOUT):
            pytest.fail("`make lab` printed no http://127.0.0.1:PORT/lab?token=... URL:\n" + "".join(output)[-4000:])
        url = url_holder[0]
        base_url, token = url.split("/lab?token=")
        server = LabServer(process, base_url, token, output)
        deadline = time.monotonic() + 30
        while True:  # the URL is printed when the server listens; check it answers
            try:
                server.get_json("/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        yield server
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def test_make_lab_listens_on_localhost_with_a_token(lab_server):
    assert lab_server.base_url.startswith("http://127.0.0.1:")
    request = urllib.request.Request(lab_server.base_url + "/api/contents")
    with pytest.raises(urllib.error.HTTPError) as refused:  # no token, no access
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    # JupyterLab serves from the repository root: the chapters are under book/.
    listing = lab_server.get_json("/api/contents/book?content=1")
    names = {item["name"] for item in listing["content"]}
    assert {path.name for path in notebook_chapters()} <= names


def test_overrides_make_markdown_open_as_a_jupytext_notebook(lab_server):
    installed = ROOT / ".venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(installed.read_text()) == json.loads(OVERRIDES_SOURCE.read_text())
    settings = lab_server.get_json("/lab/api/settings/@jupyterlab/docmanager-extension:plugin")
    # Overrides replace the schema's defaults; the user's settings (here: autosave) do not.
    viewers = settings["schema"]["properties"]["defaultViewers"]["default"]
    assert viewers.get("markdown") == "Jupytext Notebook"
    assert viewers.get("myst") == "Jupytext Notebook"
    # A chapter opened from the file browser starts its python3 kernel without asking.
    tracker = lab_server.get_json("/lab/api/settings/@jupyterlab/notebook-extension:tracker")
    assert tracker["schema"]["properties"]["autoStartDefaultKernel"]["default"] is True


def test_every_chapter_opens_as_a_notebook_through_the_contents_api(lab_server):
    chapters = notebook_chapters()
    assert len(chapters) >= 3
    for path in chapters:
        model = lab_server.get_json(
            f"/api/contents/book/{path.name}?type=notebook&content=1"
        )
        assert model["type"] == "notebook", path.name
        notebook = model["content"]
        expected = jupytext.read(path)
        assert notebook["nbformat"] == 4, path.name
        assert len(notebook["cells"]) == len(expected.cells) > 0, path.name
        code_cells = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
        assert code_cells, f"{path.name} has no code cell"
        # rope_core comes from the environment (pip install -e .), never from path tricks.
        for cell in code_cells:
            assert "sys.path" not in cell["source"] and "PYTHONPATH" not in cell["source"], path.name
        assert notebook["metadata"]["kernelspec"]["name"] == "python3", path.name


# What JupyterLab adds to a notebook while a reader runs it; none of it may reach the file.
LAB_NOTEBOOK_METADATA = {
    "language_info": {
        "name": "python",
        "version": "3.11.2",
        "mimetype": "text/x-python",
        "codemirror_mode": {"name": "ipython", "version": 3},
        "file_extension": ".py",
        "nbconvert_exporter": "python",
        "pygments_lexer": "ipython3",
    },
    "widgets": {
        "application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2, "version_minor": 0}
    },
}
LAB_CELL_METADATA = {
    "execution": {"iopub.execute_input": "2026-01-01T00:00:00Z", "shell.execute_reply": "2026-01-01T00:00:01Z"},
    "scrolled": True,
    "collapsed": False,
    "trusted": True,
    "editable": True,
    "deletable": True,
}


def _as_lab_saves_it(notebook: dict) -> dict:
    """The notebook as JupyterLab sends it back after a run: outputs, counts, UI metadata."""
    notebook["metadata"].update(json.loads(json.dumps(LAB_NOTEBOOK_METADATA)))
    # The kernel it started names itself differently, in a different key order.
    notebook["metadata"]["kernelspec"] = {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    for number, cell in enumerate(notebook["cells"]):
        cell["metadata"].update(json.loads(json.dumps(LAB_CELL_METADATA)))
        if cell["cell_type"] == "code":
            cell["execution_count"] = number + 1
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
        elif cell["source"].lstrip().startswith("#"):
            cell["metadata"]["jp-MarkdownHeadingCollapsed"] = True
    return notebook


@pytest.fixture
def chapters_restored():
    """The bytes of every notebook page; whatever a test writes, the files are put back."""
    before = {path: path.read_bytes() for path in notebook_chapters()}
    yield before
    for path, content in before.items():
        if path.read_bytes() != content:
            path.write_bytes(content)


def _git_diff_lines(paths) -> int:
    diff = subprocess.run(
        ["git", "diff", "--numstat", "--", *[str(p.relative_to(ROOT)) for p in paths]],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    return sum(int(a) + int(b) for a, b, _ in (line.split("\t") for line in diff.splitlines()))


def test_opening_and_saving_every_chapter_through_jupyter_leaves_it_byte_identical(
    lab_server, chapters_restored
):
    """Open + save (with a run's outputs and JupyterLab's metadata) changes no byte of any page."""
    diff_before = _git_diff_lines(chapters_restored)
    for path in chapters_restored:
        url = f"/api/contents/book/{path.name}"
        model = lab_server.get_json(url + "?type=notebook&content=1")
        lab_server.put_json(url, {"type": "notebook", "format": "json", "content": model["content"]})
        assert path.read_bytes() == chapters_restored[path], f"a plain save rewrote {path.name}"
        lab_server.put_json(
            url, {"type": "notebook", "format": "json", "content": _as_lab_saves_it(model["content"])}
        )
        assert path.read_bytes() == chapters_restored[path], f"saving after a run rewrote {path.name}"
    assert _git_diff_lines(chapters_restored) == diff_before


def test_a_one_line_edit_saves_as_a_one_line_diff(lab_server, chapters_restored):
    """A real edit is written, and only its own line: one added line in a code cell, then in a
    markdown cell, of every chapter, gives a diff of exactly that line (jupytext alone rewrote
    20-125 lines: YAML re-wrapped, ``1.0`` written ``1``)."""
    for path in chapters_restored:
        url = f"/api/contents/book/{path.name}"
        for kind in ("code", "markdown"):
            notebook = lab_server.get_json(url + "?type=notebook&content=1")["content"]
            index = max(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == kind)
            added = f"A line a reader added to a {kind} cell."
            line = f"# {added}" if kind == "code" else added
            notebook["cells"][index]["source"] += "\n" + line
            # As the browser sends it: JavaScript numbers (a metadata value 1.0 comes back as 1).
            notebook = json.loads(json.dumps(notebook), parse_float=lambda t: _js_number(float(t)))
            lab_server.put_json(url, {"type": "notebook", "format": "json", "content": notebook})
            text = path.read_text(encoding="utf-8")
            assert jupytext.reads(text, fmt="md:myst").cells[index].source.endswith(line)
            assert _diff_lines(chapters_restored[path], text) == [f"+{line}"], path.name
            path.write_bytes(chapters_restored[path])


def _js_number(value: float):
    return int(value) if value.is_integer() else value


def _diff_lines(before: bytes, after: str) -> list[str]:
    """The added (+) and removed (-) lines between two versions of a file."""
    import difflib

    old, new = before.decode("utf-8").splitlines(), after.splitlines()
    # autojunk off: a fence line such as ``` is frequent enough to count as junk otherwise.
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    changed = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            changed += [f"-{line}" for line in old[i1:i2]] + [f"+{line}" for line in new[j1:j2]]
    return changed


OPEN_DEFAULT_JS = """
async (path) => {
    const app = window.jupyterapp;
    await app.restored;
    // What a double-click in the file browser does: open with the default viewer.
    const panel = await app.commands.execute('docmanager:open', {path});
    await panel.context.ready;
    await panel.sessionContext.ready;
    window.ropePanels = window.ropePanels || {};
    window.ropePanels[path] = panel;
    return {isNotebook: Boolean(panel.model && panel.model.cells), title: panel.title.label};
}
"""

KERNEL_PROBE_JS = """
async ([path, code]) => {
    const kernel = window.ropePanels[path].sessionContext.session.kernel;
    const future = kernel.requestExecute({code, store_history: false});
    let text = '';
    future.onIOPub = (message) => {
        if (message.header.msg_type === 'stream') { text += message.content.text; }
    };
    await future.done;
    return text;
}
"""

PROBE_CODE = (
    "import anywidget; _w = next(v for _, v in sorted(Out.items()) if isinstance(v, anywidget.AnyWidget)); "
    "print(sorted((k, v) for k, v in _w.get_state().items() if type(v) is int))"
)
# The drag widgets' angles and lengths, as the kernel holds them.
DRAG_PROBE_CODE = (
    "import rope_core.widgets as _W; "
    "_ws = [v for _, v in sorted(Out.items()) if isinstance(v, (_W.RotationExplorer, _W.RelativeInvariance))]; "
    "print([(type(v).__name__, k, repr(getattr(v, k))) for v in _ws"
    " for k in ('q_angle', 'k_angle', 'q_length', 'k_length') if v.has_trait(k)])"
)


def _probe(page, path: str) -> dict[str, int]:
    """The first widget's integer traits, as the kernel sees them (run beside the notebook)."""
    text = page.evaluate(KERNEL_PROBE_JS, [path, PROBE_CODE])
    return {name: int(value) for name, value in re.findall(r"\('(\w+)', (-?\d+)\)", text)}


def _drag_probe(page, path: str) -> dict[tuple[str, str], float]:
    """``{(widget class, trait): value}`` of the drag widgets, as the kernel holds them."""
    text = page.evaluate(KERNEL_PROBE_JS, [path, DRAG_PROBE_CODE])
    return {(cls, trait): float(value) for cls, trait, value in re.findall(r"\('(\w+)', '(\w+)', '([-\d.e+]+)'\)", text)}


def _wait_for_kernel(page, path: str, key: tuple[str, str], expected: float, timeout: float = 60) -> float:
    """Poll the kernel until its trait equals the page's final value (a drag sends every move,
    so earlier values arrive first), or the time is up; returns the last value."""
    deadline = time.monotonic() + timeout
    while True:
        now = _drag_probe(page, path)[key]
        if abs(now - expected) < 1e-6 or time.monotonic() > deadline:
            return now


def test_widget_chapter_runs_and_its_slider_and_drags_reach_the_kernel_in_jupyterlab(
    lab_server, chromium, screenshot_dir, chapters_restored
):
    """The widget page runs in JupyterLab; a slider moved with the keyboard redraws its widget
    and the kernel's trait follows; q on the rotation explorer and k on the relative-position
    widget, dragged by 47° with the mouse, turn the kernel's traits by 47° ± 3° to the angle
    the page shows (1e-9), and dragged 0.2 out from the centre, the kernel's lengths follow the
    page's. Handles are found by their ARIA role and name (``slider`` "direction of q")."""
    chapter = widget_chapter()
    path = f"book/{chapter.name}"
    context, page, log = _open_page(chromium)
    try:
        page.set_default_timeout(180_000)  # bounds only: under load a run-all can take minutes
        page.goto(f"{lab_server.base_url}/lab?token={lab_server.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined")

        # A chapter opens as a notebook with the default viewer (the overrides), not as text.
        opened = page.evaluate(OPEN_DEFAULT_JS, path)
        assert opened == {"isNotebook": True, "title": chapter.name}
        assert page.evaluate(RUN_ALL_JS, path) is True
        errors, stray = _errors_and_stderr(page.evaluate(NOTEBOOK_JSON_JS, path))
        assert errors == [] and stray == [], (errors, stray)
        kernel_before = _probe(page, path)
        assert kernel_before, "the probe printed no widget trait"
        n_cells = page.evaluate("(p) => window.ropePanels[p].model.cells.length", path)

        # Move the first range slider of the first widget with the keyboard. A drag handle
        # (an SVG element with role slider) is not one: it holds a float angle, not a stop.
        panel_id = page.evaluate("(p) => window.ropePanels[p].id", path)
        output = page.locator(f"[id='{panel_id}'] .rope-w").first  # our widget's own class
        output.scroll_into_view_if_needed()
        drawing = output.locator("svg").first
        slider = output.locator("input[type=range]").first
        before_svg = drawing.inner_html()
        before_value = slider.input_value()
        slider.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "([svg, old]) => svg.innerHTML !== old", arg=[drawing.element_handle(), before_svg]
        )
        assert int(slider.input_value()) == int(before_value) + 3
        # The key presses went to the slider, not to the notebook (no cell moved or added).
        assert page.evaluate("(p) => window.ropePanels[p].model.cells.length", path) == n_cells
        # The kernel received the move: exactly one integer trait went up by 3 (polled, no sleep).
        deadline = time.monotonic() + 60
        while True:
            kernel_after = _probe(page, path)
            changed = {k: (kernel_before[k], v) for k, v in kernel_after.items() if kernel_before.get(k) != v}
            # The kernel may receive the three presses one by one: wait for all three.
            if [new - old for old, new in changed.values()] == [3] or time.monotonic() > deadline:
                break
        assert len(changed) == 1 and [new - old for old, new in changed.values()] == [3], (
            kernel_before, kernel_after)
        page.screenshot(path=str(screenshot_dir / f"lab-{chapter.stem}.png"))

        # Drag q and k with the mouse; each widget's place on the page is its gallery order.
        assert chapter.name == "gallery.md", f"expected the gallery to be the widget page, got {chapter.name}"
        order = re.findall(r"^widgets\.(\w+)\(\)$", chapter.read_text(encoding="utf-8"), flags=re.M)
        for cls, handle, trait, (length_of, key) in (
                ("RotationExplorer", "q", "q_angle", ('[data-readout="q"]', "length")),
                ("RelativeInvariance", "k", "k_angle", ('[data-readout="lengths"]', "k"))):
            root = page.locator(f"[id='{panel_id}'] .rope-w").nth(order.index(cls))
            before = _drag_probe(page, path)[(cls, trait)]
            knob = root.get_by_role("slider", name=f"direction of {handle}")
            knob.scroll_into_view_if_needed()
            drag(page, root, handle, DRAG_DEG)
            shown = float(knob.get_attribute("aria-valuenow"))   # the page's angle after the drag
            after = _wait_for_kernel(page, path, (cls, trait), shown)
            assert abs(after - shown) < 1e-6, (after, shown)   # aria-valuenow has 6 decimals
            assert abs(turned(before, after) - DRAG_DEG) <= 3.0, (cls, before, after)
            length_before = _drag_probe(page, path)[(cls, f"{handle}_length")]
            drag(page, root, handle, 0.0, stretch=0.2)
            shown = float(root.locator(length_of).get_attribute(f"data-{key}"))
            after = _wait_for_kernel(page, path, (cls, f"{handle}_length"), shown)
            assert abs(after - shown) < 1e-6 and abs(after - length_before - 0.2) <= 0.02, (
                cls, length_before, after, shown)
        page.screenshot(path=str(screenshot_dir / "lab-drag.png"))
        assert log.page_errors == [], log.page_errors
    except Exception:
        page.screenshot(path=str(screenshot_dir / f"lab-{chapter.stem}-failure.png"))
        raise
    finally:
        context.close()
    # Autosave is on: whatever it saved while the widgets moved, the file is unchanged.
    assert chapter.read_bytes() == chapters_restored[chapter], "running the chapter rewrote it"


# --- chapters in JupyterLab through public hooks, with autosave on ---------------------------

LAB_CHAPTERS = ("02-rotations.md", "09-longer-contexts.md")

OPEN_CHAPTER_JS = """
async (path) => {
    const app = window.jupyterapp;
    await app.restored;
    const panel = await app.commands.execute('docmanager:open', {path, factory: 'Jupytext Notebook'});
    await panel.context.ready;
    await panel.sessionContext.ready;
    window.ropePanels = window.ropePanels || {};
    window.ropePanels[path] = panel;
    return {factory: panel.context.model.type || 'notebook', cells: panel.model.cells.length};
}
"""

RUN_ALL_JS = """
async (path) => {
    const app = window.jupyterapp;
    const panel = window.ropePanels[path];
    app.shell.activateById(panel.id);
    const ok = await app.commands.execute('notebook:run-all-cells');
    const kernel = panel.sessionContext.session.kernel;
    while (kernel.status !== 'idle') {
        await new Promise((resolve) => kernel.statusChanged.connect(function done() {
            kernel.statusChanged.disconnect(done); resolve();
        }));
    }
    return ok;
}
"""

NOTEBOOK_JSON_JS = "(path) => window.ropePanels[path].model.toJSON()"

RENDERED_JS = """
(path) => {
    const markdown = window.ropePanels[path].content.widgets
        .filter((cell) => cell.model.type === 'markdown').map((cell) => cell.node);
    const text = markdown.map((cell) => cell.innerText).join('\\n');
    const details = markdown.flatMap((cell) => [...cell.querySelectorAll('details')]);
    const codeBlocks = markdown.flatMap((cell) => [...cell.querySelectorAll('pre')])
        .map((pre) => pre.innerText);
    const asides = markdown.flatMap((cell) => [...cell.querySelectorAll('aside')]);
    return {
        details: details.length,
        open: details.filter((d) => d.open).length,
        summaries: details.map((d) => d.querySelector('summary')?.innerText || ''),
        codeBlocks,
        asides: asides.map((a) => a.innerText.slice(0, 80)),
        rawMyst: (text.match(/\\{(literalinclude|admonition|solution|exercise)\\}|\\{(eq|doc|ref|numref)\\}`/g) || []),
    };
}
"""


CODE_OUTPUTS_JS = """
(path) => window.ropePanels[path].content.widgets
    .filter((cell) => cell.model.type === 'code')
    .map((cell) => [...cell.node.querySelectorAll('.jp-OutputArea-output pre')].map((pre) => pre.innerText).join('\\n'))
"""


def _errors_and_stderr(notebook_json: dict) -> tuple[list[str], list[str]]:
    from rope_core.claims import MARKER

    errors, stray = [], []
    for number, cell in enumerate(notebook_json["cells"]):
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                errors.append(f"cell {number}: {output['ename']}: {output['evalue']}")
            elif output["output_type"] == "stream" and output["name"] == "stderr":
                text = "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
                left = [line for line in text.splitlines()
                        if line.strip() and not line.startswith(MARKER) and not line.startswith(" ")]
                if left:
                    stray.append(f"cell {number}: {text[:500]}")
    return errors, stray


def _wait_for_autosave(lab_server, page, path: Path, modified_before: str) -> None:
    """Until JupyterLab's autosave has written ``path`` since ``modified_before`` (bounded).

    Waits with ``page.wait_for_timeout``, never ``time.sleep``: the page's requests pass
    through a Playwright route handler, which runs only while Playwright is called, so a
    sleeping test holds every request of the page (autosave's included) until it wakes."""
    deadline = time.monotonic() + OBSERVE_AUTOSAVE_SECONDS
    while True:
        model = lab_server.get_json(f"/api/contents/book/{path.name}?content=0")
        if model["last_modified"] != modified_before:
            return
        assert time.monotonic() < deadline, (
            f"{path.name} was never autosaved: the checks after it would prove nothing\n"
            + "".join(lab_server.output[-30:]))
        page.wait_for_timeout(500)


def _git_status(paths) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--", *[str(p.relative_to(ROOT)) for p in paths]],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout


def test_chapters_render_run_and_survive_autosave_in_jupyterlab(
    lab_server, chromium, screenshot_dir, chapters_restored
):
    """Chapters 2 and 9 in JupyterLab in Chromium, autosave on: rendered, run, autosaved
    unchanged, run with other parameters, and a typed line saved as a one-line diff."""
    paths = [BOOK / name for name in LAB_CHAPTERS]
    status_before = _git_status(paths)
    modified_before = {
        p.name: lab_server.get_json(f"/api/contents/book/{p.name}?content=0")["last_modified"] for p in paths
    }
    context, page, log = _open_page(chromium)
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{lab_server.base_url}/lab?token={lab_server.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined")
        for path in paths:
            opened = page.evaluate(OPEN_CHAPTER_JS, f"book/{path.name}")
            assert opened["cells"] == len(jupytext.read(path).cells), path.name

            # Rendered MyST: no directive or role left as text, admonitions as boxes, every
            # solution in a closed <details>.
            source = path.read_text(encoding="utf-8")
            # jupyterlab-myst renders cell by cell, asynchronously: wait until every solution is.
            solutions = len(re.findall(r"^(`{3,}|:{3,})\{solution\}", source, re.M))
            page.wait_for_function(
                f"([path, n]) => ({RENDERED_JS.strip()})(path).details >= n",
                arg=[f"book/{path.name}", solutions], timeout=60_000,
            )
            rendered = page.evaluate(RENDERED_JS, f"book/{path.name}")
            assert rendered["rawMyst"] == [], (path.name, rendered["rawMyst"][:5])
            assert rendered["details"] >= solutions > 0 and rendered["open"] == 0, (path.name, rendered)
            assert any("What you will learn" in aside for aside in rendered["asides"]), rendered["asides"]

            assert page.evaluate(RUN_ALL_JS, f"book/{path.name}") is True, path.name
            # Library code is a show_code cell's output, rendered as code once the cell ran.
            outputs = page.evaluate(CODE_OUTPUTS_JS, f"book/{path.name}")
            for call in re.findall(r"^show_code\((.*)\)$", source, re.M):
                for name in re.findall(r"(\w+)\s*(?:,|$)", call):
                    assert any(re.search(rf"\b(def|class) {name}\b", text) for text in outputs), (
                        f"{path.name}: show_code does not show {name} as code")
            notebook_json = page.evaluate(NOTEBOOK_JSON_JS, f"book/{path.name}")
            executed = [c for c in notebook_json["cells"] if c["cell_type"] == "code"]
            assert executed and all(c["execution_count"] for c in executed), path.name
            errors, stray = _errors_and_stderr(notebook_json)
            assert errors == [] and stray == [], (path.name, errors, stray)

            # Look at it: the first solution, opened by the reader.
            page.evaluate(
                """(path) => { const d = window.ropePanels[path].content.widgets
                    .filter((cell) => cell.model.type === 'markdown')
                    .map((cell) => cell.node.querySelector('details')).find(Boolean);
                    d.scrollIntoView({block: 'center'}); }""",
                f"book/{path.name}",
            )
            page.screenshot(path=str(screenshot_dir / f"lab-myst-{path.stem}.png"))

        # Both chapters stay open with autosave on until each has been autosaved after its run
        # (so the check means something); then every chapter must be byte-identical.
        for path in paths:
            _wait_for_autosave(lab_server, page, path, modified_before[path.name])
            page.wait_for_function(
                "(p) => !window.ropePanels[p].context.model.dirty", arg=f"book/{path.name}",
                timeout=OBSERVE_AUTOSAVE_SECONDS * 1000)
        for path in paths:
            assert path.read_bytes() == chapters_restored[path], f"autosave rewrote {path.name}"
        assert _git_status(paths) == status_before

        # A reader types one line into a code cell and saves (autosave's own save, called now
        # rather than awaited: its interval grows when the machine is slow): that line is all
        # that changes in the file.
        path = paths[0]
        line = "# A line a reader typed."
        page.evaluate(
            """async ([path, line]) => { const panel = window.ropePanels[path];
                window.jupyterapp.shell.activateById(panel.id);
                const cell = panel.model.sharedModel.cells.filter((c) => c.cell_type === 'code').at(-1);
                cell.updateSource(cell.source.length, cell.source.length, '\\n' + line);
                await panel.context.save(); }""",
            [f"book/{path.name}", line],
        )
        assert _diff_lines(chapters_restored[path], path.read_text(encoding="utf-8")) == [f"+{line}"]
        page.evaluate(
            """async ([path, line]) => { const panel = window.ropePanels[path];
                const cell = panel.model.sharedModel.cells.filter((c) => c.cell_type === 'code').at(-1);
                cell.setSource(cell.source.slice(0, -(line.length + 1))); await panel.context.save(); }""",
            [f"book/{path.name}", line],
        )
        assert path.read_bytes() == chapters_restored[path], "undoing the typed line left a change"

        # Two parameters changed: every cell still runs, stderr holds only claim messages.
        for path in paths:
            notebook = jupytext.read(path)
            tagged = [i for i, c in enumerate(notebook.cells)
                      if c.cell_type == "code" and "parameters" in c.metadata.get("tags", [])]
            if not tagged:
                continue  # no parameters cell yet (tests/test_chapter_variants.py lists these)
            variant = next(v for v in notebook.cells[tagged[0]].metadata["variants"] if len(v) >= 2)
            code = "\n".join(f"{k} = {v!r}" for k, v in variant.items())
            page.evaluate(
                """([path, index, code]) => window.ropePanels[path].model.sharedModel.insertCell(
                    index, {cell_type: 'code', source: code})""",
                [f"book/{path.name}", tagged[0] + 1, code],
            )
            assert page.evaluate(RUN_ALL_JS, f"book/{path.name}") is True
            errors, stray = _errors_and_stderr(page.evaluate(NOTEBOOK_JSON_JS, f"book/{path.name}"))
            assert errors == [] and stray == [], (path.name, variant, errors, stray)
            page.evaluate(
                """async ([path, index]) => { const panel = window.ropePanels[path];
                    panel.model.sharedModel.deleteCell(index); await panel.context.save(); }""",
                [f"book/{path.name}", tagged[0] + 1],
            )
            assert path.read_bytes() == chapters_restored[path], f"{path.name} changed after the variant"
        assert log.page_errors == [], log.page_errors
    except Exception:
        page.screenshot(path=str(screenshot_dir / "lab-myst-failure.png"))
        raise
    finally:
        context.close()
    assert _git_status(paths) == status_before
