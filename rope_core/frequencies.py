r"""RoPE frequencies :math:`\theta_i`, and the context-extension ("rope_scaling") schemes.

The ``rope_scaling`` dictionaries follow the Hugging Face transformers form, so a model's
configuration block can be pasted as it is, e.g. Llama 3.1's::

    {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
     "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}

The formulas match ``transformers.modeling_rope_utils`` (``_compute_*_parameters``).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import maths
from ._checks import check_base, check_dim, check_positive

#: The rope types this module understands: every ``rope_type`` of transformers 5
#: (``modeling_rope_utils.ROPE_INIT_FUNCTIONS`` plus "default"), and "ntk" (static NTK-aware
#: base change), which is not a transformers type: it is here so the book can compare it.
ROPE_TYPES = ("default", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "proportional")

# Keys each type needs and may carry, as transformers 5 validates them
# (``RotaryEmbeddingConfigMixin._validate_<type>_rope_parameters``). rope_core adds
# ``max_position_embeddings`` where transformers reads it from the model config instead
# (dynamic, yarn and longrope use it), since a rope_scaling block here stands alone.
_REQUIRED_KEYS = {
    "default": (),
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor",),
    "yarn": ("factor", "original_max_position_embeddings"),
    "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    "longrope": ("short_factor", "long_factor", "original_max_position_embeddings"),
    "proportional": (),
}
_OPTIONAL_KEYS = {
    "default": (),
    "linear": (),
    "ntk": (),
    "dynamic": ("original_max_position_embeddings", "max_position_embeddings"),
    "yarn": ("attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate",
             "max_position_embeddings"),
    "llama3": (),
    "longrope": ("attention_factor", "factor", "max_position_embeddings"),
    "proportional": ("partial_rotary_factor", "factor"),
}
# Keys that name the type or the base, and model-specific keys transformers' model configs tell
# its validator to skip (``ignore_keys_at_rope_validation``: M-RoPE sections, Ministral 3's
# query scaling); none of them changes the frequencies.
_ALWAYS_ALLOWED = ("rope_type", "type", "rope_theta", "mrope_section", "mrope_interleaved",
                   "llama_4_scaling_beta")
# Top-level keys of a model's config.json that never appear in a rope_scaling block.
_WHOLE_CONFIG_KEYS = ("model_type", "architectures", "hidden_size", "num_attention_heads",
                      "num_hidden_layers", "vocab_size", "rope_scaling", "rope_parameters",
                      "head_dim", "text_config")
_NUMERIC_KEYS = ("factor", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow",
                 "attention_factor", "mscale", "mscale_all_dim", "original_max_position_embeddings",
                 "max_position_embeddings", "partial_rotary_factor")


def _scaling_config(rope_scaling, base=None):
    """Validate a ``rope_scaling`` dict; return ``(rope_type, config)``.

    The rules (the docstring of :func:`inverse_frequencies` gives the reasons):

    * a whole ``config.json`` or a dict of per-layer-type blocks is refused with a pointer to
      :func:`rope_core.from_config`;
    * the block must name its type (``rope_type``, or the legacy ``type``);
    * each type's required keys must be present, as transformers requires them;
    * a key that transformers' validator does not know for that type is an error here (transformers
      logs "Unrecognized keys" and ignores it), so that a misspelt optional key such as
      ``beta_fst`` cannot silently leave the default in place;
    * ``rope_theta``, when present, must equal ``base``.
    """
    if rope_scaling is None:
        return "default", {}
    if not isinstance(rope_scaling, dict):
        raise TypeError(
            f"rope_scaling must be None or a dict like {{'rope_type': 'linear', 'factor': 2.0}}, "
            f"got {type(rope_scaling).__name__}"
        )
    whole_config = [key for key in _WHOLE_CONFIG_KEYS if key in rope_scaling]
    if whole_config:
        raise ValueError(
            f"rope_scaling looks like a whole model config (it has {whole_config}); rope_scaling is "
            "only the scaling block, e.g. config['rope_scaling']. To read a whole config.json use "
            "rope_core.from_config(config)"
        )
    if rope_scaling and all(isinstance(value, dict) for value in rope_scaling.values()):
        raise ValueError(
            f"rope_scaling holds one block per layer type ({list(rope_scaling)}); pass one of them, "
            "or read the config with rope_core.from_config(config, layer_type=...)"
        )
    rope_type = rope_scaling.get("rope_type", rope_scaling.get("type"))
    if rope_type is None:
        raise ValueError(
            "rope_scaling must name its scheme with 'rope_type' (or the legacy 'type'), e.g. "
            f"{{'rope_type': 'linear', 'factor': 2.0}}; got the keys {sorted(rope_scaling)}. Pass "
            "rope_scaling=None for unscaled RoPE"
        )
    if rope_type not in ROPE_TYPES:
        raise ValueError(f"rope_scaling['rope_type'] must be one of {ROPE_TYPES}, got {rope_type!r}")
    known = _REQUIRED_KEYS[rope_type] + _OPTIONAL_KEYS[rope_type] + _ALWAYS_ALLOWED
    unknown = sorted(str(key) for key in rope_scaling if key not in known)
    if unknown:
        raise ValueError(
            f"rope_scaling of rope_type {rope_type!r} has the key(s) {unknown}, which that type does "
            f"not use (it reads {sorted(_REQUIRED_KEYS[rope_type] + _OPTIONAL_KEYS[rope_type])}); "
            "transformers ignores them with a warning, rope_core refuses them so that a misspelt "
            "key cannot pass unnoticed"
        )
    missing = [key for key in _REQUIRED_KEYS[rope_type] if rope_scaling.get(key) is None]
    if rope_type == "dynamic" and not (
        rope_scaling.get("original_max_position_embeddings")
        or rope_scaling.get("max_position_embeddings")
    ):
        missing.append("original_max_position_embeddings (or max_position_embeddings)")
    if missing:
        raise ValueError(f"rope_scaling of rope_type {rope_type!r} is missing the key(s) {missing}")
    config = dict(rope_scaling)
    for key in _NUMERIC_KEYS:
        if config.get(key) is not None:
            config[key] = check_positive(config[key], f"rope_scaling['{key}']")
    if "truncate" in config and not isinstance(config["truncate"], (bool, np.bool_)):
        raise TypeError(f"rope_scaling['truncate'] must be True or False, got {config['truncate']!r}")
    if config.get("rope_theta") is not None:
        theta = check_positive(config["rope_theta"], "rope_scaling['rope_theta']")
        if base is not None and theta != float(base):
            raise ValueError(
                f"rope_scaling['rope_theta'] = {theta} differs from base = {base}; pass the base as "
                "base=, or read the whole config with rope_core.from_config"
            )
    if rope_type != "longrope" and config.get("factor", 1.0) < 1.0:
        raise ValueError(f"rope_scaling['factor'] must be >= 1, got {config['factor']}")
    if rope_type == "proportional" and config.get("partial_rotary_factor", 1.0) > 1.0:
        raise ValueError(
            f"rope_scaling['partial_rotary_factor'] must be in (0, 1], got {config['partial_rotary_factor']}")
    if rope_type == "llama3" and config["high_freq_factor"] < config["low_freq_factor"]:
        raise ValueError(
            "rope_scaling['high_freq_factor'] must be >= rope_scaling['low_freq_factor'], got "
            f"{config['high_freq_factor']} < {config['low_freq_factor']}"
        )
    return rope_type, config


def _training_length(config):
    return config.get("original_max_position_embeddings") or config["max_position_embeddings"]


def _effective_factor(config):
    """The scale factor: ``factor`` when given, else the ratio of the two lengths.

    transformers 5 does the same (``_compute_yarn_parameters`` and
    ``_compute_longrope_parameters``: "if factor is None: factor = max_position_embeddings /
    original_max_position_embeddings"); an explicit factor wins, with a warning when the ratio
    differs (transformers 4.51 to 4.55 let the ratio win, transformers#38224).
    """
    if config.get("factor") is not None:
        return config["factor"]
    if config.get("original_max_position_embeddings") and config.get("max_position_embeddings"):
        return config["max_position_embeddings"] / config["original_max_position_embeddings"]
    return None


def _check_seq_len(seq_len):
    if seq_len is None:
        return None
    if isinstance(seq_len, bool) or not isinstance(seq_len, numbers.Real) or not seq_len > 0:
        raise ValueError(f"seq_len must be None or a number > 0, got {seq_len!r}")
    return float(seq_len)


def default_inverse_frequencies(dim, base=10000.0):
    r"""The unscaled RoPE frequencies :math:`\theta_i = \text{base}^{-2i/d}`.

    Parameters
    ----------
    dim : int
        Rotary dimension :math:`d` (even).
    base : float
        Frequency base (``rope_theta``), finite, > 0 and != 1.

    Returns
    -------
    ndarray, shape (dim // 2,)
        float64 frequencies, from 1 down to nearly ``1 / base``.

    Examples
    --------
    >>> default_inverse_frequencies(8, base=10000.0)
    array([1.   , 0.1  , 0.01 , 0.001])
    """
    dim, base = check_dim(dim), check_base(base)
    return maths.default_inverse_frequencies(dim, base)


def yarn_correction_range(dim, base, training_length, beta_fast=32.0, beta_slow=1.0,
                          truncate=True):
    r"""The pair indices between which YaRN blends interpolation and extrapolation.

    Pair :math:`i` turns :math:`L\theta_i/2\pi` times over the training length :math:`L`.
    Pairs that turn more than ``beta_fast`` times are kept, pairs that turn fewer than
    ``beta_slow`` times are interpolated, and a linear ramp joins the two.

    Returns
    -------
    low, high : float
        ``low = floor(d ln(L / (2π β_fast)) / (2 ln base))`` and
        ``high = ceil(d ln(L / (2π β_slow)) / (2 ln base))``, clipped to ``[0, d - 1]``
        (no rounding when ``truncate`` is false).

    Examples
    --------
    >>> yarn_correction_range(128, 10000.0, 4096)
    (20, 46)
    """
    dim, base = check_dim(dim), check_base(base)
    training_length = check_positive(training_length, "training_length")
    beta_fast = check_positive(beta_fast, "beta_fast")
    beta_slow = check_positive(beta_slow, "beta_slow")

    def index_for(turns):
        return (dim * math.log(training_length / (turns * 2 * math.pi))
                / (2 * math.log(base)))

    low, high = index_for(beta_fast), index_for(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def yarn_ramp(dim, low, high):
    r"""YaRN's ramp over the pairs: 0 up to ``low``, 1 from ``high``, linear between.

    Returns
    -------
    ndarray, shape (dim // 2,)
        :math:`\text{clip}((i - \text{low}) / (\text{high} - \text{low}), 0, 1)`.

    Examples
    --------
    >>> yarn_ramp(12, 1, 4).round(3)
    array([0.   , 0.   , 0.333, 0.667, 1.   , 1.   ])
    """
    dim = check_dim(dim)
    if high == low:
        high = high + 0.001  # as transformers does, to avoid a division by zero
    return np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)


def inverse_frequencies(dim, base=10000.0, *, rope_scaling=None, seq_len=None):
    r"""RoPE frequencies :math:`\theta_i`, optionally scaled for a longer context.

    Parameters
    ----------
    dim : int
        Rotary dimension :math:`d` (even): the number of features that rotate. For
        ``"proportional"`` it is the whole head dimension (see Notes).
    base : float
        Frequency base (``rope_theta``).
    rope_scaling : dict, optional
        A transformers-style scaling block: ``rope_type`` (or legacy ``type``) one of
        ``"default"``, ``"linear"``, ``"ntk"``, ``"dynamic"``, ``"yarn"``, ``"llama3"``,
        ``"longrope"``, ``"proportional"``, with that type's keys. transformers reads the
        training length of ``"dynamic"`` from the model config's ``max_position_embeddings``;
        here it must be in the dict (``original_max_position_embeddings`` or
        ``max_position_embeddings``). A whole ``config.json`` belongs in
        :func:`rope_core.from_config`, which also handles per-layer-type blocks and partial
        rotary factors.
    seq_len : float, optional
        Current sequence length (largest position + 1); drives ``"dynamic"`` (NTK) and LongRoPE's
        choice between its short and long factors.

    Returns
    -------
    ndarray, shape (dim // 2,)
        float64 frequencies :math:`\theta'_i`.

    Raises
    ------
    TypeError, ValueError
        For a ``rope_scaling`` that is not a dict; a whole config or a per-layer-type dict; a
        block without ``rope_type``/``type`` (transformers 4 refused such a block as well: it
        found no init function for type ``None``); a missing required key; a key the type does
        not read. transformers 5 logs "Unrecognized keys" for the last case and goes on;
        rope_core refuses it, because a misspelt optional key (``beta_fst``) would otherwise
        leave the default in place without a word.

    Notes
    -----
    With :math:`\theta_i = \text{base}^{-2i/d}`, factor :math:`s` and training length :math:`L`:

    * linear (position interpolation): :math:`\theta_i / s`;
    * ntk (NTK-aware): base replaced by :math:`\text{base}\cdot s^{d/(d-2)}`;
    * dynamic: base replaced by :math:`\text{base}\,(s\ell/L - (s-1))^{d/(d-2)}`,
      :math:`\ell = \max(n, L)` where :math:`n` is ``seq_len``;
    * yarn: :math:`\theta'_i = (\theta_i/s)(1 - e_i) + \theta_i e_i`, :math:`e_i = 1 - r_i`
      with :math:`r` the ramp of :func:`yarn_ramp` between :func:`yarn_correction_range`;
    * llama3: with wavelength :math:`\lambda_i = 2\pi/\theta_i`, keep :math:`\theta_i` when
      :math:`\lambda_i < L/\text{high}`, use :math:`\theta_i/s` when :math:`\lambda_i > L/\text{low}`,
      otherwise :math:`(1-\sigma)\theta_i/s + \sigma\theta_i`,
      :math:`\sigma = (L/\lambda_i - \text{low})/(\text{high} - \text{low})`. ``high == low``
      (Llama 4 Scout ships 1 and 1) leaves no blended band, as in transformers;
    * longrope: :math:`\theta_i / f_i` with per-pair factors :math:`f` (``short_factor`` when
      ``seq_len`` ≤ L or not given, ``long_factor`` above);
    * proportional (p-RoPE, Gemma 4's global layers): with :math:`p` =
      ``partial_rotary_factor`` and :math:`k = \lfloor p\,d/2 \rfloor`,
      :math:`\theta'_i = \text{base}^{-2i/d}/s` for :math:`i < k` and :math:`0` for
      :math:`k \le i < d/2`: the *highest* frequencies of full RoPE over the whole head, the other
      pairs never turn (``_compute_proportional_rope_parameters``).

    Examples
    --------
    >>> inverse_frequencies(4, rope_scaling={"rope_type": "linear", "factor": 4.0})
    array([0.25  , 0.0025])
    >>> inverse_frequencies(8, rope_scaling={"rope_type": "proportional", "partial_rotary_factor": 0.5})
    array([1. , 0.1, 0. , 0. ])
    """
    rope_type, config = _scaling_config(rope_scaling, base)
    seq_len = _check_seq_len(seq_len)
    dim, base = check_dim(dim), check_base(base)
    return _scaled_frequencies(dim, base, rope_type, config, seq_len)


def _scaled_frequencies(dim, base, rope_type, config, seq_len):
    """The formulas of :func:`inverse_frequencies`, on validated arguments."""
    exponents = np.arange(0, dim, 2, dtype=np.float64) / dim
    theta = base ** -exponents

    if rope_type == "default":
        return theta
    if rope_type == "linear":
        return theta / config["factor"]
    if rope_type == "proportional":
        rotated = int(config.get("partial_rotary_factor", 1.0) * dim // 2)
        theta[rotated:] = 0.0
        return theta / config.get("factor", 1.0)
    if rope_type in ("ntk", "dynamic") and dim == 2:
        raise ValueError(f"dim must be > 2 for rope_type {rope_type!r} (its exponent is d / (d - 2))")
    if rope_type == "ntk":
        return (base * config["factor"] ** (dim / (dim - 2))) ** -exponents
    if rope_type == "dynamic":
        length = _training_length(config)
        current = max(seq_len, length) if seq_len is not None else length
        factor = config["factor"]
        scaled_base = base * (factor * current / length - (factor - 1)) ** (dim / (dim - 2))
        return scaled_base ** -exponents
    if rope_type == "yarn":
        factor = _effective_factor(config)
        low, high = yarn_correction_range(
            dim, base, _training_length(config),
            config.get("beta_fast") or 32.0, config.get("beta_slow") or 1.0,
            bool(config.get("truncate", True)),
        )
        extrapolation_weight = 1.0 - yarn_ramp(dim, low, high)
        return (theta / factor) * (1.0 - extrapolation_weight) + theta * extrapolation_weight
    if rope_type == "llama3":
        factor, length = config["factor"], config["original_max_position_embeddings"]
        low, high = config["low_freq_factor"], config["high_freq_factor"]
        wavelength = 2 * np.pi / theta
        # The order of transformers' _compute_llama3_parameters: divide the long waves, then
        # blend the band L/high <= lambda <= L/low (empty when high == low, so no 0/0 here).
        scaled = np.where(wavelength > length / low, theta / factor, theta)
        medium = (wavelength >= length / high) & (wavelength <= length / low)
        if high > low:
            smooth = (length / wavelength[medium] - low) / (high - low)
            scaled[medium] = (1 - smooth) * theta[medium] / factor + smooth * theta[medium]
        else:  # lambda exactly L: transformers gets 0/0 (NaN) there; the limit keeps theta
            scaled[medium] = theta[medium]
        return scaled
    # longrope
    for key in ("short_factor", "long_factor"):  # both checked, whichever is used now
        factors = np.asarray(config[key])
        if (factors.shape != (dim // 2,) or factors.dtype.kind not in "iuf"
                or not np.all(np.isfinite(factors)) or np.any(factors <= 0)):
            raise ValueError(
                f"rope_scaling['{key}'] must hold dim // 2 = {dim // 2} positive numbers, got {config[key]!r}"
            )
    use_long = seq_len is not None and seq_len > config["original_max_position_embeddings"]
    return theta / np.asarray(config["long_factor" if use_long else "short_factor"], dtype=np.float64)


def _mscale(scale, weight=1.0):
    r"""YaRN's :math:`0.1\,\mu \ln s + 1` (1 for :math:`s \le 1`), ``get_mscale`` in transformers."""
    return 1.0 if scale <= 1 else 0.1 * weight * math.log(scale) + 1.0


def attention_factor(dim, base=10000.0, *, rope_scaling=None, seq_len=None):
    r"""The factor by which a scaling scheme multiplies cos and sin (1 for most).

    Parameters
    ----------
    dim, base, rope_scaling, seq_len
        As in :func:`inverse_frequencies`.

    Returns
    -------
    float
        For YaRN and LongRoPE, ``rope_scaling['attention_factor']`` when given; otherwise, for YaRN,
        :math:`0.1\ln s + 1` (or the ratio of the two ``mscale`` terms when ``mscale`` and
        ``mscale_all_dim`` are given); for LongRoPE, :math:`\sqrt{1 + \ln s / \ln L}` with
        :math:`s` = ``factor``, or ``max_position_embeddings / original_max_position_embeddings``
        when the block has no factor; 1 for every other type (and for :math:`s \le 1`).

    Raises
    ------
    ValueError
        For a LongRoPE block with neither ``factor`` nor ``max_position_embeddings``:
        transformers then takes the ratio from the model config, which a block alone does not
        carry (:func:`rope_core.from_config` does).

    Examples
    --------
    >>> round(attention_factor(128, rope_scaling={"rope_type": "yarn", "factor": 4.0,
    ...       "original_max_position_embeddings": 4096}), 6)
    1.138629
    """
    rope_type, config = _scaling_config(rope_scaling, base)
    _check_seq_len(seq_len)
    check_dim(dim), check_base(base)
    return _attention_factor(rope_type, config)


def _attention_factor(rope_type, config):
    """The formulas of :func:`attention_factor`, on a validated block."""
    # Like transformers, only YaRN and LongRoPE read an explicit "attention_factor".
    explicit = config.get("attention_factor")
    if rope_type in ("yarn", "longrope") and explicit is not None:
        return float(explicit)
    if rope_type == "yarn":
        factor = _effective_factor(config)
        mscale, mscale_all_dim = config.get("mscale"), config.get("mscale_all_dim")
        if mscale and mscale_all_dim:  # DeepSeek: the rest goes into the softmax scale
            return float(_mscale(factor, mscale) / _mscale(factor, mscale_all_dim))
        return float(_mscale(factor))
    if rope_type == "longrope":
        factor = _effective_factor(config)
        if factor is None:
            raise ValueError(
                "rope_scaling of rope_type 'longrope' needs 'factor' (or "
                "'max_position_embeddings') for its attention factor; transformers "
                "takes the ratio max_position_embeddings / "
                "original_max_position_embeddings from the model config "
                "(rope_core.from_config does too)"
            )
        if factor <= 1.0:
            return 1.0
        length = config["original_max_position_embeddings"]
        return float(math.sqrt(1 + math.log(factor) / math.log(length)))
    return 1.0


def wavelengths(dim, base=10000.0, *, rope_scaling=None, seq_len=None):
    r"""Wavelengths :math:`\lambda_i = 2\pi/\theta_i` in tokens, shape ``(dim // 2,)``.

    Examples
    --------
    >>> wavelengths(4, base=100.0).round(3)
    array([ 6.283, 62.832])
    """
    return 2 * np.pi / inverse_frequencies(dim, base, rope_scaling=rope_scaling, seq_len=seq_len)
