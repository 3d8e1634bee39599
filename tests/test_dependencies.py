"""Every import of the project's Python is declared in pyproject.toml.

A module imported by rope_core, the book's extensions, the scripts, the benchmarks, the tests
or a chapter's code cells must come from the standard library, from this repository, or from
a distribution that pyproject.toml names (in its dependencies or one of its extras). Without
this, a package that arrives only as a dependency of another (PyYAML through Jupyter Book,
fonttools through matplotlib) would break the day that other package drops it.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import book_pages  # noqa: E402  (the notebooks, in the toc's order)

PYTHON_FOLDERS = ("rope_core", "book/_ext", "scripts", "benchmarks", "tests")
# Import lines inside a chapter's ```{code-cell} blocks.
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_files(root: Path = ROOT) -> list[Path]:
    files = [path for folder in PYTHON_FOLDERS for path in sorted((root / folder).rglob("*.py"))]
    return [root / "conftest.py", *files]


def imported_modules(source: str) -> set[str]:
    """Top-level names of the absolute imports in ``source`` (also those inside functions)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def chapter_modules(path: Path) -> set[str]:
    """Top-level modules imported by the code cells of a MyST page."""
    names = set()
    for cell in CELL.findall(path.read_text(encoding="utf-8")):
        # Cell options (":tags:"), IPython magics and shell escapes are not Python.
        code = "\n".join(line for line in cell.splitlines()
                         if not line.lstrip().startswith(("%", "!", ":")))
        try:
            names |= imported_modules(code)
        except SyntaxError:  # IPython syntax elsewhere in the cell: read the import lines alone
            names |= set(re.findall(r"^\s*(?:from|import)\s+(\w+)", code, re.MULTILINE))
    return names


def imports(root: Path = ROOT) -> dict[str, set[str]]:
    """``{top-level module: {files importing it}}`` over the project's code and chapters."""
    found: dict[str, set[str]] = {}
    modules = [(path, imported_modules(path.read_text(encoding="utf-8")))
               for path in python_files(root)]
    modules += [(path, chapter_modules(path)) for path in book_pages.notebooks(root)]
    for path, names in modules:
        for name in names:
            found.setdefault(name, set()).add(str(path.relative_to(root)))
    return found


def local_modules(root: Path = ROOT) -> set[str]:
    """Modules this repository provides itself: rope_core and the files next to a script."""
    return {"rope_core"} | {path.stem for path in python_files(root)}


