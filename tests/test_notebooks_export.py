"""`make notebooks` (the Colab route) and Binder: notebooks that work where the book is not.

The exported .ipynb must read well in plain Jupyter (no MyST: solutions in closed ``<details>``, numbered equations) and start with an install cell; both
routes are simulated in clean virtual environments here:

* Colab: a venv holding only what a Colab kernel has for this purpose (ipykernel, nbclient)
  runs an exported chapter top to bottom; its first cell must install rope_core (here from this
  checkout, in the real cell from the repository URL) and every later cell must then run; an
  install that fails stops at that cell with a message saying so.
* Binder: a venv built only from what repo2docker reads (``binder/requirements.txt``, run from
  the repository root, then ``binder/postBuild``) imports rope_core from site-packages and
  runs a chapter, and the server repo2docker starts saves a one-line edit as a one-line diff, exactly as ``make lab`` does.

The venv tests are marked ``lab`` (they install from PyPI, so they stay out of ``make unit``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the pages and chapters, in the toc's order)

BOOK = ROOT / "book"
CHAPTER = "02-rotations"  # the chapter both routes run: rotations, figures and claims
PIP_TIMEOUT = 900

# Exports every page (seconds of work): not part of the fast `make unit`.
pytestmark = pytest.mark.chapters


def _notebook_sources() -> list[Path]:
    """The notebook pages of the toc (chapters and gallery), as the exporter sees them."""
    return book_pages.notebooks(ROOT)


def _export(output: Path, *extra: str) -> Path:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "scripts/export_notebooks.py", "book", str(output), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return output


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Run the exporter exactly as `make notebooks` does, into a temporary directory."""
    return _export(tmp_path_factory.mktemp("notebooks"))


def _markdown(notebook) -> str:
    return "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")


def test_every_chapter_and_the_gallery_is_exported(exported):
    chapters = book_pages.chapters(ROOT)
    assert chapters, "no chapters in _toc.yml"
    expected = {p.stem for p in chapters} | {"gallery"}
    written = {p.stem for p in exported.glob("*.ipynb")}
    assert expected <= written, f"not exported: {sorted(expected - written)}"
    assert written == {p.stem for p in _notebook_sources()}


def test_code_cells_are_kept_and_an_install_cell_comes_first(exported):
    for source in _notebook_sources():
        notebook = nbformat.read(exported / f"{source.stem}.ipynb", as_version=4)
        nbformat.validate(notebook)
        original = jupytext.read(source)
        install, *rest = notebook.cells
        assert install.cell_type == "code" and "%pip install" in install.source, source.name
        code = [c.source for c in rest if c.cell_type == "code"]
        assert code == [c.source for c in original.cells if c.cell_type == "code"], source.name
        assert notebook.metadata["kernelspec"]["name"] == "python3", source.name
        assert "jupytext" not in notebook.metadata
        assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")


def test_install_cell_installs_from_the_repository_only_when_rope_core_is_missing(exported):
    cell = nbformat.read(exported / f"{CHAPTER}.ipynb", as_version=4).cells[0].source
    import yaml

    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert (f"%pip install --quiet 'rope-core[plots,widgets] @ git+{url}' "
            f"'rope-book @ git+{url}#subdirectory=rope-book'") in cell
    assert 'find_spec("rope_core") is None' in cell
    pip_line = next(line for line in cell.splitlines() if "%pip" in line)
    assert pip_line.startswith("    "), "the install must sit under the 'is it missing?' test"


MYST_LEFTOVERS = {
    "a directive fence": re.compile(r"^\s*(`{3,}|:{3,})\{[\w-]+\}", re.M),
    "a role": re.compile(r"\{(doc|eq|ref|numref|func|class|meth|term)\}`"),
    "a label target": re.compile(r"^\([\w.:-]+\)=\s*$", re.M),
    "an equation label": re.compile(r"^\$\$\s*\([\w.:-]+\)\s*$", re.M),
    "a directive option": re.compile(r"^:(label|class|pyobject|language):", re.M),
}


