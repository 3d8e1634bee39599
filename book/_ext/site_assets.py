"""The site's own CSS and JS (``book/_site/rope-site``) on every page, kept up to date.

``rope-site.css`` (phones, focus rings, contrast, print) and ``rope-site.js`` (keyboard
access to boxes that scroll sideways, deferred) are added to every page.

Rebuilds: Sphinx copies static files only while it writes pages, and writes none when no document is
out of date: an edit to ``rope-site.css`` alone would never reach ``_build/html``. The hash
of ``book/_site`` is a config value that needs an HTML rebuild, so a change re-renders the
pages (from the execution cache: nothing is re-executed) and copies the new files.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SITE = Path(__file__).resolve().parents[1] / "_site"


def site_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in SITE.rglob("*") if p.is_file()):
        digest.update(path.relative_to(SITE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _record_hash(app, config):
    config.rope_site_assets_hash = site_hash()


def setup(app):
    app.add_css_file("rope-site/rope-site.css")
    app.add_js_file("rope-site/rope-site.js", defer="defer")
    app.add_config_value("rope_site_assets_hash", "", "html")
    app.connect("config-inited", _record_hash)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
