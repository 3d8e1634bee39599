r"""Context extension as the book shows it: the schemes side by side, and real models' spectra.

The book compares five context-extension schemes on one plot (:data:`EXTENSION_METHODS`,
with the example ``rope_scaling`` dicts of :func:`example_rope_scaling`), and draws any
model of :mod:`rope_core.atlas` against its training and extended context. The functions
here compute those tables once, in NumPy; the ``ContextExtension`` widget sends them to the
page and :func:`rope_core.plots.plot_context_extension` draws the same tables.

A pair is *slow* when it completes less than one turn over the training length,
:math:`L\,\theta_i < 2\pi`; the largest angle it reached in training is then :math:`L\,\theta_i`.
At position :math:`p` with scaled frequencies :math:`\theta'_i` it is *beyond training* when
:math:`p\,\theta'_i > L\,\theta_i` (a fast pair has seen every angle and is never beyond).
"""

from __future__ import annotations

import numpy as np

from .. import atlas
from .._checks import check_dim, check_int, check_positive
from ..frequencies import attention_factor, inverse_frequencies

__all__ = [
    "EXTENSION_METHODS",
    "CONTEXT_DEFAULTS",
    "POSITION_STOPS_PER_OCTAVE",
    "octave_positions",
    "CONTEXT_STEPS",
    "DEFAULT_MODEL",
    "STEP_SCHEMES",
    "BAND_NAMES",
    "example_rope_scaling",
    "context_extension_table",
    "slow_pairs_beyond_training",
    "scaling_bands",
    "trained_frequencies",
    "model_spectrum_table",
]

#: Display names of the context-extension schemes the book compares side by side.
EXTENSION_METHODS = {"default": "no scaling", "linear": "linear (PI)", "ntk": "NTK-aware",
                     "yarn": "YaRN", "llama3": "Llama 3.1"}

#: Stops per doubling of the read-out position: a step multiplies p by 2^(1/12), 5.9 %, so a
#: hand moves a little at a time and is seen crossing the end of its trained arc; every power
#: of two (L and each sL below) is a stop.
POSITION_STOPS_PER_OCTAVE = 12


def octave_positions(first, last, per_octave=POSITION_STOPS_PER_OCTAVE):
    r"""Whole positions from ``first`` to ``last`` spaced evenly in :math:`\log p`.

    :math:`p_k = \operatorname{round}(	ext{first} \cdot 2^{k/	ext{per\_octave}})`, for
    :math:`k = 0 \dots 	ext{per\_octave} \cdot \log_2(	ext{last}/	ext{first})`.

    Parameters
    ----------
    first, last : int
        The first and last position; ``last / first`` must be a power of two, so both are stops.
    per_octave : int
        Stops per doubling of :math:`p`.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> octave_positions(1024, 4096, 2)
    (1024, 1448, 2048, 2896, 4096)
    """
    first = check_int(first, "first", min=1)
    last = check_int(last, "last", min=first)
    per_octave = check_int(per_octave, "per_octave", min=1, max=1024)
    octaves = np.log2(last / first)
    if not np.isclose(octaves, round(octaves)):
        raise ValueError(f"last / first must be a power of two, got last={last}, first={first}")
    steps = per_octave * round(octaves)
    return tuple(int(round(first * 2.0 ** (k / per_octave))) for k in range(steps + 1))


#: The book's example: a 128-dimensional head, base 10 000, trained to L = 4096; the factors
#: and read-out positions (1024 to 131 072, 12 stops an octave; the widget's slider spans the
#: same range with 64 stops an octave). The widget and the static view start from these.
CONTEXT_DEFAULTS = {
    "dim": 128, "base": 10000.0, "training_length": 4096,
    "factors": (1, 2, 4, 8, 16, 32),
    "positions": octave_positions(1024, 131072),
}

