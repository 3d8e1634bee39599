"""The widgets of Part II: a scaling scheme pair by pair (chapter 10), a KV cache in a server (chapter 13)."""

from __future__ import annotations

import traitlets

from ..demos.kv_cache import KV_CACHE_DEFAULTS, kv_cache_stages
from ..demos.scaling_pairs import (
    SCALING_PAIRS_DEFAULTS,
    SCALING_PAIRS_QUESTION,
    scaling_pairs_table,
)
from ._base import _HERE, RopeWidget, module

# The lesson line and the question (lesson.js), and the rules both widgets share.
_CSS = (_HERE / "lesson.css").read_text() + (_HERE / "part_two.css").read_text()


class ScalingPairs(RopeWidget):
    r"""Choose a model, a target length and a context-extension scheme, and see every pair: the
    turns it made over the trained length :math:`L` and the turns it makes over the target
    :math:`T = sL` with the scheme's frequencies.

    The widget first asks which schemes leave no slow pair (under one turn in training)
    turning further than it did in training; the reader then presses the schemes and finds
    the answer in the bars: a pair whose bar ends above its tick is beyond training.

    Parameters
    ----------
    models : sequence of str
        ``rope_core.atlas`` names of models with unscaled RoPE
        (:func:`rope_core.demos.scaling_pairs.scaling_pairs_model`).
    factors : sequence of float
        Target factors :math:`s \ge 1` (the target-length slider's stops).

    Notes
    -----
    Every number comes from :func:`rope_core.demos.scaling_pairs.scaling_pairs_table`
    (:func:`rope_core.inverse_frequencies` with the ``rope_scaling`` blocks of
    :func:`rope_core.demos.context.example_rope_scaling`); the page only draws them.
    """

    _esm = module("scaling_pairs")
    _css = _CSS
    _sliders = {"model_index": lambda w: len(w._table["models"]), "factor_index": lambda w: len(w._table["factors"]),
                "scheme_index": lambda w: len(w._table["schemes"])}
    model_index = traitlets.Int(SCALING_PAIRS_DEFAULTS["model_index"]).tag(sync=True)
    factor_index = traitlets.Int(SCALING_PAIRS_DEFAULTS["factor_index"]).tag(sync=True)
    scheme_index = traitlets.Int(SCALING_PAIRS_DEFAULTS["scheme_index"]).tag(sync=True)

    def __init__(self, models=SCALING_PAIRS_DEFAULTS["models"], factors=SCALING_PAIRS_DEFAULTS["factors"], **kwargs):
        table = scaling_pairs_table(models, factors)
        table["question"] = {"prompt": SCALING_PAIRS_QUESTION["prompt"],
                             "choices": [{"label": label, "schemes": list(schemes)}
                                         for label, schemes in SCALING_PAIRS_QUESTION["choices"]]}
        self._table = table  # read by _sliders before the trait is set
        self._fit_default_indices(kwargs, model_index=len(table["models"]), factor_index=len(table["factors"]))
        super().__init__(**kwargs)
        self.data = table


class KVCacheTimeline(RopeWidget):
    r"""A KV cache of rotated keys, event by event: prefill, decode until full, evict the oldest
    tokens and renumber the rest, then (or not) rotate every kept key back by the evicted count.

    Each cached key is a dial: its solid hand is the rotation the cache holds, the dashed hand
    the rotation a fresh key would have at the token's current position. The widget asks first
    what the cache must do to the keys it keeps after renumbering; the reader steps through the
    events, with and without the re-rotation, and reads the next query's largest score error.
    The page shows no mode as chosen until the reader presses one (or the kernel sets
    ``rerotate_index``): past the eviction it draws the cache as the eviction left it and asks.

    Notes
    -----
    Every number comes from :func:`rope_core.demos.kv_cache.kv_cache_stages`
    (:func:`rope_core.apply_rope` and :func:`rope_core.serving.rerotate_cached_keys`), once
    with the re-rotation and once without; the page only draws them.
    """

    _esm = module("kv_cache_timeline")
    _css = _CSS
    _sliders = {"stage": lambda w: len(w._tracks[0]), "rerotate_index": lambda w: 2}
    stage = traitlets.Int(0).tag(sync=True)
    rerotate_index = traitlets.Int(0).tag(sync=True)  # 0: rotate the kept keys, 1: leave them

    def __init__(self, **kwargs):
        self._tracks = [kv_cache_stages(rerotate=True), kv_cache_stages(rerotate=False)]
        super().__init__(**kwargs)
        self.data = {"tracks": self._tracks, "evict": KV_CACHE_DEFAULTS["evict"],
                     "capacity": KV_CACHE_DEFAULTS["capacity"], "dim": KV_CACHE_DEFAULTS["dim"],
                     "base": KV_CACHE_DEFAULTS["base"]}