def test_no_myst_syntax_is_left_in_the_markdown(exported):
    for source in _notebook_sources():
        text = _markdown(nbformat.read(exported / f"{source.stem}.ipynb", as_version=4))
        for what, pattern in MYST_LEFTOVERS.items():
            found = pattern.search(text)
            assert not found, f"{source.name}: {what} left as MyST: {found.group(0)!r}"


def test_no_code_cell_reads_a_file_of_the_repository(exported):
    """Colab has rope_core and nothing else of the repository: a chapter that opened
    ``../tests/...`` would stop there. Data the chapters need ships inside rope_core."""
    relative = re.compile(r"""["'](\.\.?/[^"']*)["']""")
    for source in _notebook_sources():
        notebook = nbformat.read(exported / f"{source.stem}.ipynb", as_version=4)
        code = "\n".join(cell.source for cell in notebook.cells[1:] if cell.cell_type == "code")
        found = relative.search(code)
        assert not found, f"{source.name} reads {found.group(1)}, which is not in rope_core"


def test_library_code_is_a_code_cell_that_shows_it(exported):
    """No include to translate: a chapter shows library code with a ``show_code`` cell, kept
    as it is, whose output is the code (tests/test_shown_code.py)."""
    cells = 0
    for source in _notebook_sources():
        notebook = nbformat.read(exported / f"{source.stem}.ipynb", as_version=4)
        shown = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith("show_code(")]
        assert len(shown) == source.read_text().count("\nshow_code("), source.name
        cells += len(shown)
    assert cells >= 30, cells


def test_every_solution_is_a_closed_details_block_after_its_exercise(exported):
    for source in _notebook_sources():
        text = source.read_text()
        solutions = len(re.findall(r"^(`{3,}|:{3,})\{solution\}", text, re.M))
        exercises = len(re.findall(r"^(`{3,}|:{3,})\{exercise\}", text, re.M))
        md = _markdown(nbformat.read(exported / f"{source.stem}.ipynb", as_version=4))
        details = re.findall(r"<details>\n<summary>(.*?)</summary>(.*?)</details>", md, re.S)
        assert len(details) == solutions, source.name
        assert "<details open" not in md, source.name
        assert len(re.findall(r"\*\*Exercise \d+", md)) == exercises, source.name
        for summary, body in details:
            assert re.match(r"Solution to Exercise \d+", summary), (source.name, summary)
            assert body.strip(), f"{source.name}: empty solution"


def test_labelled_equations_are_numbered_and_references_use_the_numbers(exported):
    notebook = nbformat.read(exported / f"{CHAPTER}.ipynb", as_version=4)
    text = _markdown(notebook)
    tags = [int(n) for n in re.findall(r"\\tag\{(\d+)\}", text)]
    labels = re.findall(r"^\$\$\s*\(([\w.:-]+)\)", (BOOK / f"{CHAPTER}.md").read_text(), re.M)
    assert tags == list(range(1, len(labels) + 1)) and tags
    assert "equation (1)" in text
    # A chapter link ({numref} on the label above its title) goes to the other notebook and
    # reads as the book reads it: "chapter 2".
    assert re.search(r"\[[Cc]hapter 2\]\(02-rotations\.ipynb\)",
                     _markdown(nbformat.read(exported / "03-complex-form.ipynb", as_version=4)))


# --- the two routes, simulated in clean virtual environments -----------------------------------


def _clean_venv(path: Path, *packages: str) -> Path:
    """A new venv (with pip, as Colab and repo2docker have) holding only ``packages``."""
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(path)], check=True, timeout=300)
    python = path / "bin" / "python"
    if packages:
        _install_into(python, *packages)
    return python


