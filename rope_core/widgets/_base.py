"""What every widget of the book shares: its front-end module, its table, its checks.

A widget is a thin view. Python computes, with ``rope_core``, every number the view can
show over the whole range of its sliders and sends them in the synced ``data`` trait; the
ES module only looks values up and draws. The same widget is therefore live in JupyterLab
and on the static pages of the book, whose HTML embeds the widget state.

The front end is plain ES modules: ``<name>.js`` imports the shared helpers with
``import { slider } from "./common.js"`` (two widgets also import ``./drag.js``), and
``common.css`` is the one shared stylesheet. A notebook front end (anywidget) receives one
string per widget and imports it from a Blob URL, where a relative import cannot resolve:
:func:`module` therefore points each such import at a ``data:`` URL of the shared module,
the same URL in every widget, so the browser evaluates the shared module once per page. The
book's pages do without those copies: the build (``book/_ext/widget_state.py``) writes
:func:`static_files` once into the site and points each widget's ``_esm`` at its file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import numbers
import re
from pathlib import Path

import anywidget
import numpy as np
import traitlets

_HERE = Path(__file__).parent
_COMMON_CSS = (_HERE / "common.css").read_text()
DECIMALS = 6  # numbers sent to the browser: enough for 1e-6 checks, small enough to embed
# A module's imports of its sibling files: `import { ... } from "./common.js";` (one a line).
_SIBLING_IMPORT = re.compile(r'^(import\s[^"\n;]*?from\s+)"\./([a-z_]+\.js)"', re.M)


# What a data: URL inside a JS string literal must escape (URL parsers drop tabs and newlines).
_URL_ESCAPES = str.maketrans({c: f"%{ord(c):02X}" for c in '%#"\\\t\n\r'})


def _source(filename):
    return (_HERE / filename).read_text()


@functools.cache
def _shared_url(filename):
    """The ``data:`` URL by which a notebook's widget modules import ``./<filename>``."""
    text = _inline(_source(filename))
    if filename == "common.js":  # the stylesheet travels with the module, added once
        text += f"\nshareStyles({json.dumps(_COMMON_CSS)});\n"
    return "data:text/javascript;charset=utf-8," + text.translate(_URL_ESCAPES)


def _inline(text):
    return _SIBLING_IMPORT.sub(lambda m: f'{m.group(1)}"{_shared_url(m.group(2))}"', text)


def module(name):
    """The ES module of one widget as one string (``_esm``): ``<name>.js`` with its imports of
    the shared modules pointed at ``data:`` URLs, so that it loads from a Blob URL."""
    return _inline(_source(f"{name}.js"))


def static_files():
    """The widget front end as files for a static site, and how to find a widget's file.

    Returns ``(files, names)``: ``files`` maps a file name to its text (``common.css``,
    ``common.js``, ``drag.js`` and every widget's ``<name>.js``), each import made
    ``"./<file>?v=<version of its text>"`` so that a browser's cache never mixes two versions;
    ``names`` maps a widget's ``_esm`` (as :func:`module` makes it) to its file's name.
    """
    files, names = {"common.css": _COMMON_CSS}, {}

    def versioned(filename):
        if filename not in files:
            files[filename] = _SIBLING_IMPORT.sub(
                lambda m: f'{m.group(1)}"./{m.group(2)}?v={version(versioned(m.group(2)))}"',
                _source(filename))
        return files[filename]

    for path in sorted(_HERE.glob("*.js")):
        versioned(path.name)
        names[module(path.stem)] = path.name
    return files, names


def version(text):
    """A short hash of a file's text, for its URL's ``?v=`` (a new text is a new URL)."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def table(values, decimals=DECIMALS):
    """A numpy array (or number) as nested lists of floats rounded to ``decimals``."""
    array = np.round(np.asarray(values, dtype=np.float64), decimals)
    return array.tolist()


def exact(values):
    """A numpy array (or number) as nested lists of floats, unrounded (JSON keeps every digit).

    For numbers the page computes with (frequencies: a hand's angle is m·θ_i at m up to 10^5),
    where rounding θ_i = 2.4e-6 to 6 decimals would be a 17 % error.
    """
    return np.asarray(values, dtype=np.float64).tolist()


def check_choices(values, name, *, integer=False, positive=True):
    """Validate a non-empty sequence of numbers used as the stops of a slider."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or len(values) == 0:
        raise ValueError(f"{name} must be a non-empty sequence of numbers, got {values!r}")
    checked = []
    for value in values:
        kind = numbers.Integral if integer else numbers.Real
        if isinstance(value, bool) or not isinstance(value, kind):
            expected = "integers" if integer else "numbers"
            raise TypeError(f"{name} must contain {expected}, got {value!r}")
        if not np.isfinite(value) or (positive and value <= 0):
            raise ValueError(f"{name} must contain finite numbers > 0, got {value!r}")
        checked.append(int(value) if integer else float(value))
    return checked


def check_index(value, length, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value < length:
        raise ValueError(f"{name} must be an integer in [0, {length - 1}], got {value!r}")
    return int(value)


def check_max_position(value, name="max_position", upper=4096):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= value <= upper:
        raise ValueError(f"{name} must be an integer in [1, {upper}], got {value!r}")
    return int(value)


class SliderError(traitlets.TraitError, ValueError):
    """A slider trait set outside its range (a ``ValueError`` too, as at construction)."""


class RopeWidget(anywidget.AnyWidget):
    """Base class: a synced ``data`` table and the shared stylesheet.

    ``_sliders`` is the one declarative spec of a widget's slider traits: name -> a function of
    the widget giving the number of stops. Every assignment (at construction, from a kernel
    user, or from the page) is validated against it, so ``w.position = 10**6`` is refused with
    a clear error and leaves the widget as it was.
    """

    _css = ""  # a widget's own rules; the shared ones come with common.js
    data = traitlets.Dict().tag(sync=True)
    _sliders: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_sliders" in cls.__dict__ and cls._sliders:
            cls._validate_sliders = traitlets.validate(*cls._sliders)(RopeWidget._check_slider)

    def _check_slider(self, proposal):
        name, value = proposal["trait"].name, proposal["value"]
        stops = type(self)._sliders[name](self)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= value < stops:
            raise SliderError(f"{type(self).__name__}.{name} must be an integer in [0, {stops - 1}], got {value!r}")
        return int(value)

    @classmethod
    def _fit_default_indices(cls, kwargs, **lengths):
        """Clamp the default slider indices that the caller did not set to ``length - 1``."""
        for name, length in lengths.items():
            if name not in kwargs:
                kwargs[name] = min(cls.class_traits()[name].default_value, length - 1)
        return kwargs

    def state_size(self):
        """Bytes of the JSON state a page of the book fetches for this widget: its traits, data
        and own styles (its module is a file that every page shares, :func:`static_files`)."""
        state = self.get_state()
        return len(json.dumps({k: v for k, v in state.items() if not isinstance(v, bytes) and k != "_esm"}))
