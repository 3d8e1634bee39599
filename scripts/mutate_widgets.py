"""Mutation run over the widget layer: inject ~1 % errors, does what `make test` runs notice?

Targets: every widget's ES module (``rope_core/widgets/*.js``), the widgets' Python tables
(every ``rope_core/widgets/*.py`` that defines a widget), the demos layer (``rope_core/demos/*.py``) and the static
views (``rope_core/plots/views.py``). Mutants are made by operators, not typed by hand, so the
run still applies to code the widget helpers rewrite (each mutant prints the line it changed):

JS (in each widget's drawing code, i.e. after ``function draw``/``render``):
  coordinate   a drawn coordinate scaled by 1.01 (``px(e)``, ``arrow(..., x1, ...)``, ``x: e``)
  index        an off-by-one look-up: the last index ``[i]`` of a table read becomes ``[i + 1]``
  cos-sin      ``Math.cos`` <-> ``Math.sin`` (or the tables ``.cos``/``.sin``) swapped once
  sign         an angle's sign flipped: the first ``Math.sin(e)`` drawn becomes ``-Math.sin(e)``
  readout      a read-out's text ``fmt(e, ...)`` -> ``fmt(1.01 * e, ...)``
  readout-data a read-out's data attribute ``dataset.k = e`` -> ``1.01 * e``
Python (explorers, demos, views):
  table        a number a table holds scaled by 1.01 (``table(e)``, a returned dict entry, a
               plotted series)
  boundary     a ``<`` / ``>`` comparison made ``<=`` / ``>=`` (the FrequencyClocks M43 kind)

Each mutant runs the tests that can see it, cheapest first, until one fails:
  1. Python mutants: the widget/view/plot unit tests (``tests/test_widgets*.py``,
     ``tests/test_views*.py``, ``tests/test_plots*.py``, browser tests deselected);
  2. Python mutants that reach a page (all but views): the book rebuilt through
     ``scripts/build_book.py`` (its cache key covers rope_core, so stale pages cannot hide the
     mutant), then the widget browser tests (``tests/test_widgets*browser*.py``);
  3. JS mutants: the page runs the widgets' modules as the build wrote them, once, into
     ``_static/rope-widgets/`` (the widget's file, and common.js / drag.js that it imports;
     executing the notebooks does nothing else with them), so the mutant is written into the
     built copy of the file, and the browser
     tests that open those pages, or that make their own pages from the (mutated) source, and
     are about that widget or about every widget (``tests_loading``), run on that build (``ROPE_BOOK_REUSE_BUILD=1``); the files are restored afterwards. Seconds instead
     of a 5-7 minute rebuild; ``--js-rebuild`` takes the rebuild path of stage 2 instead.
The file is restored after each mutant, and the book rebuilt at the end if a mutant was built.

Run it in a clone whose book is built (``make book``), with ``PYTHONPATH`` set to that clone
if its venv is shared with another checkout, so that the notebook kernels import the mutant:
    PYTHONPATH=$PWD .venv/bin/python scripts/mutate_widgets.py [--only js|py] [--files GLOB]
        [--limit N] [--list] [--js-rebuild] [--no-py-browser]
Prints one line per mutant (caught by which stage, or SURVIVED), then caught/total per file and
overall. Exit status 0 whatever the rate (it is a measurement, not a test).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDGETS = ROOT / "rope_core" / "widgets"
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import widget_state  # noqa: E402  (the one reader of the built pages' widget state)


@dataclass
class Mutant:
    path: Path
    operator: str
    start: int          # character offsets of the replaced text in the original file
    end: int
    new: str

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end:]

    def describe(self, text: str) -> str:
        line_no = text.count("\n", 0, self.start) + 1
        line = text.splitlines()[line_no - 1].strip()
        return f"{self.path.relative_to(ROOT)}:{line_no} [{self.operator}] {line[:110]}"


# --- finding sites ---------------------------------------------------------------------------

def _closing(text: str, open_at: int) -> int:
    """Index of the bracket that closes the one at ``open_at``."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[open_at]]]
    i = open_at + 1
    while stack and i < len(text):
        c = text[i]
        if c in "\"'`":
            i = text.index(c, i + 1) if c != "`" else text.index("`", i + 1)
        elif c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
        i += 1
    return i - 1


def _argument_end(text: str, start: int) -> int:
    """End of the expression starting at ``start`` (next ``,``/``)``/``}``/``;`` at depth 0)."""
    i = start
    while i < len(text):
        c = text[i]
        if c in "([{":
            i = _closing(text, i) + 1
            continue
        if c in ",)};\n":
            return i
        i += 1
    return i


