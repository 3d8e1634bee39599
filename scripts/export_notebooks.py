"""Write a self-contained .ipynb copy of every MyST-notebook page (the Colab/download route).

Usage: python scripts/export_notebooks.py SOURCE_DIR OUTPUT_DIR [--install-from SPEC]

Plain Jupyter (Colab, VS Code, JupyterLab without extensions) renders only CommonMark, so
each copy is turned into plain notebook markdown:

* ``admonition`` → a block quote with a bold title; ``exercise`` → "**Exercise N: title**";
* ``solution`` → a ``<details>`` block, closed until the reader opens it;
* labelled equations ``$$ … $$ (label)`` → ``\\tag{N}``; ``{eq}`` → "(N)"; ``{numref}`` →
  "Figure N", or "chapter N" linked to that chapter's notebook; ``{doc}`` → a link to the
  other notebook with its title; ``{ref}`` → the exercise or section it names; ``(label)=``
  targets → HTML anchors;
* a figure's ``mystnb.figure.caption`` → a markdown cell "*Figure N.* caption" under it.

The first cell installs the book's packages when they are missing (Colab has none of them):
``%pip install 'rope-core[plots,widgets] @ git+<repository>' 'rope-book @ git+<repository>#subdirectory=rope-book'``
(the library, and the book's part of rope_core: demos, plots, widgets, the tiny model);
``--install-from`` replaces these pip arguments (tests install from the local checkout).
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import jupytext
import nbformat
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book_pages  # the pages of _toc.yml, in reading order

ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
# pip's arguments, each in single quotes (the install cell's error message holds them in a
# double-quoted string): rope-core is the repository's root, rope-book its folder rope-book/.
DEFAULT_REQUIREMENTS = (f"'rope-core[plots,widgets] @ git+{REPOSITORY}' "
                        f"'rope-book @ git+{REPOSITORY}#subdirectory=rope-book'")

INSTALL_CELL = """\
# Set-up for Colab and any Python without the book's package: install rope_core (with its
# figures and widgets) from the book's repository. Where it is already installed (`make lab`,
# Binder) this cell installs nothing.
import importlib
import importlib.util

if importlib.util.find_spec("rope_core") is None:
    %pip install --quiet {requirements}
    importlib.invalidate_caches()
    if importlib.util.find_spec("rope_core") is None:
        raise RuntimeError(
            "Installing rope_core failed (pip's message is above), so no cell below can run. "
            "Check the network, then run this cell again, or install it yourself with: "
            "pip install {requirements}"
        )
