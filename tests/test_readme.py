"""The README's Python examples run, in order, as a reader would paste them."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run_and_print_what_they_say(capsys):
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.M | re.S)
    assert len(blocks) >= 3, "the library section has its layout, from_config and check_rope examples"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    printed = capsys.readouterr().out
    assert "llama3 128 half" in printed      # the comment beside from_config's print
    assert "RoPE check passed" in printed    # the comment beside check_rope's print
    assert namespace["rotated"].shape == namespace["queries"].shape == (16, 128)