def _scaled(path, operator, text, start, end, factor="1.01"):
    expression = text[start:end].strip()
    lead = len(text[start:end]) - len(text[start:end].lstrip())
    return Mutant(path, operator, start + lead, end, f"{factor} * ({expression})")


def _body_start(text: str) -> int:
    match = re.search(r"function draw\b|function render\b", text)
    return match.start() if match else 0


def js_mutants(path: Path) -> list[Mutant]:
    text = path.read_text()
    body = _body_start(text)
    found = []

    # coordinate: px(e) / py(e), else the tip of the first arrow, else the first x: e attribute.
    calls = [(m.end() - 1, _closing(text, m.end() - 1)) for m in re.compile(r"\bp[xy]\(").finditer(text, body)]
    drawn = [(a, b) for a, b in calls if re.search(r"data|series|tab\b|\br\[|\bq\[|\bv\b|rq|rk", text[a:b])]
    if calls:
        open_at, close_at = (drawn or calls)[0]
        found.append(_scaled(path, "coordinate", text, open_at + 1, close_at))
    else:
        # A call, not the definition nor a mention in a comment (that would mutate nothing
        # real: an empty argument list makes a syntax error every test "catches").
        match = re.compile(r"^(?!\s*//).*?(?<!function )\barrow\(", re.M).search(text, body)
        if match:
            open_at = match.end() - 1
            args, i = [], open_at + 1
            while len(args) < 4:
                end = _argument_end(text, i)
                args.append((i, end))
                i = end + 1
            found.append(_scaled(path, "coordinate", text, *args[3]))
        else:
            # Not a trait read into the state ({ x: model.get(...) }): scaled, its default 0
            # stays 0, a mutant no test can tell apart.
            for match in re.compile(r"[{,]\s*(?:x|cx|x1): (?!\d+\s*[,}])").finditer(text, body):
                if "model.get(" not in text[match.end():_argument_end(text, match.end())]:
                    found.append(_scaled(path, "coordinate", text, match.end(), _argument_end(text, match.end())))
                    break

    # index: the last [i] of the first table read indexed by a variable (data.x[t][m], tab.y[state.m]).
    pattern = re.compile(r"\b(?:data|tab|series|rows?|spec|model_data|entry)\.\w+(?:\[[^\[\]\n]+\])*"
                         r"\[((?:state\.)?[a-z]\w*)\]")
    for match in pattern.finditer(text, body):
        if match.group(1) in ("key", "name"):
            continue
        start, end = match.start(1), match.end(1)
        found.append(Mutant(path, "index", start, end, f"{match.group(1)} + 1"))
        break

    # cos-sin: swap the first cosine for a sine.
    for old, new in (("Math.cos(", "Math.sin("), (".cos[", ".sin["), ("cos:", "sin:")):
        at = text.find(old, body)
        if at >= 0 and new in text:
            found.append(Mutant(path, "cos-sin", at, at + len(old), new))
            break

    # sign: the first sine in the drawing code turned the other way (a wrong angle sign).
    for match in re.compile(r"(?<![\w.])Math\.sin\(").finditer(text, body):
        found.append(Mutant(path, "sign", match.start(), match.start(), "-"))
        break

    # readout: the first fmt(e, ...) that fills a read-out's text.
    for match in re.compile(r"\.textContent\s*=[^;]*?\bfmt\(").finditer(text, body):
        start = match.end()
        found.append(_scaled(path, "readout", text, start, _argument_end(text, start)))
        break

    # readout-data: the first data attribute a test can read.
    for match in re.compile(r"\.dataset\.\w+\s*=\s*").finditer(text, body):
        end = _argument_end(text, match.end())
        if re.search(r"[\"'`]|join\(|String\(", text[match.end():end]):
            continue  # a label, not a number
        found.append(_scaled(path, "readout-data", text, match.end(), end))
        break
    return found


def _skip_expression(expression: str) -> bool:
    """Not a number a widget shows: empty, a literal container, a string, a flag."""
    e = expression.strip()
    return (not e or e.startswith(("[", "{", '"', "f\"", "bool(", "str(", "len(", "int(")) or " < " in e
            or " > " in e or "==" in e or not re.search(r"np\.|/|\*|\+|-|\bscaled\b|\bratio\b|\bcurves\b|\[", e))


