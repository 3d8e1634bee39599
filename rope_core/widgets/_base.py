"""What every widget of the book shares: its front-end module, its table, its checks.

A widget is a thin view. Python computes, with ``rope_core``, every number the view can
show over the whole range of its sliders and sends them in the synced ``data`` trait; the
ES module only looks values up and draws. The same widget is therefore live in JupyterLab
and on the static pages of the book, whose HTML embeds the widget state.
"""

from __future__ import annotations

import numbers
from pathlib import Path

import anywidget
import numpy as np
import traitlets

_HERE = Path(__file__).parent
_COMMON_JS = (_HERE / "common.js").read_text()
_COMMON_CSS = (_HERE / "common.css").read_text()
DECIMALS = 6  # numbers sent to the browser: enough for 1e-6 checks, small enough to embed


def module(name):
    """The ES module of one widget: the shared helpers, then its own ``<name>.js``."""
    return _COMMON_JS + "\n" + (_HERE / f"{name}.js").read_text()


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

    _css = _COMMON_CSS
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
        """Bytes of the JSON state this widget embeds in a page (data + module + styles)."""
        import json

        state = self.get_state()
        return len(json.dumps({k: v for k, v in state.items() if not isinstance(v, bytes)}))