"""

FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[a-zA-Z0-9_-]+)\}\s*(?P<argument>.*?)\s*$")
EQUATION_END = re.compile(r"^\$\$\s*\((?P<label>[^)\s]+)\)\s*$")
TARGET = re.compile(r"^\((?P<label>[A-Za-z0-9_.:-]+)\)=\s*$")
ROLE = re.compile(r"\{(?P<role>doc|eq|ref|numref|func|class|meth|mod|attr|term|math)\}`(?P<body>[^`]*)`")


# --- what every page defines: titles, equation/figure/exercise numbers, section labels -------


class BookIndex:
    """Numbers and titles the cross-references of every page point to."""

    def __init__(self, pages: list[Path]):
        self.titles: dict[str, str] = {}
        self.equations: dict[str, tuple[str, int]] = {}
        self.figures: dict[str, tuple[str, int]] = {}
        self.exercises: dict[str, tuple[str, int, str]] = {}
        self.sections: dict[str, tuple[str, str]] = {}
        self.chapters: dict[str, tuple[str, int]] = {}  # label above a chapter's title -> (stem, number)
        self._numbers = {page.path.stem: page.number for page in book_pages.pages(ROOT) if page.number}
        for page in pages:
            self._scan(page)

    def _scan(self, page: Path):
        stem = page.stem
        notebook = jupytext.read(page)
        n_equation = n_figure = n_exercise = 0
        pending_target = None
        for cell in notebook.cells:
            if cell.cell_type == "code":
                figure = (cell.metadata.get("mystnb") or {}).get("figure") or {}
                if figure.get("name"):
                    n_figure += 1
                    self.figures[figure["name"]] = (stem, n_figure)
                continue
            lines = cell.source.splitlines()
            for index, line in enumerate(lines):
                if line.startswith("# ") and stem not in self.titles:
                    self.titles[stem] = line[2:].strip()
                if match := EQUATION_END.match(line):
                    n_equation += 1
                    self.equations[match["label"]] = (stem, n_equation)
                if match := TARGET.match(line):
                    pending_target = match["label"]
                    continue
                if pending_target and line.startswith("#"):
                    self.sections[pending_target] = (stem, line.lstrip("#").strip())
                    if line.startswith("# ") and stem in self._numbers:
                        self.chapters[pending_target] = (stem, self._numbers[stem])
                    pending_target = None
                if (match := FENCE.match(line)) and match["name"] == "exercise":
                    n_exercise += 1
                    label = _option(lines[index + 1 :], "label")
                    if label:
                        self.exercises[label] = (stem, n_exercise, match["argument"])


def _option(lines: list[str], name: str) -> str | None:
    for line in lines:
        if not line.startswith(":"):
            return None
        key, _, value = line[1:].partition(":")
        if key.strip() == name:
            return value.strip()
    return None


# --- markdown cells ------------------------------------------------------------------------


class PageConverter:
    def __init__(self, page: Path, index: BookIndex):
        self.page = page
        self.stem = page.stem
        self.index = index

    def _link_to(self, stem: str, text: str, anchor: str = "") -> str:
        if stem == self.stem:
            return f"[{text}](#{anchor})" if anchor else text
        return f"[{text}]({stem}.ipynb{'#' + anchor if anchor else ''})"

    def role(self, match: re.Match) -> str:
        role, body = match["role"], match["body"]
        explicit = re.match(r"^(?P<text>.*?)\s*<(?P<target>[^>]+)>$", body)
        text, target = (explicit["text"], explicit["target"]) if explicit else (None, body)
        if role == "doc":
            stem = Path(target).stem
            return self._link_to(stem, text or self.index.titles.get(stem, stem))
        if role == "eq":
            if target in self.index.equations:
                stem, number = self.index.equations[target]
                return self._link_to(stem, f"({number})") if stem != self.stem else f"({number})"
            return f"({target})"
        if role == "numref":
            if target in self.index.figures:
                stem, number = self.index.figures[target]
                label = (text or "Figure %s").replace("{number}", str(number))
                label = label % number if "%s" in label else label
                return self._link_to(stem, label) if stem != self.stem else label
            if target in self.index.chapters:
                stem, number = self.index.chapters[target]
                label = (text or "chapter %s").replace("%s", str(number))
                return self._link_to(stem, label)
            return text or target
        if role == "ref":
            if target in self.index.exercises:
                stem, number, _ = self.index.exercises[target]
                return self._link_to(stem, text or f"Exercise {number}", target) if stem != self.stem else (
                    f"[{text or f'Exercise {number}'}](#{target})")
            if target in self.index.sections:
                stem, title = self.index.sections[target]
                return self._link_to(stem, text or title, target) if stem != self.stem else (
                    f"[{text or title}](#{target})")
            return text or target
        if role == "math":
            return f"${body}$"
        if role == "term":
            return text or target
        return f"`{(text or target).lstrip('~')}`"  # func, class, meth, mod, attr

    def markdown(self, text: str) -> str:
        out: list[str] = []
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            match = FENCE.match(line)
            if match:
                fence = match["fence"]
                closing = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}\s*$")
                j = i + 1
                while j < len(lines) and not closing.match(lines[j]):
                    j += 1
                options, body = _split_options(lines[i + 1 : j])
                out.append(self.directive(match["name"], match["argument"], options, body))
                i = j + 1
                continue
            if target := TARGET.match(line):
                out.append(f'<a id="{target["label"]}"></a>')
            elif equation := EQUATION_END.match(line):
                number = self.index.equations.get(equation["label"], (None, None))[1]
                out.append(f"\\tag{{{number}}}\n$$" if number else "$$")
            else:
                out.append(ROLE.sub(self.role, line))
            i += 1
        return "\n".join(out)

    def directive(self, name: str, argument: str, options: dict, body: list[str]) -> str:
        inner = self.markdown("\n".join(body)).strip("\n")
        if name == "solution":
            exercise = self.index.exercises.get(argument.strip())
            title = f"Solution to Exercise {exercise[1]}" if exercise else "Solution"
            return f"<details>\n<summary>{title} (click to open)</summary>\n\n{inner}\n\n</details>"
        if name == "exercise":
            label = options.get("label", "")
            exercise = self.index.exercises.get(label)
            number = f" {exercise[1]}" if exercise else ""
            anchor = f'<a id="{label}"></a>\n' if label else ""
            title = f": {argument}" if argument else ""
            return f"{anchor}**Exercise{number}{title}**\n\n{inner}"
        if name in {"code-block", "code", "sourcecode"}:
            return f"```{argument or 'python'}\n" + "\n".join(body) + "\n```"
        if name in {"math"}:
            return "$$\n" + "\n".join(body) + "\n$$"
        if name in {"eval-rst", "tableofcontents", "toctree"}:
            return ""  # Sphinx-only content (API listings, tables of contents)
        # admonition, note, tip, warning, dropdown, glossary...: a block quote with a title
        title = argument or name.replace("-", " ").capitalize()
        quoted = "\n".join(f"> {row}" if row else ">" for row in inner.splitlines())
        return f"> **{title}**\n>\n{quoted}"


def _split_options(lines: list[str]) -> tuple[dict, list[str]]:
    """A directive's options (``:key: value`` lines or a ``---`` YAML block) and its body."""
    if lines and lines[0].strip() == "---":
        end = next((k for k in range(1, len(lines)) if lines[k].strip() == "---"), None)
        if end is not None:
            options = yaml.safe_load("\n".join(lines[1:end])) or {}
            return {str(k): str(v) for k, v in options.items()}, lines[end + 1 :]
    options, k = {}, 0
    while k < len(lines) and re.match(r"^:[\w-]+:", lines[k]):
        key, _, value = lines[k][1:].partition(":")
        options[key.strip()] = value.strip()
        k += 1
    return options, lines[k:]


