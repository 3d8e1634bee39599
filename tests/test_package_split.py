"""``pip install rope-core`` is the library; the book's part of rope_core is rope-book.

One tree, one import package, two distributions: ``pyproject.toml`` builds rope-core (the
maths, the configs, check_rope, the CLI) and ``rope-book/pyproject.toml`` builds rope-book
(``rope_core.demos``, ``.plots``, ``.widgets``, ``.tinymodel`` with their data). The fast tests
read the sources; the ``slow`` ones build the wheels (``scripts/build_wheels.py``, what
``make wheels`` runs) and install the library's wheel alone in a scratch venv.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib

from rope_core import _extras

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import build_wheels  # noqa: E402

# The library's wheel was 202 kB when the book's part left it (1.28 MB before, with the
# corpus, the checkpoints and the widget JavaScript); the survey of transformers' model types
# (configs/transformers_survey.jsonl, 0.9 MB unpacked) is most of it. Room to grow, not to
# take the book back.
CORE_WHEEL_BOUND_BYTES = 300_000
BOOK_PROJECT = tomllib.loads((ROOT / "rope-book" / "pyproject.toml").read_text())
CORE_PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def core_modules() -> list[Path]:
    """The modules the library's wheel ships: rope_core/*.py, no subpackage."""
    return sorted((ROOT / "rope_core").glob("*.py"))


