"""The command line on real configs: ``rope_core.__main__.main`` called in this process (as fast
as a function call), and once as ``python -m rope_core`` in a subprocess, as a shell runs it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rope_core import atlas, from_config
from rope_core.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "rope_core" / "configs"
SAVED = ROOT / "tests" / "fixtures" / "saved_by_transformers5"


def run(*args):
    """``rope-core *args`` from the repository root, in this process: exit code, stdout, stderr."""
    stdout, stderr, cwd = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(ROOT)  # the paths in the tests are relative to the root, as in the README
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                code = main([str(arg) for arg in args])
            except SystemExit as exit_:  # argparse's usage errors
                code = exit_.code
    finally:
        os.chdir(cwd)
    return subprocess.CompletedProcess(["rope-core", *args], code, stdout.getvalue(), stderr.getvalue())


def run_as_program(*args):
    return subprocess.run([sys.executable, "-m", "rope_core", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_the_console_script_points_at_the_same_main():
    pyproject = (ROOT / "pyproject.toml").read_text()
    section = pyproject.split("[project.scripts]")[1].split("\n[")[0]
    assert 'rope-core = "rope_core.__main__:main"' in section


def test_inspect_prints_the_rope_of_exaone4_with_its_nope_layers_and_bands():
    result = run("inspect", CONFIGS / "exaone-4.0-32b.json")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "model_type 'exaone4'" in out and "not a type" not in out
    assert "layers          64; without RoPE: 3, 7, 11" in out
    assert "layer type 'sliding_attention': layers 0-2, 4-6" in out
    for text in ("rope_type         llama3", "base (rope_theta) 1e+06", "head_dim          128",
                 "rotary_dim        128", "half (rotate_half, vLLM/exllama 'neox')",
                 "attention factor  1 ", "trained to        8 192", "max positions     131 072",
                 "as base^(-2i/d)", "divided by 16 "):
        assert text in out, text
    assert "guess" not in out


def test_inspect_json_agrees_with_from_config():
    config = json.loads((CONFIGS / "minimax-m2.json").read_text())
    result = run("inspect", CONFIGS / "minimax-m2.json", "--json")
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    spec = from_config(config)
    (rope,) = info["rope"]
    assert (rope["head_dim"], rope["rotary_dim"], rope["layout"]) == (128, 64, "half")
    assert rope["inverse_frequencies"] == spec.inverse_frequencies.tolist()
    assert info["known_model_type"] and info["guesses"] == []


def test_inspect_layer_type_and_seq_len():
    kimi = run("inspect", CONFIGS / "kimi-k2-instruct.json")
    assert "written back in half order" in kimi.stdout and "softmax factor    1.81326" in kimi.stdout
    assert "features 128..191" in kimi.stdout
    phi = run("inspect", CONFIGS / "phi-4-mini-instruct.json", "--seq-len", "8192", "--json")
    (rope,) = json.loads(phi.stdout)["rope"]
    assert rope["seq_len"] == 8192 and rope["bands"][-1]["factor"][1] == pytest.approx(47.77)



def test_inspect_one_layer_type_of_a_per_layer_model(tmp_path):
    path = tmp_path / "gemma3.json"
    path.write_text(json.dumps(atlas.entry("gemma-3-4b").config_dict()))
    both = run("inspect", path).stdout
    assert "layer type 'sliding_attention'" in both and "layer type 'full_attention'" in both
    out = run("inspect", path, "--layer-type", "sliding_attention").stdout
    assert "layer type 'sliding_attention'" in out and "layer type 'full_attention'" not in out
    wrong = run("inspect", path, "--layer-type", "chunked_attention")
    assert wrong.returncode == 2 and "chunked_attention" in wrong.stderr


def test_inspect_tells_its_guess_for_an_unknown_model_type(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "new_model", "hidden_size": 1024, "num_attention_heads": 8}))
    result = run("inspect", path)
    assert result.returncode == 0
    assert "(not a type rope_core knows: read generically, see guess)" in result.stdout
    assert "guess: unknown model_type 'new_model' read generically: RoPE on every layer" in result.stdout
    strict = run("inspect", path, "--strict")
    assert strict.returncode == 2 and "strict=True refuses" in strict.stderr
    both = run("compare", path, path)
    assert both.stdout.count("  guess (") == 1 and "  guess (both): " in both.stdout
    known = run("inspect", CONFIGS / "minimax-m2.json", "--strict")
    assert known.returncode == 0, known.stderr


@pytest.mark.parametrize("name", ["minimax-m2", "exaone-4.0-32b", "qwen3-next-80b-a3b"])
def test_compare_a_published_config_with_its_transformers5_save(name):
    result = run("compare", CONFIGS / f"{name}.json", SAVED / f"{name}.json")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == "  the same RoPE"


def test_compare_names_what_differs():
    result = run("compare", CONFIGS / "glm-4.5-air.json", CONFIGS / "glm-4.5-air-no-partial-key.json")
    assert "the same RoPE" in result.stdout       # transformers' 0.5 default applies
    result = run("compare", CONFIGS / "qwen3-30b-a3b.json", CONFIGS / "qwen3-next-80b-a3b.json")
    out = result.stdout
    assert "model_type: qwen3_moe | qwen3_next" in out
    assert "base: 1000000.0 | 10000000.0" in out and "nope_layers: none | 0-2, 4-6" in out


def test_models_lists_the_atlas():
    result = run("models")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    titles = [entry.title for entry in atlas.entries()]
    assert all(any(line.startswith(title) for line in lines) for title in titles)


@pytest.mark.parametrize("content, words", [
    (None, "cannot read"),
    ("{not json", "is not JSON"),
    ("[1, 2]", "not a config object"),
    ('{"model_type": "new_model", "hidden_size": 64, "num_attention_heads": 2, "rotary_dim": 8}',
     "'rotary_dim' = 8"),
    ('{"model_type": "llama", "head_dim": 100000000}', "head_dim'] = 100000000 is not a head width"),
    ('{"model_type": "llama", "head_dim": 64, "rope_theta": "5e5"}', "config['rope_theta']"),
])
def test_errors_exit_non_zero_with_the_library_message(tmp_path, content, words):
    path = tmp_path / "config.json"
    if content is not None:
        path.write_text(content)
    result = run("inspect", path)
    assert result.returncode == 2
    assert result.stderr.startswith("rope-core: error: ") and words in result.stderr
    assert "Traceback" not in result.stderr


def test_the_readme_shows_what_inspect_prints():
    readme = (ROOT / "README.md").read_text()
    command = "$ rope-core inspect rope_core/configs/minimax-m2.json\n"
    shown = readme.split(command)[1].split("```")[0]
    assert shown == run_as_program("inspect", "rope_core/configs/minimax-m2.json").stdout
