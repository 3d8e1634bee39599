r"""Every pair of a real model under a context-extension scheme: the ``ScalingPairs`` widget.

A model of :mod:`rope_core.atlas` was trained on :math:`L` tokens with frequencies
:math:`\theta_i`; a scheme of :data:`rope_core.demos.context.EXTENSION_METHODS` at factor
:math:`s` gives :math:`\theta'_i` for a target length :math:`T = sL`. For each pair the table
holds the turns it made over the training length and the turns it makes over the target:

.. math::

    \text{trained}_i = \frac{L\,\theta_i}{2\pi}, \qquad
    \text{target}_i = \frac{T\,\theta'_i}{2\pi}.

A pair is *slow* when :math:`\text{trained}_i < 1` (it never saw a full turn) and *beyond
training* when, in addition, :math:`\text{target}_i > \text{trained}_i`: at the far end of the
target the pair shows the model angles it never met (the definition of chapter 9,
:func:`rope_core.demos.context.slow_pairs_beyond_training`).
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import atlas
from .._checks import check_positive
from ..frequencies import inverse_frequencies
from .context import EXTENSION_METHODS, example_rope_scaling, slow_pairs_beyond_training

__all__ = ["SCALING_PAIRS_DEFAULTS", "SCALING_PAIRS_QUESTION", "scaling_pairs_model", "scaling_pairs_table",
           "schemes_without_pairs_beyond"]

#: The models (``rope_core.atlas`` names), target factors and schemes the widget offers, and
#: where it opens: Qwen2.5 7B (trained to 32 768 tokens) asked for 4x, with no scaling.
SCALING_PAIRS_DEFAULTS = {
    "models": ("llama-2-7b", "llama-3-8b", "qwen2.5-7b"),
    "factors": (1, 2, 4, 8, 16, 32),
    "schemes": tuple(EXTENSION_METHODS),
    "model_index": 2,
    "factor_index": 2,
    "scheme_index": 0,
}

#: The widget's question: its prompt names the default model and factor; ``answer`` is the set
#: of schemes a reader should name, checked against the table by the tests.
SCALING_PAIRS_QUESTION = {
    "prompt": "Before you press a scheme: at 4× its trained length, which schemes leave no slow pair "
              "turning further than it did in training?",
    "choices": (("only linear (PI)", ("linear",)),
                ("PI, YaRN and Llama 3.1", ("linear", "yarn", "llama3")),
                ("every scheme, NTK-aware too", ("linear", "ntk", "yarn", "llama3"))),
}


def scaling_pairs_model(name):
    r"""Head dimension, base and training length of one atlas model with unscaled RoPE.

    Parameters
    ----------
    name : str
        A name of :func:`rope_core.atlas.names` whose every RoPE layer is unscaled
        (``rope_type == "default"``) and which gives a training length.

    Returns
    -------
    dict
        ``name``, ``title``, ``dim`` (rotated features :math:`d`), ``base``,
        ``training_length`` (:math:`L`, the config's ``max_position_embeddings``) and
        ``source`` (where the atlas read them).

    Examples
    --------
    >>> scaling_pairs_model("llama-2-7b")["training_length"]
    4096
    """
    if not isinstance(name, str) or name not in atlas.names():
        raise ValueError(f"name must be a model of rope_core.atlas.names(), got {name!r}")
    specs = list(atlas.specs(name).values())
    if len(specs) != 1 or specs[0].rope_type != "default" or not specs[0].max_position_embeddings:
        raise ValueError(f"name must be a model with one unscaled RoPE and a training length, got {name!r}")
    spec, entry = specs[0], atlas.entry(name)
    return {"name": name, "title": entry.title, "dim": int(spec.rotary_dim), "base": float(spec.base),
            "training_length": int(spec.max_position_embeddings), "source": entry.source}


def _log_turns(turns):
    # Turns span 1e-4 .. 1e6: their base-10 logarithm to 3 decimals keeps 3 significant digits
    # in a third of the bytes.
    return np.round(np.log10(turns), 3).tolist()


def scaling_pairs_table(models=SCALING_PAIRS_DEFAULTS["models"], factors=SCALING_PAIRS_DEFAULTS["factors"],
                        schemes=SCALING_PAIRS_DEFAULTS["schemes"]):
    r"""Turns of every pair over the trained and the target length, per model, scheme and factor.

    Parameters
    ----------
    models : sequence of str, shape (M,)
        Atlas names (:func:`scaling_pairs_model`).
    factors : sequence of float, shape (F,)
        Target factors :math:`s \ge 1`; the target length is :math:`T = sL`.
    schemes : sequence of str, shape (S,)
        Keys of :data:`rope_core.demos.context.EXTENSION_METHODS`.

    Returns
    -------
    dict
        ``models``: M dicts of :func:`scaling_pairs_model` plus ``log_trained`` (shape (d/2,),
        :math:`\log_{10}` of :math:`L\theta_i/2\pi`), ``slow`` (indices of the pairs with fewer
        than one turn in training) and ``cells``: ``cells[scheme][factor]`` a dict with
        ``log_target`` (shape (d/2,), :math:`\log_{10}` of :math:`T\theta'_i/2\pi`),
        ``beyond`` (indices of the slow pairs beyond training), ``kept`` (indices of the pairs
        whose frequency the scheme left unchanged) and ``target`` (:math:`T`).
        ``factors`` and ``schemes`` (with display ``names``) as given.
    """
    if isinstance(models, str) or not len(models):
        raise ValueError(f"models must be a non-empty sequence of atlas names, got {models!r}")
    if isinstance(factors, str) or not len(factors):
        raise ValueError(f"factors must be a non-empty sequence of numbers >= 1, got {factors!r}")
    checked = []
    for factor in factors:
        if isinstance(factor, bool) or not isinstance(factor, numbers.Real) or check_positive(factor, "factors") < 1:
            raise ValueError(f"factors must be numbers >= 1, got {factor!r}")
        checked.append(float(factor))
    if isinstance(schemes, str) or not len(schemes) or any(s not in EXTENSION_METHODS for s in schemes):
        raise ValueError(f"schemes must be keys of EXTENSION_METHODS {tuple(EXTENSION_METHODS)}, got {schemes!r}")
    out = []
    for name in models:
        model = scaling_pairs_model(name)
        dim, base, length = model["dim"], model["base"], model["training_length"]
        theta = inverse_frequencies(dim, base)
        trained = length * theta / (2 * np.pi)
        cells = {}
        for scheme in schemes:
            row = []
            for factor in checked:
                scaled = inverse_frequencies(dim, base, rope_scaling=example_rope_scaling(scheme, factor, length))
                target = factor * length
                beyond_count, _ = slow_pairs_beyond_training(theta, scaled, length, [target])
                slow = trained < 1
                beyond = np.flatnonzero(slow & (target * scaled > length * theta * (1 + 1e-9)))
                assert len(beyond) == beyond_count[0]  # one definition with chapter 9's count
                row.append({"log_target": _log_turns(target * scaled / (2 * np.pi)),
                            "beyond": beyond.tolist(),
                            "kept": np.flatnonzero(np.isclose(scaled, theta, rtol=1e-12, atol=0)).tolist(),
                            "target": target})
            cells[scheme] = row
        out.append({**model, "log_trained": _log_turns(trained),
                    "slow": np.flatnonzero(trained < 1).tolist(), "cells": cells})
    return {"models": out, "factors": checked, "schemes": list(schemes),
            "names": [EXTENSION_METHODS[s] for s in schemes]}


def schemes_without_pairs_beyond(table, model_index, factor_index):
    """The scaling schemes (not ``"default"``) of ``table`` that leave no slow pair beyond training.

    Parameters
    ----------
    table : dict
        A :func:`scaling_pairs_table`.
    model_index, factor_index : int
        Which model and which factor.

    Returns
    -------
    tuple of str
    """
    model = table["models"][model_index]
    return tuple(s for s in table["schemes"] if s != "default" and not model["cells"][s][factor_index]["beyond"])