def imported_names(path: Path) -> set[str]:
    """Absolute names ``path`` imports, relative imports resolved inside rope_core."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a module of rope_core/ itself: one dot is rope_core
                base = "rope_core" + (f".{node.module}" if node.module else "")
                names.update({base} if node.module else {f"rope_core.{a.name}" for a in node.names})
            elif node.module:
                names.add(node.module)
    return names


# --- the sources: what each distribution is made of -----------------------------------------

def test_the_book_part_is_every_subpackage_of_rope_core_and_nothing_else():
    subpackages = {f"rope_core.{path.parent.name}" for path in (ROOT / "rope_core").glob("*/__init__.py")}
    assert set(_extras.BOOK_PARTS) == subpackages
    assert BOOK_PROJECT["tool"]["setuptools"]["packages"] == list(_extras.BOOK_PARTS)
    assert BOOK_PROJECT["tool"]["setuptools"]["package-dir"] == {"": ".."}
    assert CORE_PROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["rope_core"]


def test_rope_book_has_rope_cores_version_and_asks_for_it_with_the_book_extras():
    version = CORE_PROJECT["project"]["version"]
    assert BOOK_PROJECT["project"]["version"] == version
    assert BOOK_PROJECT["project"]["dependencies"] == [f"rope-core[plots,widgets]=={version}"]


# The one import of the library that is neither NumPy nor the standard library: claims.py
# shows a cell's checked claims as one line, and imports IPython only when it already runs
# inside a Jupyter kernel (sys.modules has IPython and a kernel): never on a plain install.
IMPORTED_ONLY_INSIDE_A_KERNEL = {("claims.py", "IPython.display")}


def test_the_librarys_modules_import_numpy_the_standard_library_and_each_other_only():
    core = {f"rope_core.{path.stem}" for path in core_modules()} | {"rope_core"}
    problems = []
    for path in core_modules():
        for name in imported_names(path) - {n for f, n in IMPORTED_ONLY_INSIDE_A_KERNEL if f == path.name}:
            top = name.split(".")[0]
            if top == "rope_core":
                if name not in core:
                    problems.append(f"{path.name} imports {name}")
            elif top not in sys.stdlib_module_names and top not in ("numpy", "__future__"):
                problems.append(f"{path.name} imports {name}")
    assert not problems, problems


def test_the_scan_resolves_relative_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from .widgets import X\nfrom . import plots\nimport numpy.linalg\n")
    assert imported_names(module) == {"rope_core.widgets", "rope_core.plots", "numpy.linalg"}


@pytest.mark.parametrize("name", ["rope_core.widgets", "rope_core.tinymodel",
                                  "rope_core.plots", "rope_core.demos"])
def test_a_book_part_that_is_not_installed_names_the_distribution_and_the_command(name):
    with pytest.raises(ModuleNotFoundError) as caught:
        _extras.MissingBookPart.find_spec(name)
    message = str(caught.value)
    assert caught.value.name == name
    assert "rope-book" in message and "pip install" in message
    assert "#subdirectory=rope-book" in message


# A module missing from an installed part keeps Python's own "No module named ...".
@pytest.mark.parametrize("name", ["rope_core.apply", "rope_core.widgetsmith", "numpy", "matplotlib",
                                  "rope_core.widgets.no_such_widget", "rope_core.tinymodel.train"])
def test_other_modules_are_left_to_the_other_finders(name):
    assert _extras.MissingBookPart.find_spec(name) is None


def test_the_missing_part_finder_is_last_and_only_once_on_the_import_path():
    import rope_core  # noqa: F401

    _extras.report_missing_book_parts()
    mine = [finder for finder in sys.meta_path if finder is _extras.MissingBookPart]
    assert len(mine) == 1
    # After every finder that finds modules on the path: the standard one and editable installs'
    # (importlib_metadata's MetadataPathFinder finds distributions only, and may come later).
    finders_of_modules = [index for index, finder in enumerate(sys.meta_path)
                          if finder is importlib.machinery.PathFinder or "EditableFinder" in repr(finder)]
    assert sys.meta_path.index(mine[0]) > max(finders_of_modules)


def test_the_venv_binder_and_the_notebooks_branch_install_both_distributions():
    makefile = (ROOT / "Makefile").read_text()
    assert "--no-deps -e .\n" in makefile and "--no-deps -e rope-book" in makefile
    assert re.search(r"^wheels: .*\n\t\$\(BIN\)/python scripts/build_wheels.py dist$", makefile,
                     re.MULTILINE)
    binder = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert binder[-2:] == [".", "./rope-book"]
    assert 'cp -r rope_core rope-book ' in (ROOT / ".github" / "workflows" / "pages.yml").read_text()


def test_the_dev_venv_has_both_distributions_and_imports_the_tree():
    from importlib import metadata

    import rope_core
    import rope_core.demos

    assert metadata.version("rope-core") == metadata.version("rope-book")
    assert Path(rope_core.__file__).parent == ROOT / "rope_core"
    assert Path(rope_core.demos.__file__).parent == ROOT / "rope_core" / "demos"


# --- the wheels --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    return build_wheels.build_wheels(tmp_path_factory.mktemp("wheels"))


def tracked_files_under_rope_core() -> set[str]:
    listed = subprocess.run(["git", "ls-files", "rope_core"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return {name for name in listed if (ROOT / name).exists()}


@pytest.mark.slow
def test_the_core_wheel_is_the_library_without_the_books_files(wheels):
    wheel = wheels["rope-core"]
    files = [name for name in zipfile.ZipFile(wheel).namelist() if name.startswith("rope_core/")]
    assert not [name for name in files if name.endswith((".js", ".css", ".npz", ".gz"))]
    assert not [name for name in files if re.match(r"rope_core/(demos|plots|widgets|tinymodel)/", name)]
    assert {"rope_core/__init__.py", "rope_core/__main__.py", "rope_core/testing.py",
            "rope_core/configs/transformers_survey.jsonl"} <= set(files)
    assert wheel.stat().st_size < CORE_WHEEL_BOUND_BYTES, wheel.stat().st_size
    metadata = zipfile.ZipFile(wheel).read("rope_core-0.1.0.dist-info/METADATA").decode()
    always = [line for line in metadata.splitlines()
              if line.startswith("Requires-Dist:") and "extra ==" not in line]
    assert [line.split(":", 1)[1].split(";")[0].replace(" ", "") for line in always] == ["numpy<3,>=1.26"]
    entry_points = zipfile.ZipFile(wheel).read("rope_core-0.1.0.dist-info/entry_points.txt").decode()
    assert "rope-core = rope_core.__main__:main" in entry_points


@pytest.mark.slow
def test_every_file_of_rope_core_is_in_exactly_one_wheel(wheels):
    core = {n for n in zipfile.ZipFile(wheels["rope-core"]).namelist() if n.startswith("rope_core/")}
    book = {n for n in zipfile.ZipFile(wheels["rope-book"]).namelist() if n.startswith("rope_core/")}
    assert not core & book
    assert "rope_core/widgets/rotation_explorer.js" in book
    assert "rope_core/tinymodel/corpus/shakespeare_tragedies.txt.gz" in book
    assert core | book == tracked_files_under_rope_core()


def scratch_venv(path: Path) -> Path:
    subprocess.run([build_wheels.uv_command(), "venv", "--quiet", "--python", sys.executable,
                    str(path)], check=True)
    return path / "bin" / "python"


def install(python: Path, *requirements) -> None:
    subprocess.run([build_wheels.uv_command(), "pip", "install", "--quiet", "--python",
                    str(python), *map(str, requirements)], check=True, timeout=600)


CORE_ONLY_PROBE = """
import importlib.util, json, warnings
from importlib import resources
import rope_core
from rope_core.testing import check_rope
assert check_rope(rope_core.apply_rope, head_dim=64).ok
# afmoe has no hand-written family: from_config reads it through the shipped survey of
# transformers, without the warning a generic reading gives.
survey = resources.files("rope_core").joinpath("configs", "transformers_survey.jsonl")
record = next(json.loads(line) for line in survey.read_text().splitlines()
              if '"model_type": "afmoe"' in line)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    print("SPEC", rope_core.from_config(record["config"]).base)
