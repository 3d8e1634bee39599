"""Jupyter server settings for `make lab` (loaded with ``--config``).

Saving a chapter must leave git clean when nothing was changed. Jupytext's contents manager
writes a notebook back to MyST markdown through its own YAML writer, which re-wraps every
cell's metadata block (flow lists become block lists, ``caption: |`` blocks become quoted
strings), so a plain open-and-save or an autosave would rewrite 20-100 lines of a chapter.
``jupytext.toml`` filters the metadata JupyterLab adds; this hook does the rest: when the text
about to be written describes the same notebook as the file on disk (same cells, sources and
metadata, as jupytext reads them), the file's own bytes are written back unchanged. A real
edit is saved as jupytext writes it.
"""

from __future__ import annotations

from pathlib import Path


def _notebook_key(text: str):
    """What a MyST notebook says, independent of how its YAML is laid out."""
    import jupytext

    notebook = jupytext.reads(text, fmt="md:myst")
    metadata = {key: value for key, value in notebook.metadata.items() if key != "jupytext"}
    cells = [(cell.cell_type, cell.source, dict(cell.metadata)) for cell in notebook.cells]
    return metadata, cells


def keep_unchanged_notebook_text(model, path, contents_manager, **kwargs):
    """Pre-save hook: write a MyST notebook's existing text back when its content is unchanged."""
    if model.get("type") != "file" or model.get("format") != "text" or not path.endswith(".md"):
        return
    new_text = model.get("content")
    if not isinstance(new_text, str) or not new_text.startswith("---\njupytext:"):
        return
    os_path = Path(contents_manager._get_os_path(path))
    try:
        old_text = os_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if old_text == new_text or not old_text.startswith("---\njupytext:"):
        return
    try:
        unchanged = _notebook_key(old_text) == _notebook_key(new_text)
    except Exception:  # noqa: BLE001 - a file jupytext cannot read is saved as usual
        return
    if unchanged:
        model["content"] = old_text


c = get_config()  # noqa: F821 - provided by Jupyter when it loads this file
c.ContentsManager.pre_save_hook = keep_unchanged_notebook_text