#: The steps of the ``ContextExtension`` widget and of its print view, in chapter 9's order:
#: the problem, dividing every frequency, keeping the fast pairs, real models.
CONTEXT_STEPS = ("problem", "divide", "bands", "models")
#: The schemes each of the first three steps compares (keys of :data:`EXTENSION_METHODS`).
STEP_SCHEMES = {"problem": ("default",), "divide": ("linear", "ntk"), "bands": ("yarn", "llama3")}
#: The atlas model the widget's model step and its print view open on.
DEFAULT_MODEL = "llama-3.1-8b"

#: What :func:`scaling_bands` and :func:`model_spectrum_table` number 0, 1, 2.
BAND_NAMES = ("kept", "blended", "scaled")
BAND_KEPT, BAND_BLENDED, BAND_SCALED = 0, 1, 2

#: rope_type values whose frequencies differ from the model's trained (unscaled) ones.
SCALED_TYPES = ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope")


def example_rope_scaling(rope_type, factor, original_max_position_embeddings):
    """A ``rope_scaling`` dict for one scheme, with the usual defaults of its extra keys.

    Parameters
    ----------
    rope_type : {"default", "linear", "ntk", "yarn", "llama3"}
    factor : float
        Scale factor :math:`s \\ge 1`.
    original_max_position_embeddings : int
        Training length :math:`L` (used by YaRN and Llama 3.1).

    Returns
    -------
    dict or None
        ``None`` for no scaling (``"default"`` or ``factor == 1``); Llama 3.1 gets
        ``low_freq_factor=1`` and ``high_freq_factor=4``, its published values.

    Examples
    --------
    >>> example_rope_scaling("llama3", 8, 8192)["high_freq_factor"]
    4.0
    """
    if rope_type not in EXTENSION_METHODS:
        raise ValueError(f"rope_type must be one of {tuple(EXTENSION_METHODS)}, got {rope_type!r}")
    factor = check_positive(factor, "factor")
    if rope_type == "default" or factor == 1:
        return None
    scaling = {"rope_type": rope_type, "factor": factor}
    if rope_type in ("yarn", "llama3"):
        scaling["original_max_position_embeddings"] = check_positive(
            original_max_position_embeddings, "original_max_position_embeddings")
    if rope_type == "llama3":
        scaling.update(low_freq_factor=1.0, high_freq_factor=4.0)
    return scaling


def slow_pairs_beyond_training(theta, scaled, training_length, positions, *, rtol=1e-9):
    r"""How many slow pairs turn further at each position than they did in training.

    Parameters
    ----------
    theta : array, shape (d/2,)
        Unscaled inverse frequencies :math:`\theta_i` (those used in training).
    scaled : array, shape (d/2,)
        Scaled inverse frequencies :math:`\theta'_i`.
    training_length : int
        :math:`L`; a pair is slow when :math:`L\theta_i < 2\pi`.
    positions : array, shape (P,)
        Read-out positions :math:`p`.
    rtol : float
        Ratios within ``1 + rtol`` of 1 count as reached in training (round-off).

    Returns
    -------
    count : int array, shape (P,)
        Slow pairs with :math:`p\theta'_i > L\theta_i`.
    worst : float array, shape (P,)
        :math:`\max_i p\theta'_i / (L\theta_i)` over the slow pairs (0 when there are none).
    """
    trained_angle = training_length * np.asarray(theta, dtype=np.float64)
    slow = trained_angle < 2 * np.pi
    ratio = np.outer(positions, np.asarray(scaled, dtype=np.float64)[slow]) / trained_angle[slow]  # (P, S)
    count = (ratio > 1 + rtol).sum(axis=1)
    worst = ratio.max(axis=1) if slow.any() else np.zeros(len(positions))
    return count, worst


