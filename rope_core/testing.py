r"""Check your own RoPE implementation against rope_core: :func:`check_rope`.

:func:`check_rope` calls the function under test on a few probes (short positions, the same
vectors further along the sequence, and the last positions the model serves), compares every
output with rope_core's float64 reference in both layouts, and, when they differ, with the
classic bugs, to say *which* bug it is and how to fix it:

=================  ======================================================================
code               what it means
=================  ======================================================================
``not-a-rotation``  the output is not a rotation of each pair (norms change, no bug fits)
``pairing``        features paired for the other layout, or cos/sin laid out for it
``frequencies``    :math:`\theta_i` wrong: base, exponent :math:`-2i/d`, or ``d``
``positions``      the positions given are ignored, shifted, or wrong when large
``precision``      angles :math:`m\theta_i` formed (or frequencies held) in float32 or lower:
                   wrong at long range; or rounding beyond what ``dtype`` allows
``direction``      the rotation turns the other way (:math:`-m\theta_i`)
``partial``        ``rotary_dim``: the wrong features rotated or passed through
``scaling``        ``rope_scaling`` not applied (or applied though none was given), or its
                   attention factor missing
``overflow``       inf or NaN at large positions only: a position or angle overflowed its dtype
=================  ======================================================================

For a test suite, describe the model with ``spec=`` (:func:`rope_core.from_config` of its
config), the context it serves with ``max_position=`` and the dtype the code computes in with
``dtype=``; then ``assert check_rope(fn, spec=spec, max_position=8192).ok`` holds exactly for
code that is as exact as that dtype and that context allow.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ._checks import check_base, check_dim, check_rotary_dim
from .apply import layout_name
from .frequencies import attention_factor, inverse_frequencies

__all__ = ["CODES", "DTYPE_TOLERANCES", "Finding", "RopeReport", "check_rope"]

#: Every finding code :func:`check_rope` can report.
CODES = ("not-a-rotation", "pairing", "frequencies", "positions", "precision", "direction",
         "partial", "scaling", "overflow")

#: Probe length, and the last position probed when no ``max_position`` is given (long
#: contexts reach 2^20 tokens).
_SEQ = 16
_LONGEST = 2**20

#: Largest error allowed for each ``dtype``, relative to each vector's norm. Rounding the
#: output to the dtype costs about 1e-7 (float32), 5e-4 (float16) and 4e-3 (bfloat16);
#: angles formed in float32 add about 1e-4 at position 8192, 2e-3 at 131072 and 1e-2 at
#: 2^20. Every classic bug is off by 1e-2 or more.
DTYPE_TOLERANCES = {"float32": 2.0**-8, "float16": 2.0**-8, "bfloat16": 2.0**-7}


@dataclass(frozen=True)
class Finding:
    """One problem :func:`check_rope` found: ``code`` (one of :data:`CODES`) and a message
    saying what is wrong and how to fix it."""

    code: str
    message: str

    def __str__(self):
        return f"[{self.code}] {self.message}"


@dataclass(frozen=True)
class RopeReport:
    """What :func:`check_rope` found.

    ``ok`` is true when there are no findings; ``layout`` is the layout the function uses
    (``"interleaved"`` or ``"half"``) when its rotation matches rope_core's in that layout at
    short positions, else None; ``findings`` lists the problems, each with ``.code`` and
    ``.message``.
    """

    ok: bool
    layout: str | None
    findings: tuple = field(default_factory=tuple)
    settings: str = ""

    @property
    def codes(self):
        """The codes of the findings, in order."""
        return [finding.code for finding in self.findings]

    def __str__(self):
        if self.ok:
            return f"RoPE check passed ({self.settings}): layout {self.layout!r}."
        lines = [f"RoPE check found {len(self.findings)} problem(s) ({self.settings}):"]
        lines += [f"  {finding}" for finding in self.findings]
        return "\n".join(lines)


# --- references ---------------------------------------------------------------------------

def _expand(table, tables_layout):
    """(seq, r/2) -> (seq, r): each pair's value on its two features, laid out for a layout."""
    if tables_layout == "interleaved":
        return np.repeat(table, 2, axis=-1)
    return np.concatenate([table, table], axis=-1)


def _rotate_pairs(part, pairs):
    """The 90-degree turn of every pair: (a, b) -> (-b, a) for the given pairing."""
    out = np.empty_like(part)
    if pairs == "interleaved":
        out[:, 0::2], out[:, 1::2] = -part[:, 1::2], part[:, 0::2]
    else:
        half = part.shape[-1] // 2
        out[:, :half], out[:, half:] = -part[:, half:], part[:, :half]
    return out


def _rope(x, angles, pairs, *, factor=1.0, start=0, tables=None, half_out=False):
    """x with features ``start .. start + r`` rotated by ``angles`` (seq, r/2), float64;
    ``half_out``: interleaved pairs written back in the half order (DeepSeek-V3)."""
    r = 2 * angles.shape[-1]
    out = x.copy()
    part = x[:, start:start + r]
    cos = _expand(np.cos(angles) * factor, tables or pairs)
    sin = _expand(np.sin(angles) * factor, tables or pairs)
    rotated = part * cos + _rotate_pairs(part, pairs) * sin
    if half_out and pairs == "interleaved":
        rotated = np.concatenate([rotated[:, 0::2], rotated[:, 1::2]], axis=-1)
    out[:, start:start + r] = rotated
    return out


