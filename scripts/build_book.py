"""Build the book strictly: the one build path of ``make book`` and of the tests.

Jupyter Book caches an executed page by the page's own text. The pages also depend on what
they import and embed: rope_core (maths, plots, the widgets' JS and CSS), the installed
packages, and the ``execute`` block of ``_config.yml``. This script hashes all of that into a
key; when the key differs from the one the cache was made with, the execution cache and the
doctrees are dropped, so every page is executed again and re-read. Then the pages are
executed in parallel into the cache (``scripts/execute_chapters.py``) and the strict build
(warnings are errors) writes ``_build/html``.

A plain ``pytest`` builds through here too (``tests/conftest.py``), so editing a widget's JS
and running the tests rebuilds the pages with the new JS: no stale page can pass.

Usage: python scripts/build_book.py [--key]   (--key: print the cache key and exit)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "_build"
KEY_FILE = BUILD / ".jupyter_cache.key"
DROPPED_WITH_KEY = (BUILD / ".jupyter_cache", BUILD / ".doctrees")
# ipykernel prints this once per kernel (one per page); it says nothing about the book.
NOISE = ("Kernel is running over TCP without encryption",)


def cache_key(root: Path = ROOT) -> str:
    """Hash of everything an executed page depends on besides its own text."""
    digest = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    for path in sorted((root / "rope_core").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            add(str(path.relative_to(root)), path.read_bytes())
    for name in ("requirements.txt", "requirements-dev.txt", "requirements.lock"):
        if (root / name).exists():
            add(name, (root / name).read_bytes())
    installed = sorted(
        f"{dist.metadata['Name']}=={dist.version}".lower()
        for dist in metadata.distributions()
        if dist.metadata["Name"]
    )
    add("installed", "\n".join(installed).encode())
    config = yaml.safe_load((root / "_config.yml").read_text()) or {}
    add("execute", json.dumps(config.get("execute"), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def drop_stale_cache(root: Path = ROOT) -> bool:
    """Drop the execution cache and doctrees if they were made under another key."""
    key = cache_key(root)
    key_file = root / KEY_FILE.relative_to(ROOT)
    old = key_file.read_text().strip() if key_file.exists() else None
    if old == key:
        return False
    for path in DROPPED_WITH_KEY:
        shutil.rmtree(root / path.relative_to(ROOT), ignore_errors=True)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(key + "\n")
    if old is not None:  # a fresh clone has nothing to drop: say nothing
        print("rope_core, the installed packages or the execute settings changed: "
              "every page is executed again")
    return True


def run_quietly(command: list[str], root: Path = ROOT) -> subprocess.CompletedProcess:
    """Run ``command``, echoing its output live without the kernels' noise lines."""
    lines = []
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYDEVD_DISABLE_FILE_VALIDATION="1")
    with subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env) as process:
        for line in process.stdout:
            if any(noise in line for noise in NOISE):
                continue
            lines.append(line)
            sys.stdout.write(line)
            sys.stdout.flush()
    return subprocess.CompletedProcess(command, process.returncode, "".join(lines), "")


def build(root: Path = ROOT) -> subprocess.CompletedProcess:
    """Drop a stale cache, execute the pages in parallel, then build strictly."""
    drop_stale_cache(root)
    python = sys.executable
    executed = run_quietly([python, str(root / "scripts" / "execute_chapters.py")], root)
    if executed.returncode != 0:
        return executed
    jupyter_book = str(Path(python).with_name("jupyter-book"))
    result = run_quietly([jupyter_book, "build", ".", "-W", "-n", "--keep-going", "--quiet"],
                         root)
    result.stdout = executed.stdout + result.stdout
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", action="store_true", help="print the cache key and exit")
    args = parser.parse_args(argv)
    if args.key:
        print(cache_key())
        return 0
    return build().returncode


if __name__ == "__main__":
    sys.exit(main())