def _install_into(python: Path, *args: str, cwd: Path | None = None, compile_bytecode: bool = True):
    """``pip install *args`` into the venv of ``python``: through the project's uv when ``make
    venv`` put it into .venv (the same packages in a fraction of pip's time), else through pip.
    ``compile_bytecode=False`` leaves compiling to the imports, when few modules are used."""
    uv = Path(sys.executable).with_name("uv")
    if uv.exists():
        compiling = ["--compile-bytecode"] if compile_bytecode else []
        _install([str(uv), "pip", "install", "--quiet", *compiling, "--python", str(python), *args], cwd=cwd)
    else:
        _pip(python, "install", "--quiet", *([] if compile_bytecode else ["--no-compile"]), *args, cwd=cwd)


def _pip(python: Path, *args: str, cwd: Path | None = None):
    _install([str(python), "-m", "pip", *args], cwd=cwd)


def _install(command: list[str], cwd: Path | None = None):
    """Run an installer command outside this test run's environment; it must succeed."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def _checkout_copy(target: Path) -> Path:
    """The files a clone of this checkout has (tracked and new, not ignored): what Binder sees."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


RUN_NOTEBOOK = r"""
import json, sys
import nbformat, nbclient
path = sys.argv[1]
notebook = (nbformat.read(path, as_version=4) if path.endswith(".ipynb")
            else __import__("jupytext").read(path))
client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                 resources={"metadata": {"path": sys.argv[2]}})
error = None
try:
    client.execute()
except nbclient.exceptions.CellExecutionError as failure:
    error = str(failure)[-3000:]
stderr = [(i, o["text"]) for i, c in enumerate(notebook.cells) for o in c.get("outputs", [])
          if o.get("output_type") == "stream" and o.get("name") == "stderr"]
stdout = "".join(o.get("text", "") for c in notebook.cells for o in c.get("outputs", [])
                 if o.get("output_type") == "stream" and o.get("name") == "stdout")
print(json.dumps({"error": error, "stderr": stderr, "stdout": stdout}))
"""

PROBE_CELL = "import rope_core, sys; print('ROPE_CORE_FROM', rope_core.__file__, sys.prefix)"


def _run(python: Path, notebook: Path, cwd: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    result = subprocess.run([str(python), "-c", RUN_NOTEBOOK, str(notebook), str(cwd)], cwd=cwd,
                            env=env, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _with_probe(notebook_path: Path, target: Path):
    notebook = (nbformat.read(notebook_path, as_version=4) if notebook_path.suffix == ".ipynb"
                else jupytext.read(notebook_path))
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE_CELL))
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    return target


@pytest.mark.lab
def test_colab_route_the_install_cell_makes_an_exported_chapter_run(tmp_path):
    repo = _checkout_copy(tmp_path / "repo")
    notebooks = _export(tmp_path / "notebooks", "--install-from",
                        f"'rope-core[plots,widgets] @ file://{repo}' 'rope-book @ file://{repo}/rope-book'")
    python = _clean_venv(tmp_path / "venv", "ipykernel", "nbclient")
    probe = subprocess.run([str(python), "-c", "import rope_core"], cwd=tmp_path, capture_output=True)
    assert probe.returncode != 0, "the clean venv already has rope_core"
    # An install that fails stops at the install cell with a message that says so, instead of
    # "No module named numpy" two cells later.
    broken = _export(tmp_path / "broken", "--install-from", f"'rope-core @ file://{tmp_path}/missing'")
    notebook = _with_probe(broken / f"{CHAPTER}.ipynb", tmp_path / "run-broken" / f"{CHAPTER}.ipynb")
    run = _run(python, notebook, notebook.parent)
    assert run["error"] and "Installing rope_core failed" in run["error"], run["error"]
    assert "No module named" not in run["error"], run["error"]

    notebook = _with_probe(notebooks / f"{CHAPTER}.ipynb", tmp_path / "run" / f"{CHAPTER}.ipynb")
    run = _run(python, notebook, notebook.parent)
    assert run["error"] is None, run["error"]
    assert f"ROPE_CORE_FROM {tmp_path / 'venv'}/lib/" in run["stdout"], run["stdout"][-500:]
    stray = [text for cell, text in run["stderr"] if cell > 0 and "Claim does not hold" not in text]
    assert not stray, stray


