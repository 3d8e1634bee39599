"""requirements.lock agrees with the ranges of pyproject.toml it was made from (`make lock`).

pyproject.toml is the one place requirements are declared; the venv, Binder and CI install the
lock only, so a range edited without `make lock` would silently not be what they run with.
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
# The extras `make lock` pins (the Makefile's LOCKED_EXTRAS); the others (goldens) are not locked.
LOCKED_EXTRAS = ("book", "lab", "test")


def project_requirements(path: Path) -> list[tuple[str, Requirement]]:
    """The dependencies and locked extras of pyproject.toml, without the project itself."""
    project = tomllib.loads(path.read_text())["project"]
    found = [(f"{path.name} dependencies", Requirement(r)) for r in project.get("dependencies", [])]
    extras = project.get("optional-dependencies", {})
    wanted, todo = set(), list(LOCKED_EXTRAS)
    while todo:  # an extra may ask for others: "rope-core[plots,widgets]"
        extra = todo.pop()
        if extra in wanted:
            continue
        wanted.add(extra)
        for text in extras[extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
                todo.extend(requirement.extras)
            else:
                found.append((f"{path.name} [{extra}]", requirement))
    return found


def ranges(root: Path = ROOT) -> list[tuple[str, Requirement]]:
    found = project_requirements(root / "pyproject.toml")
    return [(where, req) for where, req in found if req.marker is None or req.marker.evaluate()]


def read_lock(path: Path) -> tuple[dict[str, Version], dict[str, str]]:
    """``({name: pinned version}, {name: its "via" annotation})`` of a ``uv pip compile`` lock."""
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
        only_direct = annotation.strip() == "via rope-core (pyproject.toml)"
        if only_direct and name not in wanted:
            problems.append(f"requirements.lock pins {name} for pyproject.toml, which no longer asks for it")
    return problems


def test_every_requirement_is_pinned_within_its_range():
    problems = disagreements()
    assert not problems, "run `make lock`:\n" + "\n".join(problems)


@pytest.mark.parametrize("edit, expected", [
    # A range moved past the pin (numpy pinned 2.x: ask for numpy 3).
    (("pyproject.toml", '"numpy>=1.26,<3"', '"numpy>=3,<4"'), "but requirements.lock pins numpy=="),
    # A new requirement that was never locked.
    (("pyproject.toml", '"pytest>=8,<10",', '"pytest>=8,<10", "hypofuzz>=24",'), "hypofuzz>=24 is not pinned"),
    # An extra reached through another one ([book] asks for [plots]) moved past the pin.
    (("pyproject.toml", 'plots = ["matplotlib>=3.8,<4"]', 'plots = ["matplotlib>=4"]'), "[plots]: matplotlib>=4"),
    # A requirement removed from the ranges but still locked for it.
    (("pyproject.toml", '    "ruff>=0.15,<0.18",\n', ""), "requirements.lock pins ruff for pyproject.toml"),
])
def test_an_edit_without_make_lock_is_caught(tmp_path, edit, expected):
    for name in ("pyproject.toml", "requirements.lock"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    name, old, new = edit
    text = (tmp_path / name).read_text()
    assert old in text, f"the test's edit no longer applies to {name}: {old!r}"
    (tmp_path / name).write_text(text.replace(old, new))
    problems = disagreements(tmp_path)
    assert any(expected in problem for problem in problems), problems


def test_the_makefile_locks_the_extras_checked_here():
    makefile = (ROOT / "Makefile").read_text()
    line = re.search(r"^LOCKED_EXTRAS := (.*)$", makefile, re.MULTILINE)
    assert line, "Makefile: no LOCKED_EXTRAS line"
    assert tuple(re.findall(r"--extra (\S+)", line[1])) == LOCKED_EXTRAS
