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


def test_readme_installs_from_the_repository_the_book_and_its_notebooks_name():
    import yaml

    root = README.parent
    repository = yaml.safe_load((root / "_config.yml").read_text())["repository"]["url"]
    text = README.read_text()
    installs = re.findall(r'pip install "rope-core(?:\[[\w,]+\])? @ git\+(\S+)"', text)
    assert installs and set(installs) == {repository}, installs
    assert "<" not in "".join(installs)  # no placeholder left


def test_readme_binder_link_opens_a_chapter_of_this_repository():
    root = README.parent
    link = re.search(r"\(https://mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/(\w+)\?urlpath=lab/tree/(\S+?)\)",
                     README.read_text())
    assert link, "README: no Binder launch link"
    import yaml

    repository = yaml.safe_load((root / "_config.yml").read_text())["repository"]
    assert repository["url"].endswith("/" + link[1]) and repository["branch"] == link[2]
    assert (root / link[3]).is_file(), link[3]


def test_architecture_names_every_file_of_the_page_layer():
    root = README.parent
    text = (root / "ARCHITECTURE.md").read_text()
    layer = [path for path in (root / "book" / "_ext").rglob("*")
             if path.is_file() and "__pycache__" not in path.parts]
    missing = [str(path.relative_to(root)) for path in layer
               if f"`{path.relative_to(root / 'book' / '_ext')}`" not in text]
    assert layer and not missing, f"ARCHITECTURE.md does not say what these are for: {missing}"