def declared(root: Path = ROOT) -> set[str]:
    """Canonical names of every distribution pyproject.toml asks for, extras included."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    texts = list(project.get("dependencies", []))
    for requirements in project.get("optional-dependencies", {}).values():
        texts += requirements
    return {canonicalize_name(Requirement(text).name) for text in texts}


def undeclared(root: Path = ROOT) -> list[str]:
    """``"module (distribution) imported by ..."`` for each import pyproject.toml lacks."""
    distributions = metadata.packages_distributions()
    wanted, local = declared(root), local_modules(root)
    problems = []
    for module, where in sorted(imports(root).items()):
        if module in sys.stdlib_module_names or module in local or module == "__future__":
            continue
        # Not installed here (e.g. torch for the goldens script): its module name is its name.
        names = distributions.get(module, [module])
        if not any(canonicalize_name(name) in wanted for name in names):
            problems.append(f"{module} ({' or '.join(names)}) imported by {', '.join(sorted(where))}")
    return problems


def test_every_import_is_declared_in_pyproject():
    problems = undeclared()
    assert not problems, "declare these in pyproject.toml, then `make lock`:\n" + "\n".join(problems)


def test_the_scan_sees_imports_in_every_kind_of_file():
    found = imports()
    assert "rope_core/_checks.py" in found["numpy"]          # the library
    assert "book/_ext/site_assets.py" in found["fontTools"]  # a book extension
    assert "scripts/build_book.py" in found["jupyter_cache"]  # a script, inside a function
    assert any(where.startswith("book/0") for where in found["rope_core"])  # a chapter's cell


@pytest.mark.parametrize("import_line, module", [
    ("import yaml", "yaml"),
    ("from bs4 import BeautifulSoup", "bs4"),
    ("def f():\n    import requests_oauthlib_for_this_test", "requests_oauthlib_for_this_test"),
])
def test_an_undeclared_import_is_caught(tmp_path, import_line, module):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["numpy"]\n')
    (tmp_path / "conftest.py").write_text("import numpy\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "book").mkdir()
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/index\n")
    (tmp_path / "book" / "index.md").write_text("# A page without code\n")
    (tmp_path / "scripts" / "tool.py").write_text(import_line + "\nimport json\nimport tool\n")
    problems = undeclared(tmp_path)
    assert [problem.split(" ")[0] for problem in problems] == [module]


# --- CI runs the core on the floors pyproject.toml declares -----------------------------------

def workflow() -> dict:
    import yaml

    return yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())


def test_ci_runs_the_core_tests_at_the_oldest_python_and_numpy_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    python_floor = re.fullmatch(r">=(\d+\.\d+)", project["requires-python"])[1]
    numpy_floor = re.search(r"numpy>=([\d.]+)", " ".join(project["dependencies"]))[1]
    steps = workflow()["jobs"]["oldest"]["steps"]
    python = next(step["with"]["python-version"] for step in steps if "setup-python" in step.get("uses", ""))
    commands = "\n".join(step.get("run", "") for step in steps)
    assert python == python_floor
    assert re.search(rf'"numpy=={re.escape(numpy_floor)}(\.\d+)?"', commands), commands
    assert "--no-deps -e ." in commands and "$(python .ci/core_tests.py)" in commands


def test_the_core_tests_are_picked_by_what_they_import():
    import importlib.util

    spec = importlib.util.spec_from_file_location("core_tests", ROOT / ".ci" / "core_tests.py")
    core_tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core_tests)
    picked = core_tests.core_paths()
    assert {"tests/test_apply.py", "tests/test_config.py", "rope_core/apply.py"} <= set(picked)
    assert not {"tests/test_widgets.py", "tests/test_tinymodel.py", "tests/test_plots_basics.py"} & set(picked)


def test_a_deploy_is_never_cancelled_by_the_next_push():
    document = workflow()
    assert document["concurrency"]["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"
    for job in ("deploy", "notebooks"):
        assert document["jobs"][job]["concurrency"]["cancel-in-progress"] is False, job


def test_ci_runs_a_supported_node_lts():
    container = workflow()["jobs"]["test"]["container"]
    major = int(re.fullmatch(r"node:(\d+)-\w+", container)[1])
    # Even-numbered releases are the LTS lines; 22 is supported until April 2027.
    assert major % 2 == 0 and major >= 22, container


# --- what each of the two wheels imports is what it asks for ----------------------------------

def extras_closure(project: dict, extras: set[str]) -> set[str]:
    """Canonical names a ``pip install rope-core[<extras>]`` asks for, self-references followed."""
    own = canonicalize_name(project["name"])
    wanted, todo, seen = set(), [*project.get("dependencies", [])], set()
    todo += [text for extra in extras for text in project["optional-dependencies"][extra]]
    while todo:
        requirement = Requirement(todo.pop())
        name = canonicalize_name(requirement.name)
        if name != own:
            wanted.add(name)
            continue
        for extra in requirement.extras - seen:
            seen.add(extra)
            todo += project["optional-dependencies"][extra]
    return wanted


def test_the_book_parts_import_only_what_the_rope_book_wheel_asks_for():
    # rope-book's requirement is rope-core[plots,widgets]: a reader who installs the two wheels
    # has exactly those, not the book-building or test extras.
    book = tomllib.loads((ROOT / "rope-book" / "pyproject.toml").read_text())["project"]
    core = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (requirement,) = [Requirement(text) for text in book["dependencies"]]
    wanted = extras_closure(core, requirement.extras)
    distributions = metadata.packages_distributions()
    problems = []
    for part in ("demos", "plots", "widgets", "tinymodel"):
        for path in sorted((ROOT / "rope_core" / part).rglob("*.py")):
            for module in imported_modules(path.read_text(encoding="utf-8")):
                if module in sys.stdlib_module_names or module in ("rope_core", "__future__"):
                    continue
                names = distributions.get(module, [module])
                if not any(canonicalize_name(name) in wanted for name in names):
                    problems.append(f"{path.relative_to(ROOT)} imports {module} ({' or '.join(names)})")
    assert not problems, problems


def test_the_closure_follows_an_extra_that_names_the_project_itself():
    project = {"name": "rope-core", "dependencies": ["numpy"],
               "optional-dependencies": {"a": ["rope-core[b]", "x"], "b": ["y"], "c": ["z"]}}
    assert extras_closure(project, {"a"}) == {"numpy", "x", "y"}