@pytest.mark.lab
def test_binder_route_what_repo2docker_reads_imports_rope_core_and_runs_a_chapter(tmp_path):
    repo = _checkout_copy(tmp_path / "repo")
    python = _clean_venv(tmp_path / "venv")
    # repo2docker runs `pip install -r binder/requirements.txt` from the repository root; the
    # installer is the stage (uv resolves the same ranges to the same newest versions).
    _install_into(python, "-r", "binder/requirements.txt", cwd=repo, compile_bytecode=False)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
           "NB_PYTHON_PREFIX": str(tmp_path / "venv"), "PATH": f"{python.parent}:{os.environ['PATH']}"}
    subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env, check=True, timeout=120)
    overrides = tmp_path / "venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(overrides.read_text())["@jupyterlab/docmanager-extension:plugin"]
    notebook = _with_probe(repo / "book" / f"{CHAPTER}.md", repo / "book" / f"_binder-{CHAPTER}.ipynb")
    run = _run(python, notebook, repo / "book")
    assert run["error"] is None, run["error"]
    assert f"ROPE_CORE_FROM {tmp_path / 'venv'}/lib/" in run["stdout"], run["stdout"][-500:]
    assert not [text for _, text in run["stderr"]], run["stderr"]
    _check_binder_server_saves_a_one_line_edit(python, repo, tmp_path / "home")


def _check_binder_server_saves_a_one_line_edit(python: Path, repo: Path, home: Path):
    """The server repo2docker starts (``jupyter notebook`` from the repository root, no options
    of ours) serves a chapter and saves a one-line edit as a one-line diff, as ``make lab`` does."""
    import threading
    import time
    import urllib.request

    home.mkdir()
    env = {**{k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "JUPYTER_TOKEN"}},
           "HOME": str(home), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    command = [str(python.parent / "jupyter"), "notebook", "--no-browser", "--ip=127.0.0.1",
               "--port=0", "--IdentityProvider.token=binder-route"]
    if os.getuid() == 0:
        command.append("--allow-root")
    server = subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    found, lines = threading.Event(), []

    def read():
        for line in server.stdout:
            lines.append(line)
            if re.search(r"http://127\.0\.0\.1:\d+/", line):
                found.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert found.wait(90), "".join(lines)[-3000:]
        base = re.search(r"(http://127\.0\.0\.1:\d+)/", "".join(lines)).group(1)
        url = f"{base}/api/contents/book/{CHAPTER}.md"
        headers = {"Authorization": "token binder-route", "Content-Type": "application/json"}

        def call(method, data=None):
            request = urllib.request.Request(url + ("?type=notebook&content=1" if data is None else ""),
                                             method=method, headers=headers,
                                             data=None if data is None else json.dumps(data).encode())
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)

        deadline = time.monotonic() + 60
        while True:  # the URL is printed as the server starts listening: wait until it answers
            try:
                model = call("GET")
                break
            except OSError:
                assert time.monotonic() < deadline, "".join(lines)[-3000:]
                time.sleep(0.5)
        assert "Exception while loading config file" not in "".join(lines), "".join(lines)[-3000:]
        source = (repo / "book" / f"{CHAPTER}.md").read_text(encoding="utf-8")
        code = [c for c in model["content"]["cells"] if c["cell_type"] == "code"][-1]
        code["source"] += "\n# one line"
        call("PUT", {"type": "notebook", "format": "json", "content": model["content"]})
        after = (repo / "book" / f"{CHAPTER}.md").read_text(encoding="utf-8")
        assert len(after.splitlines()) == len(source.splitlines()) + 1
        assert [line for line in after.splitlines() if line not in source.splitlines()] == ["# one line"]
    finally:
        server.terminate()
        server.wait(timeout=30)
