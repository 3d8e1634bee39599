"""The widgets' front end as ES modules: each widget imports the shared ones, never copies them.

In a notebook a widget's ``_esm`` is one string whose imports of ``common.js`` / ``drag.js``
are ``data:`` URLs, the same URL in every widget (the browser evaluates a module once per
URL). On the book's pages the modules are files (``static_files``) whose imports carry the
imported file's version. The browser tests render every widget both ways; these tests check
the modules link (every imported name is exported) without a browser.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from urllib.parse import unquote

import pytest

from rope_core import widgets as W
from rope_core.widgets import _base

IMPORT = re.compile(r'^import\s[^"\n;]*?from\s+"([^"]+)"', re.M)
SHARED = ("common.js", "drag.js", "lesson.js")   # modules that widgets import, not widgets


def test_every_widget_imports_each_shared_module_by_one_url():
    urls = {}
    for cls in W.REGISTRY:
        for url in IMPORT.findall(cls._esm):
            assert url.startswith("data:text/javascript;charset=utf-8,"), (cls.__name__, url[:60])
            shared = unquote(url.split(",", 1)[1])
            name = next(n for n in SHARED if shared.startswith(_base._source(n)[:200]))
            urls.setdefault(name, set()).add(url)
    assert set(urls) == set(SHARED)
    assert all(len(found) == 1 for found in urls.values()), {k: len(v) for k, v in urls.items()}
    # The shared stylesheet travels once, with common.js; a widget's _css is its own rules only.
    assert all(_base._COMMON_CSS not in cls._css for cls in W.REGISTRY)
    common = unquote(next(iter(urls["common.js"])).split(",", 1)[1])
    assert common.count(json.dumps(_base._COMMON_CSS)) == 1


def test_static_files_link_in_node(tmp_path):
    """Every module of the site imports only names the shared modules export, at their
    current version, and every widget file has its render."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    files, names = _base.static_files()
    assert sorted(names.values()) == sorted(name for name in files if name.endswith(".js"))
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        for specifier in IMPORT.findall(text):
            imported, version = re.fullmatch(r"\./([a-z_]+\.js)\?v=([0-9a-f]{12})", specifier).groups()
            assert version == _base.version(files[imported]), (name, specifier)
    widgets = sorted(set(names.values()) - set(SHARED))
    script = "\n".join(
        f'assert.equal(typeof (await import("./{name}")).default.render, "function", "{name}");'
        for name in widgets)
    done = subprocess.run([node, "--input-type=module", "-e",
                           f'import assert from "node:assert";\n{script}'],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
