"""Keep the book's old page addresses working after a chapter file is renamed.

``rope_old_urls`` in ``_config.yml`` maps an old page name (``book/07-relative-position``) to
the page that now holds it. After the build, each old name gets a small HTML page that sends
the reader on (a meta refresh, and a link for a reader whose browser does not follow it),
with the fragment of the old link kept. Only public Sphinx API is used: the
``build-finished`` event, ``app.outdir`` and ``app.builder.get_target_uri``.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Moved: {title}</title>
<link rel="canonical" href="{target}">
<meta http-equiv="refresh" content="0; url={target}">
<script>location.replace("{target}" + location.hash);</script>
</head><body><p>This page moved to <a href="{target}">{title}</a>.</p></body></html>
"""


def _write_redirects(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for old, new in app.config.rope_old_urls.items():
        if new not in app.env.all_docs:
            raise ValueError(f"rope_old_urls: {old!r} points to {new!r}, which is no page of the book")
        if old in app.env.all_docs:
            raise ValueError(f"rope_old_urls: {old!r} is still a page of the book; drop its redirect")
        source = outdir / app.builder.get_target_uri(old)
        target = os.path.relpath(outdir / app.builder.get_target_uri(new), source.parent)
        title = html.escape(new.rsplit("/", 1)[-1])
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(PAGE.format(target=html.escape(target), title=title), encoding="utf-8")


def setup(app):
    app.add_config_value("rope_old_urls", {}, "html", types=[dict])
    app.connect("build-finished", _write_redirects)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