for name in ("matplotlib", "anywidget", "ipywidgets"):
    assert importlib.util.find_spec(name) is None, name + " is installed"
try:
    import rope_core.widgets
except ModuleNotFoundError as error:
    print("WIDGETS", error)
try:
    from rope_core.tinymodel import train
except ModuleNotFoundError as error:
    print("TINYMODEL", error.name, "rope-book" in str(error))
"""


@pytest.mark.slow
def test_the_core_wheel_alone_runs_the_cli_and_check_rope_then_the_book_wheel_adds_the_widgets(
        wheels, tmp_path):
    python = scratch_venv(tmp_path / "venv")
    install(python, wheels["rope-core"])
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}

    def run(*command):
        result = subprocess.run([*map(str, command)], cwd=tmp_path, env=env, capture_output=True,
                                text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        return result.stdout

    installed = run(python, "-m", "pip", "list", "--format=freeze") if (python.parent / "pip").exists() else ""
    assert "matplotlib" not in installed
    assert "GPT-J 6B" in run(python, "-m", "rope_core", "models")
    config = "qwen3-30b-a3b.json"
    shipped = run(python, "-c", "import rope_core, pathlib; print(pathlib.Path(rope_core.__file__).parent)")
    inspected = run(tmp_path / "venv" / "bin" / "rope-core", "inspect",
                    Path(shipped.strip()) / "configs" / config)
    assert "qwen3_moe" in inspected and "base (rope_theta) 1e+06" in inspected, inspected
    probe = run(python, "-c", CORE_ONLY_PROBE)
    assert "SPEC 10000.0" in probe, probe
    assert "WIDGETS rope_core.widgets is part of the RoPE book" in probe and "rope-book" in probe
    assert "TINYMODEL rope_core.tinymodel True" in probe, probe

    install(python, wheels["rope-core"], wheels["rope-book"])
    shown = run(python, "-c", "import rope_core.widgets as w, rope_core.tinymodel.train, "
                              "rope_core.plots; print(len(w.REGISTRY), w.__file__)")
    assert str(tmp_path / "venv") in shown, shown
    missing = subprocess.run([str(python), "-c", "import rope_core.widgets.no_such_widget"],
                             cwd=tmp_path, env=env, capture_output=True, text=True)
    assert "No module named 'rope_core.widgets.no_such_widget'" in missing.stderr, missing.stderr


def test_the_error_the_readme_and_the_notebooks_name_one_install_of_this_repository():
    import yaml

    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    core, book = f"rope-core[plots,widgets] @ git+{url}", f"rope-book @ git+{url}#subdirectory=rope-book"
    assert _extras.BOOK_INSTALL == f'pip install "{core}" "{book}"'
    readme = (ROOT / "README.md").read_text()
    assert f'"{core}"' in readme and f'"{book}"' in readme
    import export_notebooks

    assert export_notebooks.DEFAULT_REQUIREMENTS == f"'{core}' '{book}'"