class _Setting:
    """The RoPE under test (from arguments or a RopeSpec) and rope_core's reference for it."""

    def __init__(self, head_dim, base, rope_scaling, rotary_dim, spec=None):
        self.head_dim, self.base, self.rope_scaling = head_dim, base, rope_scaling
        self.rotary_dim, self.spec = rotary_dim, spec
        self.start = spec.rotary_offset if spec is not None else 0
        self.half_out = bool(spec is not None and spec.output_in_half_order)
        self.scaled = rope_scaling is not None or (spec is not None and spec.rope_type != "default")

    def thetas(self, positions, *, scaled=True, dim=None):
        seq_len = float(np.max(positions)) + 1.0
        if not scaled or dim is not None:
            scaling = self.rope_scaling if scaled and self.spec is None else None
            return inverse_frequencies(dim or self.rotary_dim, self.base, rope_scaling=scaling,
                                       seq_len=seq_len)
        if self.spec is not None:
            return (self.spec.inverse_frequencies if self.spec.seq_len is not None
                    else self.spec.frequencies_at(seq_len))
        return inverse_frequencies(self.rotary_dim, self.base, rope_scaling=self.rope_scaling,
                                   seq_len=seq_len)

    def factor(self, positions):
        if self.spec is not None:
            return self.spec.attention_factor
        if self.rope_scaling is None:
            return 1.0
        return attention_factor(self.rotary_dim, self.base, rope_scaling=self.rope_scaling,
                                seq_len=float(np.max(positions)) + 1.0)

    def angles(self, positions, **changes):
        theta = self.thetas(positions, scaled=not changes.get("unscaled", False),
                            dim=changes.get("theta_dim"))
        if changes.get("exponent_dim"):  # base^(-2i/D) with the wrong denominator D
            theta = self.base ** (-np.arange(0, self.rotary_dim, 2, dtype=np.float64)
                                  / changes["exponent_dim"])
        positions = np.asarray(positions, dtype=np.float64) + changes.get("shift", 0)
        if changes.get("rounded"):
            # Low-precision code: "theta" = inv_freq held in the dtype; "inputs" = positions
            # and inv_freq cast to it and multiplied there; "angles" = m * theta_i rounded.
            what, dtype = changes["rounded"]
            if what == "theta":
                angles = positions[:, None] * _round_to(theta, dtype)
            elif what == "inputs":
                angles = _round_to(_round_to(positions, dtype)[:, None] * _round_to(theta, dtype), dtype)
            else:
                angles = _round_to(positions[:, None] * theta, dtype)
        elif changes.get("float32_angles"):
            angles = (positions.astype(np.float32)[:, None]
                      * theta.astype(np.float32)).astype(np.float64)
        else:
            angles = positions[:, None] * theta
        if changes.get("reverse"):
            angles = -angles
        return angles[:, : changes.get("rotary_dim", self.rotary_dim) // 2]

    def reference(self, x, positions, pairs, **changes):
        """rope_core's answer, or a classic bug's when ``changes`` name one."""
        angles = self.angles(positions, **changes)
        factor = 1.0 if changes.get("no_factor") else self.factor(positions)
        return _rope(x, angles, pairs, factor=factor, start=changes.get("start", self.start),
                     tables=changes.get("tables"), half_out=self.half_out)

    def pair_values(self, array, pairs, *, output=False):
        """Complex numbers a + ib, one per rotated pair (of an output: in its written order)."""
        part = array[:, self.start:self.start + self.rotary_dim]
        r = self.rotary_dim
        if pairs == "interleaved" and not (output and self.half_out):
            return part[:, 0::2] + 1j * part[:, 1::2]
        return part[:, : r // 2] + 1j * part[:, r // 2:]


def _round_to(values, dtype):
    """float64 values rounded to ``dtype`` (float32, float16 or bfloat16, nearest even)."""
    values = np.asarray(values, dtype=np.float32)
    if dtype == "float16":
        return values.astype(np.float16).astype(np.float64)
    if dtype == "bfloat16":  # keep float32's top 16 bits, rounding the rest to nearest even
        bits = values.view(np.uint32).astype(np.uint64)
        bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    return values.astype(np.float64)


_ROUNDINGS = (("theta", "bfloat16"), ("inputs", "bfloat16"), ("angles", "bfloat16"),
              ("theta", "float16"), ("inputs", "float16"), ("angles", "float16"))
_ROUNDING_CAUSES = {
    "theta": "inv_freq (theta_i) held in {dtype}, as after model.to({dtype}) when the buffer is cast",
    "inputs": "positions and inv_freq cast to {dtype} and multiplied there",
    "angles": "the angles m * theta_i rounded to {dtype}",
}


def _precision_cause(error, setting, x64, out, positions, pairs, where):
    """A precision finding when fn's output is rope_core's with angles rounded to a low
    precision (and not the exact one), naming the rounding and the angle error measured."""
    actual = error(pairs)
    candidates = []
    with np.errstate(all="ignore"):  # far positions overflow float16: that variant just fails
        for rounded in _ROUNDINGS:
            wrong = _error(out, setting.reference(x64, positions, pairs, rounded=rounded), x64)
            candidates.append((wrong if np.isfinite(wrong) else np.inf, rounded))
    wrong, rounded = min(candidates, key=lambda pair: pair[0])
    if not (wrong <= 2.0**-6 and wrong < 0.25 * actual):
        return None
    ref = setting.reference(x64, positions, pairs)
    delta = np.angle(setting.pair_values(out, pairs, output=True)
                     * np.conj(setting.pair_values(ref, pairs, output=True)))
    what, dtype = rounded
    return Finding("precision", (
        f"{where} fn's angles are off by up to {float(np.max(np.abs(delta))):.3g} rad (measured "
        f"against float64), and its output is rope_core's with {_ROUNDING_CAUSES[what].format(dtype=dtype)}. "
        "The formula is right; the precision is not: keep inv_freq and positions in float32 "
        "(inv_freq.float()), form m * theta_i in float32 or float64, and cast only cos and sin "
        f"to {dtype}"))


def _error(out, ref, x):
    """Largest error of any output vector, relative to the norm of its input vector."""
    norms = np.maximum(np.linalg.norm(x, axis=-1), 1e-30)
    return float(np.max(np.linalg.norm(out - ref, axis=-1) / norms))


def _differing(a, b, digits=4):
    """a and b written with just enough digits to show that they differ."""
    for places in range(digits, 17):
        left, right = f"{a:.{places}g}", f"{b:.{places}g}"
        if left != right:
            return left, right
    return f"{a!r}", f"{b!r}"


def _span(values):
    """``a..b`` for consecutive integers, else the first few of them."""
    values = [int(v) for v in values]
    if len(values) == 1:
        return f"{values[0]}"
    if values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")


# --- the check ------------------------------------------------------------------------------

def _call(fn, x, positions):
    try:
        out = fn(x.copy(), positions.copy())
    except Exception as error:  # the reader's code failed: say on which probe
        raise RuntimeError(
            f"fn(x, positions) raised {type(error).__name__}: {error} (x float32 of shape "
            f"{x.shape}, positions int64 {positions[:3].tolist()}...)"
        ) from error
    if out is None:
        return None
    try:
        out = np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"fn must return an array of shape {x.shape}; torch users return "
            f"tensor.detach().cpu().float().numpy(); got {type(out).__name__} ({error})"
        ) from None
    return out


def _check_spec(spec, head_dim, base, rope_scaling, rotary_dim, layout):
    """The settings a RopeSpec gives, after checking that no argument contradicts it."""
    from .config import RopeSpec
    if not isinstance(spec, RopeSpec):
        raise TypeError(f"spec must be a RopeSpec (rope_core.from_config(config)), got {type(spec).__name__}")
    given = {"head_dim": (head_dim, spec.head_dim), "rotary_dim": (rotary_dim, spec.rotary_dim)}
    for name, (value, own) in given.items():
        if value is not None and value != own:
            raise ValueError(f"{name}={value!r} contradicts spec.{name} = {own}: pass spec= alone")
    if rope_scaling is not None or base != 10000.0:
        raise ValueError("spec= already gives the frequencies and scaling (spec.base "
                         f"{spec.base:g}, rope_type {spec.rope_type!r}): leave out base= and rope_scaling=")
    if layout is not None and layout != spec.layout:
        raise ValueError(f"layout={layout!r} contradicts spec.layout = {spec.layout!r}")
    return spec.layout


def _check_max_position(max_position):
    if max_position is None:
        return None
    if isinstance(max_position, bool) or not isinstance(max_position, numbers.Integral):
        raise TypeError(f"max_position must be an integer (the number of positions the code "
                        f"serves, e.g. max_position_embeddings), got {max_position!r}")
    if max_position < 4 * _SEQ:
        raise ValueError(f"max_position must be at least {4 * _SEQ}, got {max_position}")
    return int(max_position)


def _check_dtype(dtype):
    name = getattr(dtype, "name", None) or str(dtype)
    name = name.replace("torch.", "")
    if name not in DTYPE_TOLERANCES:
        raise ValueError(f"dtype must be one of {tuple(DTYPE_TOLERANCES)} (what fn computes in), "
                         f"got {dtype!r}")
    return name


def check_rope(fn, *, head_dim=None, base=10000.0, rope_scaling=None, rotary_dim=None, layout=None,
               spec=None, max_position=None, dtype="float32"):
    r"""Probe a RoPE implementation ``fn(x, positions)`` and say what, if anything, is wrong.

    Parameters
    ----------
    fn : callable
        ``fn(x, positions) -> rotated x``: ``x`` a float32 array of shape
        ``(seq, head_dim)``, ``positions`` int64 of shape ``(seq,)``; returns an array of the
        shape of ``x`` (any real dtype). Torch users pass a converting lambda, e.g.
        ``lambda x, p: my_rope(torch.from_numpy(x), torch.from_numpy(p)).float().numpy()``;
        code that runs in bfloat16 casts ``x`` inside ``fn``, as the model does.
    head_dim : int
        Features per head (even). Required unless ``spec`` is given.
    base : float
        ``rope_theta``.
    rope_scaling : dict, optional
        The scaling block the implementation should apply, as in
        :func:`rope_core.inverse_frequencies`; its attention factor multiplies cos and sin.
    rotary_dim : int, optional
        Rotate only the first ``rotary_dim`` features (the rest pass through); default all.
    layout : {"interleaved", "half"}, optional
        The pairing ``fn`` must use (also ``"gptj"`` = interleaved, ``"neox"`` = half);
        default: either is right (with ``spec``: the spec's).
    spec : RopeSpec, optional
        A model's RoPE from :func:`rope_core.from_config`: the check takes its frequencies
        (scaling included), attention factor, layout, rotary dimension and offset from it.
        Give it instead of ``head_dim``, ``base``, ``rope_scaling`` and ``rotary_dim``.
    max_position : int, optional
        How many positions the code must serve (transformers' ``max_position_embeddings``,
        vLLM's ``max_position``): the last probe is positions ``max_position - 16 ..
        max_position - 1``. Default: the spec's ``max_position_embeddings`` when ``spec=``
        gives one, else positions up to :math:`2^{20}`.
    dtype : {"float32", "bfloat16", "float16"}
        What ``fn`` computes in; it sets the error allowed (:data:`DTYPE_TOLERANCES`).

    Returns
    -------
    RopeReport
        ``.ok``, ``.layout`` (the layout fn uses when its rotation is right), ``.findings``
        (each with ``.code`` from :data:`CODES` and ``.message``) and a readable ``str``.

    Notes
    -----
    Probes: 16 random vectors at positions 0..15, the same vectors at 1000..1015 (or from
    ``max_position // 2`` when that is smaller; a function that ignores its positions fails
    here) and at the last 16 positions served. Each output must be within
    ``DTYPE_TOLERANCES[dtype]`` (relative to the norm of its input: :math:`2^{-8}` for float32
    and float16, :math:`2^{-7}` for bfloat16) of rope_core's float64 answer. Angles
    :math:`m\theta_i` formed in float32, as transformers' code forms them, stay within that
    up to about :math:`2^{17}` positions and are flagged ``precision`` at :math:`2^{20}`.

    Examples
    --------
    >>> from rope_core import apply_rope
    >>> print(check_rope(lambda x, p: apply_rope(x, p, layout="half"), head_dim=64))
    RoPE check passed (head_dim=64, base=10000.0): layout 'half'.
    >>> def no_minus(x, p):        # rotate_half without its minus sign
    ...     half = x.shape[-1] // 2
    ...     angles = np.outer(p, 10000.0 ** (-np.arange(0, 64, 2) / 64))
    ...     cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)
    ...     return x * cos + np.concatenate([x[:, half:], x[:, :half]], -1) * sin
    >>> check_rope(no_minus, head_dim=64).codes
    ['not-a-rotation']
    """
    if not callable(fn):
        raise TypeError(f"fn must be a callable fn(x, positions), got {type(fn).__name__}")
    if layout is not None:
        layout = layout_name(layout)
    if spec is not None:
        layout = _check_spec(spec, head_dim, base, rope_scaling, rotary_dim, layout)
        head_dim, base, rotary_dim = spec.head_dim, spec.base, spec.rotary_dim
    elif head_dim is None:
        raise TypeError("check_rope needs head_dim= (or spec=rope_core.from_config(config))")
    head_dim = check_dim(head_dim, "head_dim")
    base = check_base(base)
    max_position = _check_max_position(max_position)
    if max_position is None and spec is not None and spec.max_position_embeddings is not None \
            and spec.max_position_embeddings >= 4 * _SEQ:
        # The model's own context: code that serves it need not hold at 2^20 positions.
        max_position = spec.max_position_embeddings
    dtype = _check_dtype(dtype)
    tolerance = DTYPE_TOLERANCES[dtype]
    if spec is None:
        rotary_dim = check_rotary_dim(rotary_dim, head_dim)
        inverse_frequencies(rotary_dim, base, rope_scaling=rope_scaling, seq_len=float(_LONGEST))
    setting = _Setting(head_dim, base, rope_scaling, rotary_dim, spec)
    if spec is not None:
        described = f"spec of {spec.model_type or 'a model'} ({spec.rope_type}, head_dim={head_dim}"
        described += f", rotary_dim={rotary_dim})" if rotary_dim != head_dim else ")"
    else:
        described = f"head_dim={head_dim}, base={base}"
        if rotary_dim != head_dim:
            described += f", rotary_dim={rotary_dim}"
        if rope_scaling is not None:
            described += f", rope_scaling type {rope_scaling.get('rope_type', rope_scaling.get('type'))!r}"
        if layout is not None:
            described += f", layout={layout!r}"
    if max_position is not None:
        described += f", max_position={max_position}"
    if dtype != "float32":
        described += f", dtype={dtype!r}"

    last = _LONGEST if max_position is None else max_position - 1
    far = "2^20" if max_position is None else f"{last}"
    shifted_start = min(1000, last // 2)
    x = np.random.default_rng(20240501).standard_normal((_SEQ, head_dim)).astype(np.float32)
    x64 = x.astype(np.float64)
    probes = {"short": np.arange(_SEQ, dtype=np.int64),
              "shifted": shifted_start + np.arange(_SEQ, dtype=np.int64),
              "long": last - _SEQ + 1 + np.arange(_SEQ, dtype=np.int64)}
    outputs, overflows = {}, {}
    for name, positions in probes.items():
        out = _call(fn, x, positions)
        if out is None or out.shape != x.shape:
            got = "None" if out is None else f"shape {out.shape}"
            return RopeReport(False, None, (Finding("not-a-rotation", (
                f"fn returned {got} for x of shape {x.shape}: RoPE rotates each vector and "
                "returns an array of the shape of x")),), described)
        finite = np.all(np.isfinite(out), axis=-1)
        if not np.all(finite):
            if name == "short":
                return RopeReport(False, None, (Finding("not-a-rotation", (
                    f"fn returned NaN or inf at positions {_span(positions[~finite])} for finite "
                    "input: check for a division by zero or a log of zero")),), described)
            overflows[name] = (Finding("overflow", (
                f"fn returned inf or NaN at positions {_span(positions[~finite])} (finite at "
                f"{_span(probes['short'])}): a position or an angle m * theta_i overflowed its "
                "dtype (float16 holds at most 65504). Keep positions as integers and form the "
                "angles in float32 or float64; cast only cos and sin to the working dtype")))
            continue
        outputs[name] = out

    def error(name, pairs, **changes):
        return _error(outputs[name], setting.reference(x64, probes[name], pairs, **changes), x64)

    def close(name, pairs, **changes):
        return error(name, pairs, **changes) <= tolerance

    order = [layout] if layout else ["interleaved", "half"]
    order += [other for other in ("interleaved", "half") if other not in order]
    found = next((pairs for pairs in order if close("short", pairs)), None)
    if found is None:
        finding = _diagnose(close, error, order, setting, outputs["short"], probes["short"], x64,
                            tolerance, dtype)
        return RopeReport(False, None, (finding, *overflows.values()), described)
    ahead = []
    if layout is not None and found != layout:
        ahead.append(Finding("pairing", _PAIRING_SWAPPED.format(found=found, asked=layout)))
    context = _Far(close, error, found, setting, outputs, probes, x64, tolerance, dtype, far)
    findings = []
    for name in ("shifted", "long"):
        if name in overflows:
            findings.append(overflows[name])
        elif not close(name, found):
            finding = context.diagnose(name)
            findings.append(finding)
            if finding.code != "precision":
                break
    precision = [f for f in findings if f.code == "precision"]
    if len(precision) > 1:  # the same cause seen twice: keep the farther, larger one
        findings = [f for f in findings if f.code != "precision"] + precision[-1:]
    findings = ahead + findings
    return RopeReport(not findings, found, tuple(findings), described)


_PAIRING_SWAPPED = (
    "fn pairs features as {found!r} but layout={asked!r} was asked for: 'interleaved' pairs "
    "(2i, 2i+1) (RoFormer, Meta's Llama code), 'half' pairs (i, i + d/2) (transformers' "
    "rotate_half). Use the other rotate helper and cos/sin expansion, or permute W_q and W_k "
    "(rope_core.permute_for_half_layout)")


class _Far:
    """fn is right at positions 0..15 in layout ``pairs``: say why a farther probe differs."""

    def __init__(self, close, error, pairs, setting, outputs, probes, x64, tolerance, dtype, far):
        self.close, self.error, self.pairs, self.setting = close, error, pairs, setting
        self.outputs, self.probes, self.x64 = outputs, probes, x64
        self.tolerance, self.dtype, self.far = tolerance, dtype, far

    def where(self, name):
        positions = self.probes[name]
        return f"near position {self.far}" if name == "long" else f"at positions {_span(positions)}"

    def diagnose(self, name):
        setting, pairs, positions = self.setting, self.pairs, self.probes[name]
        if setting.scaled and (self.close(name, pairs, unscaled=True)
                               or self.close(name, pairs, unscaled=True, no_factor=True)):
            return Finding("scaling", (
                f"fn ignores rope_scaling: {self.where(name)} its frequencies are the unscaled "
                "base^(-2i/d) (the scaled slow pairs differ only beyond the first positions). "
                "Compute inv_freq with the scaling type's rule (rope_core.inverse_frequencies "
                "gives the expected values)"))
        if "short" in self.outputs and np.allclose(self.outputs[name], self.outputs["short"], atol=1e-6):
            return Finding("positions", (
                f"fn ignores the positions it is given: positions {_span(positions)} give the "
                f"same output as {_span(self.probes['short'])}. Rotate by the positions argument "
                "(with a KV cache, new tokens start at the cache length), not by arange(seq)"))
        rounding = _precision_cause(lambda p: self.error(name, p), setting, self.x64,
                                    self.outputs[name], positions, pairs, self.where(name).capitalize() + ",")
        if rounding is not None:
            return rounding
        ref = setting.reference(self.x64, positions, pairs)
        out_z = setting.pair_values(self.outputs[name], pairs, output=True)
        ref_z = setting.pair_values(ref, pairs, output=True)
        delta = np.angle(out_z * np.conj(ref_z))                       # (seq, pairs), rad
        angles = np.abs(setting.angles(positions))
        loud = np.abs(delta) > 2 * self.tolerance                     # above the rounding
        relative = np.abs(delta[loud]) / np.maximum(angles[loud], 1e-30)
        worst = float(np.max(np.abs(delta)))
        if worst < 0.5 and (relative.size == 0 or np.max(relative) < 1e-2):
            return Finding("precision", self.precision_message(name, delta, positions, worst))
        if not setting.scaled and name == "shifted":
            finding = _unexpected_scaling(delta, positions, setting.thetas(positions), self.tolerance)
            if finding is not None:
                return finding
        if name == "shifted":
            return Finding("positions", (
                f"positions {_span(positions)} are rotated wrongly although "
                f"{_span(self.probes['short'])} are right: fn must use the positions argument "
                "as given (no offset, no modulo, no clipping to a table of precomputed angles)"))
        return Finding("positions", (
            f"positions near {self.far} give wrong results although "
            f"{_span(self.probes['shifted'])} are right: the positions overflow or are truncated "
            "(int16/float16 positions, a table of angles shorter than the context"
            + (")" if self.far == "2^20" else
               f"; the model serves {self.probes['long'][-1] + 1} positions)")))

    def precision_message(self, name, delta, positions, worst):
        """Say which rounding fits: frequencies held in low precision (an error exactly
        proportional to m) or angles m * theta_i rounded (an error that jitters)."""
        m = positions.astype(np.float64)[:, None]
        slope = np.sum(delta * m, axis=0) / np.sum(m * m, axis=0)
        residual = float(np.max(np.abs(delta - slope * m)))
        angles = np.abs(self.setting.angles(positions))
        float32_scale = float(np.max(angles)) * 2.0**-24
        low = "float16 or bfloat16" if worst > 64 * float32_scale else "float32"
        if residual < 0.2 * worst:
            cause = (f"the error grows exactly as m: inv_freq (theta_i) is held in {low} (or "
                     "lower), even if m * theta_i is then formed in float64")
        else:
            cause = f"as when m * theta_i is formed in {low}" + (
                " (transformers' own Llama code does this)" if low == "float32" else "")
        return (f"{self.where(name)} fn's output is off by up to {self.error(name, self.pairs):.3g} "
                f"(relative to each vector's norm; dtype={self.dtype!r} allows {self.tolerance:.3g}) "
                f"because its angles are off by up to {worst:.3g} rad, {cause}. "
                "Form positions and inv_freq in float64, multiply there, and cast only cos and "
                "sin to the working dtype" + ("; or pass max_position= the context the model "
                                              "serves" if self.far == "2^20" and name == "long" else ""))


def _unexpected_scaling(delta, positions, theta, tolerance):
    """No rope_scaling was given, yet fn's slow pairs turn more slowly than base^(-2i/d) while
    its fast pairs match: the pattern of context-extension scaling."""
    differ = np.max(np.abs(delta), axis=0) > 2 * tolerance
    if not np.any(differ) or differ[0]:
        return None
    first = int(np.argmax(differ))
    m = float(positions[0])
    slowest = theta.size - 1
    measured = theta[slowest] + delta[0, slowest] / m
    if not measured < theta[slowest]:
        return None
    shown, expected = _differing(measured, theta[slowest])
    return Finding("scaling", (
        f"fn's pairs {first}..{slowest} (wavelengths from {2 * np.pi / theta[first]:.4g} tokens) "
        f"turn more slowly than base^(-2i/d) while pairs 0..{first - 1} match: pair {slowest} "
        f"turns by {shown} rad per token, base^(-2i/d) gives {expected} "
        f"({measured / theta[slowest]:.3g}x). That is context-extension scaling (llama3, YaRN, "
        "linear): pass its rope_scaling= (or spec=rope_core.from_config(config)), or drop it "
        "from fn if the model has none"))


def _diagnose(close, error, order, setting, out, positions, x64, tolerance, dtype):
    """fn is wrong at short positions: name the classic bug it matches, or describe it."""
    r, d = setting.rotary_dim, setting.head_dim
    for pairs in order:
        rounding = _precision_cause(lambda p: error("short", p), setting, x64, out, positions, pairs,
                                    f"At positions {_span(positions)},")
        if rounding is not None:
            return rounding
    for pairs in order:
        if close("short", pairs, reverse=True):
            return Finding("direction", (
                "fn turns every pair the wrong way (by -m*theta_i): the sine terms have the "
                "wrong sign. With rotate_half use x*cos + rotate_half(x)*sin where "
                "rotate_half(x) = cat(-x2, x1), or multiply by e^{+i m theta}"))
        if setting.scaled:
            if close("short", pairs, unscaled=True, no_factor=True) or close(
                    "short", pairs, unscaled=True):
                return Finding("scaling", (
                    "fn ignores rope_scaling: its frequencies are the unscaled base^(-2i/d). "
                    "Compute inv_freq with the scaling type's rule (rope_core.inverse_frequencies"
                    " gives the expected values)"))
            if close("short", pairs, no_factor=True):
                return Finding("scaling", (
                    f"fn applies rope_scaling's frequencies but not its attention factor "
                    f"{setting.factor(positions):.6g}: multiply cos and sin by it "
                    "(rope_core.attention_factor), as transformers does"))
        if r < d and setting.start == 0:
            if close("short", pairs, rotary_dim=d, theta_dim=d):
                return Finding("partial", (
                    f"fn rotates all {d} features; only the first rotary_dim={r} should turn "
                    "(with frequencies over rotary_dim), the rest pass through unchanged"))
            if close("short", pairs, theta_dim=d):
                return Finding("partial", (
                    f"fn rotates the first {r} features with frequencies computed over "
                    f"head_dim={d}; use theta_i = base^(-2i/rotary_dim)"))
            if close("short", pairs, start=d - r):
                return Finding("partial", (
                    f"fn rotates the last {r} features; the first rotary_dim={r} turn and the "
                    "rest pass through"))
        denominator = next((n for n in (r // 2, 2 * r, r - 2, r + 2, d, d // 2)
                            if n != r and n > 0 and close("short", pairs, exponent_dim=n)), None)
        if denominator is not None and not (setting.scaled or setting.spec is not None
                                            and setting.spec.rotated_pairs < r // 2):
            exact = setting.thetas(positions)
            used = setting.base ** (-np.arange(0, r, 2, dtype=np.float64) / denominator)
            shown = ", ".join("pair {}: {} (expected {})".format(i, *_differing(used[i], exact[i]))
                              for i in (1, r // 4, r // 2 - 1))
            return Finding("frequencies", (
                f"fn's exponent divides by {denominator} instead of the rotated dimension {r}: "
                f"theta_i = base^(-2i/{denominator}), so all pairs but the first turn at the wrong "
                f"rate ({shown}). Use theta_i = base^(-2i/{r}): exponent 2i/d with d the rotated "
                "dimension" + (", not i/d" if denominator == 2 * r else "")))
        if setting.start == 0:
            fewer = next((n for n in range(r - 2, 0, -2)
                          if close("short", pairs, rotary_dim=n, theta_dim=n)), None)
            if fewer is not None:
                return Finding("partial", (
                    f"fn rotates only the first {fewer} features (frequencies over {fewer}); "
                    f"rotary_dim={r} of head_dim={d} should turn: check partial_rotary_factor "
                    "or rotary_dim on both sides"))
        for shift in (1, -1):
            if close("short", pairs, shift=shift):
                return Finding("positions", (
                    f"fn rotates by position m{shift:+d}: an off-by-one (the first token is at "
                    "position 0, a KV cache's next token at the cache length)"))
    for pairs in order:
        other = "half" if pairs == "interleaved" else "interleaved"
        if close("short", pairs, tables=other):
            return Finding("pairing", (
                f"fn pairs features as {pairs!r} but lays out cos/sin for {other!r}: "
                + ("repeat each value twice (repeat_interleave) for interleaved pairs"
                   if pairs == "interleaved" else
                   "tile the table twice (cat(freqs, freqs)) for rotate_half pairs")))
    return _describe(order, setting, out, positions, x64, error, tolerance, dtype)


def _rounding_only(order, setting, out, positions, x64, error, tolerance, dtype):
    """A precision finding when fn misses by little and its angle errors show no pattern
    (a frequency off by a little turns a pair by an angle growing with m; rounding does not)."""
    worst, pairs = min((error("short", pairs), pairs) for pairs in order)
    if worst >= 16 * tolerance:
        return None
    m = positions.astype(np.float64)[:, None]
    turned = np.angle(setting.pair_values(out, pairs, output=True) / setting.pair_values(x64, pairs))
    delta = np.angle(np.exp(1j * (turned - m * setting.thetas(positions))))
    slope = np.sum(delta * m, axis=0) / np.sum(m * m)
    noise = float(np.std(delta - slope * m))
    if np.any(np.abs(slope) * m[-1, 0] > max(5 * noise, tolerance)):
        return None
    return Finding("precision", (
        f"fn differs from rope_core by up to {worst:.3g} (relative to each vector's norm) "
        f"already at positions {_span(positions)}, more than dtype={dtype!r} allows "
        f"({tolerance:.3g}), and the difference is rounding, not a pattern in the angles: if "
        "fn computes in bfloat16 or float16, pass dtype= that; if it should compute in "
        f"{dtype}, look for a cast to a lower precision"))


def _describe(order, setting, out, positions, x64, error, tolerance, dtype):
    """No classic bug fits: look at passed-through features, rounding, norms, then at the
    frequencies fn turns by."""
    r, d, start = setting.rotary_dim, setting.head_dim, setting.start
    factor = setting.factor(positions)
    rotated = slice(start, start + r)
    norm_in = np.linalg.norm(x64[:, rotated], axis=-1)
    ratio = np.linalg.norm(out[:, rotated], axis=-1) / np.maximum(norm_in, 1e-30)
    kept = np.ones(d, bool)
    kept[rotated] = False
    if not np.allclose(out[:, kept], x64[:, kept], rtol=tolerance, atol=1e-5):
        changed = np.flatnonzero(~np.all(np.isclose(out, x64, rtol=tolerance, atol=1e-5), axis=0) & kept)
        return Finding("partial", (
            f"features {_span(changed)} must pass through unchanged (only features "
            f"{start}..{start + r - 1} rotate, rotary_dim={r}), but fn changes them"))
    small = _rounding_only(order, setting, out, positions, x64, error, tolerance, dtype)
    if small is not None:
        return small
    if not np.allclose(ratio, factor, rtol=max(1e-3, tolerance)):
        if setting.scaled and np.allclose(ratio, 1.0, rtol=max(1e-3, tolerance)):
            return Finding("scaling", (
                f"fn keeps norms, but rope_scaling's attention factor {factor:.6g} should "
                "scale them: multiply cos and sin by rope_core.attention_factor(...)"))
        low, high = _differing(ratio.min(), ratio.max(), 3)
        return Finding("not-a-rotation", (
            f"fn changes the norms of the vectors (output/input from {low} to {high}, "
            f"expected {factor:.6g}): each pair must be rotated, x*cos + rotate(x)*sin with "
            "rotate(a, b) = (-b, a) and cos, sin of the same angle"))
    theta = setting.thetas(positions)
    m = positions.astype(np.float64)[:, None]
    for pairs in order:
        zx = setting.pair_values(x64, pairs)
        zo = setting.pair_values(out, pairs, output=True)
        if not np.allclose(np.abs(zo), factor * np.abs(zx), rtol=max(1e-3, 4 * tolerance), atol=1e-6):
            continue
        turned = np.angle(zo / zx)                                     # (seq, pairs)
        start_turn = turned[0]
        if np.max(np.abs(start_turn)) > max(1e-3, 4 * tolerance):
            return Finding("positions", (
                "at position 0 fn already turns the pairs (by up to "
                f"{np.max(np.abs(start_turn)):.3g} rad): position 0 must leave x unchanged; check "
                "for swapped cos and sin or an offset in the positions"))
        worst = error("short", pairs)
        if worst < 16 * tolerance:
            # Small errors: fit each pair's angle error as slope * m (no wrap-around).
            delta = np.angle(np.exp(1j * (turned - m * theta)))
            slope = np.sum(delta * m, axis=0) / np.sum(m * m)
            noise = float(np.std(delta - slope * m))
            theta_fn = theta + slope
            wrong = np.flatnonzero(np.abs(slope) * m[-1, 0] > max(5 * noise, tolerance))
        else:
            steps = np.angle(zo[1:] / zx[1:] * np.conj(zo[:-1] / zx[:-1]))  # turn per position
            theta_fn = np.median(steps, axis=0)
            wrong = np.flatnonzero(~np.isclose(theta_fn, theta, rtol=1e-3, atol=tolerance / m[-1, 0]))
        if wrong.size == 0:
            wrong = np.array([int(np.argmax(np.abs(theta_fn - theta)))])
        unrotated = np.abs(theta_fn) < 1e-9
        if np.any(unrotated) and not np.any(np.abs(theta[unrotated]) < 1e-12):
            first = int(np.argmax(unrotated))
            return Finding("partial", (
                f"fn leaves pairs {first}.. unrotated; with rotary_dim={r} all {r // 2} pairs "
                "turn"))
        if setting.scaled:
            unscaled = setting.thetas(positions, scaled=False)
            if np.allclose(theta_fn, unscaled, rtol=1e-3) or not np.allclose(
                    theta_fn[:1], theta[:1], rtol=1e-3):
                shown, expected = _differing(theta_fn[wrong[0]], theta[wrong[0]])
                return Finding("scaling", (
                    f"fn's frequencies differ from rope_scaling's (pair {wrong[0]}: {shown}, "
                    f"expected {expected}); compare with "
                    "rope_core.inverse_frequencies(rotary_dim, base, rope_scaling=...)"))
        if not setting.scaled and wrong[0] > 0 and np.all(theta_fn[wrong] < theta[wrong]):
            shown, expected = _differing(theta_fn[wrong[-1]], theta[wrong[-1]])
            return Finding("scaling", (
                f"fn's slow pairs (from pair {wrong[0]} on) turn more slowly than base^(-2i/d) "
                f"while the faster pairs match (pair {wrong[-1]}: {shown} rad per token, expected "
                f"{expected}): that is context-extension scaling (llama3, YaRN, linear): pass "
                "its rope_scaling= (or spec=rope_core.from_config(config)), or drop it from fn "
                "if the model has none"))
        shown = ", ".join("pair {}: {} (expected {})".format(i, *_differing(theta_fn[i], theta[i]))
                          for i in wrong[:3])
        return Finding("frequencies", (
            f"fn turns pairs {_span(wrong)} by the wrong frequencies: {shown}. Use "
            f"theta_i = base^(-2i/{r}) for i = 0..{r // 2 - 1}: exponent 2i/d, not i/d; the "
            f"base given (rope_theta = {setting.base:g}); d the rotated dimension"))
    return Finding("pairing", (
        "fn keeps each vector's norm but not the norm of each pair in either layout: it "
        "rotates features that are not paired as (2i, 2i+1) or (i, i + d/2)"))