def scaling_bands(theta, scaled, *, rtol=1e-9):
    r"""Which pairs a scheme kept, scaled by its largest ratio, or blended in between.

    Parameters
    ----------
    theta, scaled : array, shape (d/2,)
        Trained :math:`\theta_i` and scaled :math:`\theta'_i` (pairs with :math:`\theta'_i = 0`
        never turn and count as kept).
    rtol : float
        Tolerance of both tests (round-off).

    Returns
    -------
    band : int array, shape (d/2,)
        0 where :math:`\theta_i/\theta'_i = 1`, 2 where it equals its largest value over the
        pairs (when that exceeds 1), 1 otherwise.
    ratio : float array, shape (d/2,)
        :math:`\theta_i/\theta'_i` (1 for pairs that never turn).
    """
    theta, scaled = np.asarray(theta, dtype=np.float64), np.asarray(scaled, dtype=np.float64)
    turning = scaled > 0
    ratio = np.ones_like(scaled)
    ratio[turning] = theta[turning] / scaled[turning]
    largest = ratio.max()
    kept = np.abs(ratio - 1) <= rtol
    band = np.where(kept, BAND_KEPT, np.where(np.abs(ratio - largest) <= rtol * largest, BAND_SCALED, BAND_BLENDED))
    return band, ratio


def context_extension_table(dim=CONTEXT_DEFAULTS["dim"], base=CONTEXT_DEFAULTS["base"],
                            training_length=CONTEXT_DEFAULTS["training_length"],
                            factors=CONTEXT_DEFAULTS["factors"], positions=CONTEXT_DEFAULTS["positions"]):
    r"""Every scheme of :data:`EXTENSION_METHODS` at every factor: what the widget and its
    static view draw.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d` (:math:`d/2` pairs).
    base : float
    training_length : int
        :math:`L`.
    factors : sequence of float, shape (F,)
        Scale factors :math:`s \ge 1`.
    positions : sequence of int, shape (P,)
        Read-out positions :math:`p`.

    Returns
    -------
    dict
        ``theta`` (trained :math:`\theta_i`, shape (d/2,)), ``slow`` (bool, :math:`L\theta_i <
        2\pi`), ``turns_in_training`` (:math:`L\theta_i/2\pi`), and ``per_factor``: a list of F
        dicts ``{method: row}``, where ``row`` holds ``scaled`` (:math:`\theta'_i`),
        ``wavelength`` (:math:`2\pi/\theta'_i`), ``band`` and ``ratio`` (:func:`scaling_bands`),
        ``reach_per_token`` (:math:`\theta'_i/(L\theta_i)`: times :math:`p`, the angle at
        :math:`p` over the largest angle reached in training), ``attention_factor``,
        ``slowest_turns`` (turns of the slowest pair at each position, shape (P,)),
        ``beyond_count`` and ``worst_ratio`` (:func:`slow_pairs_beyond_training`, shape (P,)).
    """
    dim = check_dim(dim)
    training_length = check_positive(training_length, "training_length")
    factors = [check_positive(f, "factors") for f in factors]
    if min(factors) < 1:
        raise ValueError(f"factors must all be >= 1, got {factors}")
    positions = np.asarray([check_positive(p, "positions") for p in positions], dtype=np.float64)
    theta = inverse_frequencies(dim, base)
    trained_angle = training_length * theta
    per_factor = []
    for factor in factors:
        per_method = {}
        for method in EXTENSION_METHODS:
            scaling = example_rope_scaling(method, factor, training_length)
            scaled = inverse_frequencies(dim, base, rope_scaling=scaling)
            band, ratio = scaling_bands(theta, scaled)
            count, worst = slow_pairs_beyond_training(theta, scaled, training_length, positions)
            per_method[method] = {
                "scaled": scaled, "wavelength": 2 * np.pi / scaled, "band": band, "ratio": ratio,
                "reach_per_token": scaled / trained_angle,
                "attention_factor": attention_factor(dim, base, rope_scaling=scaling),
                "slowest_turns": positions * scaled[-1] / (2 * np.pi),
                "beyond_count": count, "worst_ratio": worst,
            }
        per_factor.append(per_method)
    return {"dim": dim, "base": float(base), "training_length": training_length, "factors": factors,
            "positions": positions, "theta": theta, "slow": trained_angle < 2 * np.pi,
            "turns_in_training": trained_angle / (2 * np.pi), "per_factor": per_factor}


