"""requirements.lock agrees with the ranges it was made from (`make lock` re-makes it).

The venv installs the lock only (Makefile), so a range edited in requirements*.txt or
pyproject.toml without `make lock` would silently not be what the book and tests run with.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
RANGE_FILES = ("requirements.txt", "requirements-dev.txt")


def read_requirements(path: Path) -> list[tuple[str, Requirement]]:
    """``(where, requirement)`` for each requirement line of a pip requirements file."""
    found = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#") or line.startswith("-r ") or line.startswith("-e ") or line == ".":
            continue
        found.append((f"{path.name}:{number}", Requirement(line)))
    return found


def project_requirements(path: Path) -> list[tuple[str, Requirement]]:
    """The dependencies and optional dependencies of pyproject.toml."""
    project = tomllib.loads(path.read_text())["project"]
    found = [(f"{path.name} dependencies", Requirement(r)) for r in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        found += [(f"{path.name} [{extra}]", Requirement(r)) for r in requirements]
    return found


def ranges(root: Path = ROOT) -> list[tuple[str, Requirement]]:
    found = []
    for name in RANGE_FILES:
        found += read_requirements(root / name)
    found += project_requirements(root / "pyproject.toml")
    return [(where, req) for where, req in found if req.marker is None or req.marker.evaluate()]


def read_lock(path: Path) -> tuple[dict[str, Version], dict[str, str]]:
    """``({name: pinned version}, {name: its "via" annotation})`` of a pip-compile lock."""
    pins, via, current = {}, {}, None
    for raw in path.read_text().splitlines():
        if raw.startswith("#") or not raw.strip():
            continue
        if raw.startswith(" "):  # "    # via ..." lines belong to the pin above
            via[current] += raw.strip().lstrip("#").strip() + "\n"
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", raw.strip())
        assert match, f"{path.name}: not an exact pin: {raw!r}"
        current = canonicalize_name(match[1])
        assert current not in pins, f"{path.name}: {match[1]} is pinned twice"
        pins[current], via[current] = Version(match[2]), ""
    return pins, via


def disagreements(root: Path = ROOT) -> list[str]:
    """Every way the lock and the ranges disagree, as readable lines (empty when they agree)."""
    pins, via = read_lock(root / "requirements.lock")
    problems = []
    wanted = set()
    for where, requirement in ranges(root):
        name = canonicalize_name(requirement.name)
        wanted.add(name)
        if name not in pins:
            problems.append(f"{where}: {requirement} is not pinned in requirements.lock")
        elif not requirement.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{where}: {requirement} but requirements.lock pins {name}=={pins[name]}")
    for name, annotation in via.items():
        direct = re.search(r"-r (requirements[\w.-]*\.txt)", annotation)
        only_direct = annotation.strip().startswith("via -r") and "\n" not in annotation.strip()
        if direct and only_direct and name not in wanted:
            problems.append(f"requirements.lock pins {name} for {direct[1]}, which no longer asks for it")
    return problems


def test_every_requirement_is_pinned_within_its_range():
    problems = disagreements()
    assert not problems, "run `make lock`:\n" + "\n".join(problems)


@pytest.mark.parametrize("edit, expected", [
    # A range moved past the pin (numpy pinned 2.x: ask for numpy 3).
    (("requirements.txt", "numpy>=1.26,<3", "numpy>=3,<4"), "but requirements.lock pins numpy=="),
    # A new requirement that was never locked.
    (("requirements-dev.txt", "pytest>=8,<10", "pytest>=8,<10\nhypofuzz>=24"), "hypofuzz>=24 is not pinned"),
    # An extra in pyproject.toml moved past the pin.
    (("pyproject.toml", 'plots = ["matplotlib>=3.8,<4"]', 'plots = ["matplotlib>=4"]'), "[plots]: matplotlib>=4"),
    # A requirement removed from the ranges but still locked for it.
    (("requirements-dev.txt", "ruff>=0.15,<0.18\n", ""), "requirements.lock pins ruff for requirements-dev.txt"),
])
def test_an_edit_without_make_lock_is_caught(tmp_path, edit, expected):
    for name in (*RANGE_FILES, "pyproject.toml", "requirements.lock"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    name, old, new = edit
    text = (tmp_path / name).read_text()
    assert old in text, f"the test's edit no longer applies to {name}: {old!r}"
    (tmp_path / name).write_text(text.replace(old, new))
    problems = disagreements(tmp_path)
    assert any(expected in problem for problem in problems), problems
