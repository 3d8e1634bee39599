"""scripts/build_book.py: what a build leaves for the next one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import build_book


@pytest.mark.parametrize("returncode", [0, 1])
def test_a_failed_strict_build_leaves_no_doctrees_to_hide_its_warnings(tmp_path, monkeypatch, returncode):
    doctrees = tmp_path / "_build" / ".doctrees"
    doctrees.mkdir(parents=True)
    (doctrees / "environment.pickle").write_bytes(b"read pages")

    def run(command, root):
        code = returncode if "build" in command else 0   # the execution step succeeds
        return subprocess.CompletedProcess(command, code, "", "")

    monkeypatch.setattr(build_book, "drop_stale_cache", lambda root: False)
    monkeypatch.setattr(build_book, "run_quietly", run)
    assert build_book.build(tmp_path).returncode == returncode
    assert doctrees.exists() == (returncode == 0)
