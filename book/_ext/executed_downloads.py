"""Make the downloadable .ipynb of each page carry its outputs on cached builds too.

MyST-NB writes ``_build/jupyter_execute/<page>.ipynb`` (which the theme offers for download)
from the notebook it read, and only the first, executing build fills that object with
outputs; when a page comes from the execution cache the file is written without them.
After all pages are read, this fills every such file from the cache.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from internals import execution_cache_path
from jupyter_cache import get_cache


def _fill_from_cache(app, env):
    executed = Path(app.outdir).parent / "jupyter_execute"
    cache_path = execution_cache_path(env)
    if not executed.is_dir() or not cache_path:
        return []
    cache = get_cache(cache_path)
    for path in executed.rglob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        try:
            _, merged = cache.merge_match_into_notebook(notebook)
        except KeyError:
            continue  # not cached: it was executed in this build and already has outputs
        nbformat.write(merged, path)
    return []


def setup(app):
    app.connect("env-updated", _fill_from_cache)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