def trained_frequencies(spec):
    r"""The frequencies a model was trained with before its scaling: :math:`\theta_i` unscaled.

    For a scaled ``rope_type`` (linear, ntk, dynamic, yarn, llama3, longrope) the default
    frequencies over ``spec.rotary_dim`` with ``spec.base``; for ``"proportional"`` the same
    type without its ``factor``; otherwise ``spec.inverse_frequencies``. Shape ``(rotary_dim // 2,)``.
    """
    if spec.rope_type in SCALED_TYPES:
        return inverse_frequencies(spec.rotary_dim, spec.base)
    if spec.rope_type == "proportional" and spec.rope_parameters.get("factor", 1.0) != 1.0:
        block = {"rope_type": "proportional",
                 "partial_rotary_factor": spec.rope_parameters.get("partial_rotary_factor", 1.0)}
        return inverse_frequencies(spec.rotary_dim, spec.base, rope_scaling=block)
    return np.asarray(spec.inverse_frequencies, dtype=np.float64)


def model_spectrum_table(spec, name, *, rtol=1e-9):
    r"""What the model menu shows for one atlas model and layer type, from its ``RopeSpec``.

    Parameters
    ----------
    spec : rope_core.RopeSpec
    name : str
        The atlas name (for the title and the menu).
    rtol : float
        Tolerance of the band and beyond-training tests (round-off).

    Returns
    -------
    dict
        ``shipped`` (:math:`\theta'_i` at ``context``, shape (rotary_dim/2,)) and ``trained``
        (:func:`trained_frequencies`); ``turning`` (bool, :math:`\theta'_i > 0`); ``training``
        (``original_max_position_embeddings``, or ``max_position_embeddings`` for an unscaled
        model, ``None`` when the config gives no training length) and ``context``
        (``max_position_embeddings``); ``slow`` (bool: less than one turn over ``training`` at
        the trained frequencies, or over ``context`` at the shipped ones without ``training``);
        ``band`` and ``ratio`` (:func:`scaling_bands`), ``largest_ratio``; ``beyond`` and
        ``worst`` (slow pairs whose angle at ``context`` exceeds the largest angle they reached
        in training, and the worst ratio; ``None`` without a training length or when
        ``context <= training``); ``same`` (trained equals shipped); plus ``name``,
        ``layer_type``, ``label``, ``rope_type``, ``base``, ``rotary_dim``, ``head_dim``, ``factor``.
    """
    entry = atlas.entry(name)
    context = spec.max_position_embeddings
    # Dynamic NTK and LongRoPE change with the length: show the frequencies used at `context`.
    shipped = np.asarray(spec.frequencies_at(context), dtype=np.float64)
    trained = trained_frequencies(spec)
    turning = shipped > 0
    if spec.original_max_position_embeddings is not None:
        training = int(spec.original_max_position_embeddings)
    elif spec.rope_type not in SCALED_TYPES:
        training = spec.max_position_embeddings
    else:
        training = None
    if training is not None:
        slow = turning & (training * trained < 2 * np.pi)
    else:
        slow = turning & (context * shipped < 2 * np.pi)
    band, ratio = scaling_bands(trained, shipped, rtol=rtol)
    beyond = worst = None
    if training is not None and context is not None and context > training and slow.any():
        count, ratios = slow_pairs_beyond_training(trained[turning], shipped[turning], training, [context],
                                                   rtol=rtol)
        beyond, worst = int(count[0]), float(ratios[0])
    layer = "" if spec.layer_type is None else f" · {spec.layer_type} layers"
    return {
        "name": name, "layer_type": spec.layer_type, "label": f"{entry.title}{layer}",
        "rope_type": spec.rope_type, "base": spec.base, "rotary_dim": spec.rotary_dim,
        "head_dim": spec.head_dim, "factor": spec.rope_parameters.get("factor"),
        "training": training, "context": context, "shipped": shipped, "trained": trained,
        "turning": turning, "same": bool(np.array_equal(trained, shipped)), "slow": slow,
        "band": band, "ratio": ratio, "largest_ratio": float(ratio.max()), "beyond": beyond, "worst": worst,
    }