def py_mutants(path: Path, per_operator: int = 3) -> list[Mutant]:
    import io
    import tokenize

    text = path.read_text()
    found = []
    # table: the argument of table(e), a returned dict entry computed with numpy, a plotted y.
    sites = []
    for match in re.finditer(r"\btable\(", text):
        sites.append((match.end(), _argument_end(text, match.end())))
    free = []  # dict entries and plotted series: only those computed with numbers
    for match in re.finditer(r'^\s+(?:return \{)?\s*"(\w+)": (?!table\()', text, re.M):
        free.append((match.end(), _argument_end(text, match.end())))
    for match in re.finditer(r"\bax\.plot\(", text):
        first_end = _argument_end(text, match.end())
        if text[first_end] == ",":
            second = first_end + 1
            end = _argument_end(text, second)
            if "=" not in text[second:end]:
                free.append((second, end))
    sites += [site for site in free if not _skip_expression(text[site[0]:site[1]])]
    taken = []
    for start, end in sorted(sites):
        if any(start < e and s < end for s, e in taken) or not text[start:end].strip():
            continue
        taken.append((start, end))
    if len(taken) > 2 * per_operator:  # spread over the file (every widget / function gets some)
        step = len(taken) / (2 * per_operator)
        taken = [taken[int(i * step)] for i in range(2 * per_operator)]
    for start, end in taken:
        found.append(_scaled(path, "table", text, start, end, factor="np.multiply(1.01, ").__class__(
            path, "table", *_strip(text, start, end), f"np.multiply(1.01, {text[start:end].strip()})"))
    # boundary: a strict comparison in code (not in docstrings or comments, not a check that raises).
    lines = text.splitlines()
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    count = 0
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.OP or token.string not in ("<", ">"):
            continue
        row, col = token.start
        nearby = " ".join(lines[row - 1: row + 1])
        if "raise" in nearby or "Error" in nearby:
            continue
        at = offsets[row - 1] + col
        found.append(Mutant(path, "boundary", at, at + 1, token.string + "="))
        count += 1
        if count == per_operator:
            break
    return found


def _strip(text, start, end):
    lead = len(text[start:end]) - len(text[start:end].lstrip())
    trail = len(text[start:end]) - len(text[start:end].rstrip())
    return start + lead, end - trail


def all_mutants(root: Path = ROOT, js_per_file: int = 0) -> list[Mutant]:
    """Every mutant; with ``js_per_file`` only that many per JS file, operators taken in turn
    across the files (each JS mutant costs a full rebuild: about 2-3 minutes here)."""
    mutants = []
    js_files = sorted((root / "rope_core" / "widgets").glob("*.js"))
    for number, path in enumerate(js_files):
        found = js_mutants(path)
        if js_per_file and found:
            found = [found[(number + k) % len(found)] for k in range(min(js_per_file, len(found)))]
        mutants += found
    for path in [*widget_sources(root),
                 *sorted((root / "rope_core" / "demos").glob("*.py")),
                 root / "rope_core" / "plots" / "views.py"]:
        if path.name not in ("__init__.py", "timing.py") and path.exists():
            mutants += py_mutants(path)
    return mutants


# --- running ---------------------------------------------------------------------------------

