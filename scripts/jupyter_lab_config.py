"""Jupyter server settings for `make lab` (loaded with ``--config``).

Saving a chapter must leave git clean when nothing was changed. Jupytext's contents manager
writes a notebook back to MyST markdown through its own YAML writer, which re-wraps every
cell's metadata block (flow lists become block lists, ``caption: |`` blocks become quoted
strings), so a plain open-and-save or an autosave would rewrite 20-100 lines of a chapter.
``jupytext.toml`` filters the metadata JupyterLab adds; this hook does the rest: when the text
about to be written describes the same notebook as the file on disk (same cells, sources and
metadata, as jupytext reads them) as the file on disk or the file in git's last commit, those
bytes are written instead (so an edit that was autosaved and then undone leaves git clean).
A real edit changes only the lines it touched: the edit, as jupytext renders it, is merged
into the file's own text (see ``_apply_edit_to_original``).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Jupyter runs this file with its own path as __file__; book_pages sits beside it, and
# internals (the one place for undocumented internals) in book/_ext.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parents[1] / "book" / "_ext"))  # last: shadows nothing
import book_pages  # what a MyST notebook is, as the build decides it
from internals import contents_os_path


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
    if not isinstance(new_text, str) or not book_pages.is_myst_notebook(new_text):
        return
    os_path = Path(contents_os_path(contents_manager, path))
    try:
        old_text = os_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if old_text == new_text:
        return
    # The file as it is, then as git has it: an edit that was autosaved and then undone
    # gets the committed bytes back.
    for candidate in (old_text, _committed_text(os_path)):
        if not candidate or not book_pages.is_myst_notebook(candidate):
            continue
        try:
            unchanged = _notebook_key(candidate) == _notebook_key(new_text)
        except Exception:  # a file jupytext cannot read is saved as usual
            return
        if unchanged:
            model["content"] = candidate
            return
    # A real edit: carry over only what changed, so that a one-line edit is a one-line diff.
    merged = _apply_edit_to_original(old_text, new_text)
    if merged is not None:
        model["content"] = merged


def _as_javascript_numbers(value):
    """``value`` as it comes back from the browser: JavaScript has one number type, so a
    float such as ``1.0`` in a cell's metadata returns as ``1``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return type(value)((key, _as_javascript_numbers(item)) for key, item in value.items())
    if isinstance(value, list):
        return [_as_javascript_numbers(item) for item in value]
    return value


def _canonical(text: str) -> str:
    """A MyST notebook as jupytext writes it after a round trip through JupyterLab."""
    import jupytext

    notebook = jupytext.reads(text, fmt="md:myst")
    notebook.metadata = _as_javascript_numbers(notebook.metadata)
    for cell in notebook.cells:
        cell.metadata = _as_javascript_numbers(cell.metadata)
    return jupytext.writes(notebook, fmt="md:myst")


def _apply_edit_to_original(old_text: str, new_text: str) -> str | None:
    """The file's own text with the reader's edit applied, or None when that cannot be done.

    ``new_text`` is jupytext's rendering of the edited notebook, whose layout differs from the
    file's in places a reader never touched (YAML re-wrapped, ``1.0`` written ``1``). A
    three-way merge of (file, jupytext's rendering of the file, ``new_text``) keeps the file's
    layout everywhere except in the lines the edit changed. The result is used only when it
    reads back as exactly the notebook being saved.
    """
    import subprocess
    import tempfile

    try:
        # Both renderings with the browser's numbers, so that only the edit tells them apart.
        base, other = _canonical(old_text), _canonical(new_text)
        with tempfile.TemporaryDirectory() as folder:
            files = []
            for name, text in (("current", old_text), ("base", base), ("other", other)):
                files.append(Path(folder) / name)
                files[-1].write_text(text, encoding="utf-8")
            done = subprocess.run(
                ["git", "merge-file", "-p", "--theirs", *map(str, files)],
                capture_output=True, timeout=20,
            )
        if done.returncode < 0 or done.returncode > 127:
            return None
        merged = done.stdout.decode("utf-8")
        return merged if _notebook_key(merged) == _notebook_key(new_text) else None
    except Exception:  # no git, or a text jupytext cannot read: save jupytext's rendering
        return None


def _committed_text(os_path: Path) -> str | None:
    """The file's text in the last commit (None outside git or for a new file)."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "show", f"HEAD:./{os_path.name}"],
            cwd=os_path.parent, capture_output=True, timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


from jupytext.async_contentsmanager import AsyncTextFileContentsManager  # noqa: E402


class BookContentsManager(AsyncTextFileContentsManager):
    """Jupytext's contents manager that saves a chapter as only the lines an edit changed."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Registered here, not through the pre_save_hook option: Jupyter may apply a config
        # file twice, and setting that option again warns on every start.
        self.register_pre_save_hook(keep_unchanged_notebook_text)

    async def save(self, model, path=""):
        # JupyterLab renames the kernel it started ("Python 3 (ipykernel)"): keep the file's
        # kernelspec while it names the same kernel, so running a chapter changes nothing.
        if model.get("type") == "notebook" and str(path).endswith(".md"):
            os_path = Path(contents_os_path(self, path.strip("/")))
            if os_path.is_file():
                import jupytext

                try:
                    on_disk = jupytext.read(os_path).metadata.get("kernelspec")
                except Exception:  # an unreadable file is saved over as usual
                    on_disk = None
                metadata = model["content"].setdefault("metadata", {})
                kernelspec = metadata.get("kernelspec") or {}
                if on_disk and kernelspec.get("name") == on_disk.get("name"):
                    metadata["kernelspec"] = dict(on_disk)
        return await super().save(model, path)


c = get_config()  # noqa: F821 - provided by Jupyter when it loads this file
c.ServerApp.contents_manager_class = BookContentsManager