# --- whole notebooks -----------------------------------------------------------------------


def convert(page: Path, index: BookIndex, requirements: str = DEFAULT_REQUIREMENTS):
    """The plain-Jupyter notebook for one MyST page."""
    notebook = jupytext.read(page)
    converter = PageConverter(page, index)
    cells = []
    install = nbformat.v4.new_code_cell(INSTALL_CELL.format(requirements=requirements))
    install.metadata["tags"] = ["install"]
    cells.append(install)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            new = copy.deepcopy(cell)
            new.source = converter.markdown(cell.source)
            if new.source.strip():
                cells.append(new)
            continue
        cells.append(cell)
        figure = (cell.metadata.get("mystnb") or {}).get("figure") or {}
        if cell.cell_type == "code" and figure.get("caption"):
            number = index.figures.get(figure.get("name"), (None, ""))[1]
            caption = converter.markdown(" ".join(str(figure["caption"]).split()))
            cells.append(nbformat.v4.new_markdown_cell(f"*Figure {number}.* {caption}"))
    notebook.cells = cells
    notebook.metadata.pop("jupytext", None)
    notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    for cell in notebook.cells:  # nbformat 4.5 wants an id on every cell
        cell.setdefault("id", None)
    nbformat.validator.normalize(notebook)
    return notebook


def export(source_dir: Path, output_dir: Path, requirements: str = DEFAULT_REQUIREMENTS) -> list[Path]:
    """Convert the notebooks of ``_toc.yml`` in ``source_dir`` into ``output_dir/*.ipynb``.

    The pages are ``book_pages.notebooks()``, in reading order: a file the toc does not list
    is not a page of the book, and is not exported. Returns the paths written.
    """
    source_dir = Path(source_dir).resolve()
    pages = [path for path in book_pages.notebooks(ROOT) if path.parent == source_dir]
    if not pages:
        raise ValueError(f"source_dir: {source_dir} holds no notebook page of {ROOT / book_pages.TOC}")
    output_dir.mkdir(parents=True, exist_ok=True)
    index = BookIndex(pages)
    written = []
    for page in pages:
        notebook = convert(page, index, requirements)
        target = output_dir / (page.stem + ".ipynb")
        nbformat.write(notebook, target)
        written.append(target)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source_dir", type=Path)
    parser.add_argument("output_dir", type=Path)
    parser.add_argument("--install-from", default=DEFAULT_REQUIREMENTS,
                        help="what the install cell passes to %%pip install: requirements, "
                             "each in single quotes")
    args = parser.parse_args(argv[1:])
    written = export(args.source_dir, args.output_dir, args.install_from)
    print(f"wrote {len(written)} notebooks to {args.output_dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