def pytest(args, root: Path = ROOT, reuse_build: bool = False) -> bool:
    """True when the tests fail (the mutant is caught). ``reuse_build``: test the pages in
    ``_build/html`` as they are (no build_book.py run, which would see no change and keep them)."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args]
    env = {**os.environ, "ROPE_BOOK_REUSE_BUILD": "1"} if reuse_build else None
    return subprocess.run(command, cwd=root, capture_output=True, env=env).returncode != 0


def unit_tests(root: Path = ROOT) -> list[str]:
    names = sorted({*root.glob("tests/test_widgets*.py"), *root.glob("tests/test_views*.py"),
                    *root.glob("tests/test_plots*.py"), root / "tests" / "test_gallery.py"})
    return [str(p.relative_to(root)) for p in names if p.exists() and "browser" not in p.name]


def browser_tests(root: Path = ROOT) -> list[str]:
    return [str(p.relative_to(root)) for p in sorted(root.glob("tests/test_widgets*browser*.py"))]


def rebuild(root: Path = ROOT) -> bool:
    done = subprocess.run([sys.executable, str(root / "scripts" / "build_book.py")], cwd=root,
                          capture_output=True, text=True)
    return done.returncode == 0


def patch_built_pages(html_root: Path, original: str, mutated: str) -> tuple[list[Path], dict[Path, str]]:
    """Put a JS mutant into the built site's copy of the file.

    The build writes each widget's module and the shared ones once, as files in
    ``_static/rope-widgets/`` that the pages' state files name (``book/_ext/widget_state.py``);
    in each such file that holds the original text, it is replaced by the mutant's. Returns the
    pages that load a mutated module (their widgets' own, or one those import) and
    ``{file: its original text}`` for restoring.
    """
    folder = html_root / widget_state.FOLDER
    changed = {}
    for path in sorted(folder.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        # The build versions the imports ("./common.js?v=<hash>"): compare the source with the
        # built text without them, and write the mutant back with them.
        versions = dict(VERSIONED.findall(text))
        plain = VERSIONED.sub(lambda m: f"./{m.group(1)}", text)
        if original in plain:
            mutant = plain.replace(original, mutated)
            mutant = PLAIN_IMPORT.sub(lambda m, versions=versions: f"./{m.group(1)}{versions.get(m.group(1), '')}", mutant)
            path.write_text(mutant, encoding="utf-8")
            changed[path] = text
    pages = []
    for page in sorted(html_root.rglob("*.html")):
        for state in widget_state.model_files(page).values():
            esm = json.loads(state.read_text(encoding="utf-8")).get("state", {}).get("_esm", "")
            module = folder / esm.split("?")[0].rsplit("/", 1)[-1]
            loaded = {module} | {folder / name for name in IMPORTED.findall(_read(module))}
            if loaded & set(changed) and page not in pages:
                pages.append(page)
    return pages, changed


IMPORTED = re.compile(r'^import\s[^"\n;]*?from\s+"\./([a-z_]+\.js)', re.M)
# An import specifier as the build writes it (with a version) and as the source does.
VERSIONED = re.compile(r'\./([a-z_]+\.js)(\?v=[0-9a-f]+)')
PLAIN_IMPORT = re.compile(r'\./([a-z_]+\.js)(?=")')


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def widget_modules(root: Path = ROOT) -> dict[str, set[str]]:
    """{widget class: the JS files (stems) its module is made of: its own and those it
    imports, besides common.js}, from every widget class of ``rope_core/widgets/*.py``."""
    found = {}
    for path in widget_sources(root):
        found.update(_modules_in(path.read_text(), root))
    return found


def widget_sources(root: Path = ROOT) -> list[Path]:
    """The Python files of ``rope_core/widgets`` that define a widget class (a RopeWidget)."""
    return [path for path in sorted((root / "rope_core" / "widgets").glob("*.py"))
            if re.search(r"^class \w+\(RopeWidget\):", path.read_text(), re.M)]


def _modules_in(text: str, root: Path) -> dict[str, set[str]]:
    found = {}
    for match in re.finditer(r"^class (\w+)\(RopeWidget\):(.*?)(?=^class |\Z)", text, re.S | re.M):
        stems = set(re.findall(r'\bmodule\("(\w+)"\)', match.group(2)))
        for stem in list(stems):
            source = _read(root / "rope_core" / "widgets" / f"{stem}.js")
            stems |= {name.removesuffix(".js") for name in IMPORTED.findall(source)} - {"common"}
        found[match.group(1)] = stems
    return found


def tests_loading(pages, js_path: Path, root: Path = ROOT) -> list[str]:
    """The widget browser tests that can see a JS mutant in ``pages``, those about its widget first.

    A test file counts if it opens one of ``pages`` or makes its own pages from the widgets (it
    reads the mutated source). In it, a test counts unless it names only other widgets (its
    class names or their JS files, in its decorators or body): a test that names no widget
    (every gallery widget, every registered class) counts for every mutant.
    """
    import ast

    modules = widget_modules(root)
    mine = {name for name, stems in modules.items() if js_path.stem in stems or js_path.stem == "common"}
    about_mine, generic = [], []
    for name in browser_tests(root):
        text = (root / name).read_text()
        uses_book = "book_server" in text or "built_book" in text
        if uses_book and not any(page.stem in text for page in pages):
            continue
        for node in ast.parse(text).body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            source = "".join(ast.get_source_segment(text, part) for part in [*node.decorator_list, node])
            named = {widget for widget, stems in modules.items()
                     if widget in source or any(stem in source for stem in stems - {"drag"})}
            if named & mine:
                about_mine.append(f"{name}::{node.name}")
            elif not named:
                generic.append(f"{name}::{node.name}")
    return about_mine + generic


def run(mutant: Mutant, original: str = "", root: Path = ROOT, py_browser: bool = True,
        js_rebuild: bool = False) -> str:
    """'unit', 'build' (the strict book build failed), 'browser', '' (survived),
    'unit-only' (survived the unit tests; the browser stage was not run: --no-py-browser), or
    'no-page' (a JS mutant no built page embeds, and no browser test builds its own page).

    A JS mutant (the source file already mutated) is put into the built pages directly and the
    browser tests that load them run on that build (``ROPE_BOOK_REUSE_BUILD=1``); with
    ``js_rebuild`` the book is rebuilt through build_book.py instead (minutes per mutant).
    """
    is_js = mutant.path.suffix == ".js"
    if not is_js and pytest(["-m", "not browser and not book and not lab and not chapters",
                             *unit_tests(root)], root):
        return "unit"
    if mutant.path.name == "views.py":
        return ""  # the views draw only the book's static figures: unit tests are what sees them
    if not is_js and not py_browser:
        return "unit-only"
    if is_js and not js_rebuild:
        pages, changed = patch_built_pages(root / "_build" / "html", original, mutant.apply(original))
        try:
            tests = tests_loading(pages, mutant.path, root)
            if not tests:
                return "no-page"
            return "browser" if pytest(["-m", "browser", *tests], root, reuse_build=True) else ""
        finally:
            for path, text in changed.items():
                path.write_text(text, encoding="utf-8")
    if not rebuild(root):
        return "build"
    return "browser" if pytest(["-m", "browser", *browser_tests(root)], root) else ""


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished subprocesses: a cost the load does not inflate."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def caught_by(stage: str) -> bool:
    return bool(stage) and stage != "unit-only"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("js", "py"))
    parser.add_argument("--files", default="*", help="glob on the file name, e.g. 'decay*'")
    parser.add_argument("--limit", type=int, default=0, help="at most N mutants")
    parser.add_argument("--js-per-file", type=int, default=0,
                        help="at most N mutants per JS file (operators in turn across files); 0: all")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--no-py-browser", dest="py_browser", action="store_false",
                        help="Python mutants: unit stage only (each browser stage costs a rebuild)")
    parser.add_argument("--js-rebuild", action="store_true",
                        help="JS mutants: rebuild the book (build_book.py) instead of patching the built pages")
    parser.add_argument("--deadline", help="HH:MM (UTC): start no mutant after it; report what ran")
    args = parser.parse_args(argv)

    mutants = [m for m in all_mutants(js_per_file=args.js_per_file) if fnmatch.fnmatch(m.path.name, args.files)
               and (args.only is None or (m.path.suffix == ".js") == (args.only == "js"))]
    mutants.sort(key=lambda m: m.path.suffix == ".js")  # the cheap Python mutants first
    if args.limit:
        mutants = mutants[: args.limit]
    originals = {m.path: m.path.read_text() for m in mutants}
    if args.list:
        for m in mutants:
            print(m.describe(originals[m.path]), "->", m.new[:60])
        return 0
    results = []
    stop = None
    if args.deadline:
        hour, minute = map(int, args.deadline.split(":"))
        now = time.gmtime()
        stop = time.time() + ((hour - now.tm_hour) * 60 + minute - now.tm_min) * 60 - now.tm_sec
    built_with_mutant = False  # the last build executed a mutant: rebuild before patching pages
    try:
        for mutant in mutants:
            if stop is not None and time.time() > stop:
                print(f"deadline {args.deadline} reached: {len(mutants) - len(results)} mutants not run")
                break
            original = originals[mutant.path]
            patches = mutant.path.suffix == ".js" and not args.js_rebuild
            if patches and built_with_mutant:
                rebuild()
                built_with_mutant = False
            began, cpu = time.monotonic(), _children_cpu()
            mutant.path.write_text(mutant.apply(original))
            try:
                stage = run(mutant, original, py_browser=args.py_browser, js_rebuild=args.js_rebuild)
            finally:
                mutant.path.write_text(original)
            results.append((mutant, stage))
            built_with_mutant |= not patches and stage not in ("unit", "unit-only") and mutant.path.name != "views.py"
            verdict = ("SURVIVED unit" if stage == "unit-only" else f"caught ({stage})") if stage else "SURVIVED"
            print(f"{verdict:18s} {mutant.describe(original)}  -> {mutant.new[:70]}"
                  f"  [{time.monotonic() - began:.0f} s, CPU {_children_cpu() - cpu:.0f} s]", flush=True)
    finally:
        for path, text in originals.items():
            path.write_text(text)
        if built_with_mutant:
            rebuild()  # the book was rebuilt with a mutant: leave it built from the real code
    print("\ncaught / total per file:")
    for path in sorted({m.path for m, _ in results}):
        mine = [stage for m, stage in results if m.path == path]
        print(f"  {str(path.relative_to(ROOT)):40s} {sum(caught_by(s) for s in mine)} / {len(mine)}")
    caught = sum(caught_by(stage) for _, stage in results)
    print(f"overall: {caught} of {len(results)} caught ({100 * caught / max(len(results), 1):.0f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
