"""scripts/mutate_widgets.py knows every widget of the registry and makes mutants that run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rope_core.widgets import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import mutate_widgets  # noqa: E402  (a script's module, not a package)

NAMES = [cls.__name__ for cls in REGISTRY]


def test_every_registered_widget_has_its_modules_known():
    modules = mutate_widgets.widget_modules()
    assert set(NAMES) <= set(modules), set(NAMES) - set(modules)
    for cls in REGISTRY:
        # the file the class's front end is read from (its _esm starts with the file's text)
        own = [stem for stem in modules[cls.__name__]
               if cls._esm.startswith((ROOT / "rope_core" / "widgets" / f"{stem}.js").read_text()[:300])]
        assert len(own) == 1, (cls.__name__, modules[cls.__name__])


def test_every_widget_module_gets_mutants_and_the_heat_map_the_sign_and_off_by_one_ones():
    mutants = mutate_widgets.all_mutants()
    modules = mutate_widgets.widget_modules()
    for name in NAMES:
        stems = modules[name] - {"lesson", "drag"}
        assert any(m.path.stem in stems for m in mutants), name
    heatmap = {m.operator: m for m in mutants if m.path.name == "rotation_matrix_heatmap.js"}
    assert {"index", "sign", "cos-sin", "coordinate"} <= set(heatmap)
    text = heatmap["sign"].path.read_text()
    assert heatmap["sign"].apply(text).count("-Math.sin(") == text.count("-Math.sin(") + 1
    assert "state.m + 1" in heatmap["index"].new


def test_every_widget_python_file_is_a_target():
    """trained.py is read (its class draws tables computed in rope_core.tinymodel, and it has
    no site of the table or boundary kinds); explorers.py and part_two.py get mutants."""
    targets = {path.name for path in mutate_widgets.widget_sources()}
    assert targets == {"explorers.py", "part_two.py", "trained.py"}, targets
    files = {m.path.name for m in mutate_widgets.all_mutants() if m.path.suffix == ".py"}
    assert {"explorers.py", "part_two.py"} <= files, files


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_js_mutant_is_valid_javascript(tmp_path):
    """A mutant that does not parse is 'caught' by every test: it would measure nothing."""
    for number, mutant in enumerate(m for m in mutate_widgets.all_mutants() if m.path.suffix == ".js"):
        target = tmp_path / f"{number}-{mutant.path.stem}.mjs"
        target.write_text(mutant.apply(mutant.path.read_text()))
        done = subprocess.run(["node", "--check", str(target)], capture_output=True, text=True)
        assert done.returncode == 0, (mutant.describe(mutant.path.read_text()), done.stderr[-400:])
