"""Point the Colab launch button at a real notebook.

The chapters are MyST-markdown files, which Colab cannot open. The publishing workflow
pushes ``.ipynb`` copies of them (``make notebooks``) to the ``notebooks`` branch; this
extension rewrites the theme's Colab link from ``blob/<branch>/book/NAME.md`` to
``blob/notebooks/book/NAME.ipynb``. Binder keeps the markdown file: jupytext, pinned in
``requirements.lock`` (which Binder installs), opens it as a notebook there.
"""

from __future__ import annotations

import re

from internals import header_buttons

NOTEBOOK_BRANCH = "notebooks"


def _rewrite(buttons):
    for button in buttons:
        if isinstance(button, dict):
            if button.get("text") == "Colab" and "url" in button:
                button["url"] = re.sub(
                    r"/blob/[^/]+/(.*)\.md$", rf"/blob/{NOTEBOOK_BRANCH}/\1.ipynb", button["url"]
                )
            _rewrite(button.get("buttons", []))


def _on_page(app, pagename, templatename, context, doctree):
    _rewrite(header_buttons(context))


def setup(app):
    # After sphinx_book_theme has added its launch buttons (priority 501).
    app.connect("html-page-context", _on_page, priority=510)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
