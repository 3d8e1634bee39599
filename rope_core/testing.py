r"""Check your own RoPE implementation against rope_core: :func:`check_rope`.

:func:`check_rope` calls the function under test on a few probes (short positions, the same
vectors further along the sequence, positions near :math:`2^{20}`), compares every output
with rope_core's float64 reference in both layouts, and, when they differ, with the classic
bugs, to say *which* bug it is and how to fix it:

=================  ======================================================================
code               what it means
=================  ======================================================================
``not-a-rotation``  the output is not a rotation of each pair (norms change, no bug fits)
``pairing``        features paired for the other layout, or cos/sin laid out for it
``frequencies``    :math:`\theta_i` wrong: base, exponent :math:`-2i/d`, or ``d``
``positions``      the positions given are ignored, shifted, or wrong when large
``precision``      angles :math:`m\theta_i` formed in float32 (or lower): wrong at long range
``direction``      the rotation turns the other way (:math:`-m\theta_i`)
``partial``        ``rotary_dim``: the wrong features rotated or passed through
``scaling``        ``rope_scaling`` not applied, or its attention factor missing
=================  ======================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._checks import check_base, check_dim, check_layout, check_rotary_dim
from .frequencies import attention_factor, inverse_frequencies

__all__ = ["CODES", "Finding", "RopeReport", "check_rope"]

#: Every finding code :func:`check_rope` can report.
CODES = ("not-a-rotation", "pairing", "frequencies", "positions", "precision", "direction",
         "partial", "scaling")

#: Probe length, and the largest position probed (long contexts reach 2^20 tokens).
_SEQ = 16
_LONGEST = 2**20
#: Largest error allowed, relative to each vector's norm. float32 arithmetic with float64
#: angles stays near 1e-7; every bug probed here is off by 1e-2 or more.
_TOLERANCE = 1e-3


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


def _rope(x, angles, pairs, *, factor=1.0, start=0, tables=None):
    """x with features ``start .. start + r`` rotated by ``angles`` (seq, r/2), float64."""
    r = 2 * angles.shape[-1]
    out = x.copy()
    part = x[:, start:start + r]
    cos = _expand(np.cos(angles) * factor, tables or pairs)
    sin = _expand(np.sin(angles) * factor, tables or pairs)
    out[:, start:start + r] = part * cos + _rotate_pairs(part, pairs) * sin
    return out


class _Setting:
    """The parameters under test and rope_core's reference for them."""

    def __init__(self, head_dim, base, rope_scaling, rotary_dim):
        self.head_dim, self.base, self.rope_scaling = head_dim, base, rope_scaling
        self.rotary_dim = rotary_dim

    def thetas(self, positions, *, scaled=True, dim=None):
        seq_len = float(np.max(positions)) + 1.0
        return inverse_frequencies(dim or self.rotary_dim, self.base,
                                   rope_scaling=self.rope_scaling if scaled else None,
                                   seq_len=seq_len)

    def factor(self, positions):
        if self.rope_scaling is None:
            return 1.0
        return attention_factor(self.rotary_dim, self.base, rope_scaling=self.rope_scaling,
                                seq_len=float(np.max(positions)) + 1.0)

    def reference(self, x, positions, pairs, **changes):
        """rope_core's answer, or a classic bug's when ``changes`` name one."""
        theta = self.thetas(positions, scaled=not changes.get("unscaled", False),
                            dim=changes.get("theta_dim"))
        positions = np.asarray(positions, dtype=np.float64) + changes.get("shift", 0)
        if changes.get("float32_angles"):
            angles = (positions.astype(np.float32)[:, None]
                      * theta.astype(np.float32)).astype(np.float64)
        else:
            angles = positions[:, None] * theta
        if changes.get("reverse"):
            angles = -angles
        angles = angles[:, : changes.get("rotary_dim", self.rotary_dim) // 2]
        factor = 1.0 if changes.get("no_factor") else self.factor(positions - changes.get("shift", 0))
        return _rope(x, angles, pairs, factor=factor, start=changes.get("start", 0),
                     tables=changes.get("tables"))


def _error(out, ref, x):
    """Largest error of any output vector, relative to the norm of its input vector."""
    norms = np.maximum(np.linalg.norm(x, axis=-1), 1e-30)
    return float(np.max(np.linalg.norm(out - ref, axis=-1) / norms))


def _pair_values(array, pairs, r):
    """Complex numbers a + ib, one per pair of the first r features."""
    part = array[:, :r]
    if pairs == "interleaved":
        return part[:, 0::2] + 1j * part[:, 1::2]
    return part[:, : r // 2] + 1j * part[:, r // 2:]


# --- the check ------------------------------------------------------------------------------

def _call(fn, x, positions):
    try:
        out = fn(x.copy(), positions.copy())
    except Exception as error:  # the reader's code failed: say on which probe
        raise RuntimeError(
            f"fn(x, positions) raised {type(error).__name__}: {error} (x float32 of shape "
            f"{x.shape}, positions int64 {positions[:3].tolist()}...)"
        ) from error
    try:
        out = np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"fn must return an array of shape {x.shape}; torch users return "
            f"tensor.detach().cpu().numpy(); got {type(out).__name__} ({error})"
        ) from None
    return out


def check_rope(fn, *, head_dim, base=10000.0, rope_scaling=None, rotary_dim=None, layout=None):
    r"""Probe a RoPE implementation ``fn(x, positions)`` and say what, if anything, is wrong.

    Parameters
    ----------
    fn : callable
        ``fn(x, positions) -> rotated x``: ``x`` a float32 array of shape
        ``(seq, head_dim)``, ``positions`` int64 of shape ``(seq,)``; returns an array of the
        shape of ``x`` (any real dtype). Torch users pass a converting lambda, e.g.
        ``lambda x, p: my_rope(torch.from_numpy(x), torch.from_numpy(p)).numpy()``.
    head_dim : int
        Features per head (even).
    base : float
        ``rope_theta``.
    rope_scaling : dict, optional
        The scaling block the implementation should apply, as in
        :func:`rope_core.inverse_frequencies`; its attention factor multiplies cos and sin.
    rotary_dim : int, optional
        Rotate only the first ``rotary_dim`` features (the rest pass through); default all.
    layout : {"interleaved", "half"}, optional
        The pairing ``fn`` must use; default: either is right.

    Returns
    -------
    RopeReport
        ``.ok``, ``.layout`` (the layout fn uses when its rotation is right), ``.findings``
        (each with ``.code`` from :data:`CODES` and ``.message``) and a readable ``str``.

    Notes
    -----
    Probes: 16 random vectors at positions 0..15, the same vectors at 1000..1015 (a function
    that ignores its positions fails here) and at :math:`2^{20}-15 .. 2^{20}`, where angles
    formed in float32 are off by up to 0.06 rad. Each output must be within 1e-3 (relative
    to the norm of its input) of rope_core's float64 answer.

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
    head_dim = check_dim(head_dim, "head_dim")
    base = check_base(base)
    rotary_dim = check_rotary_dim(rotary_dim, head_dim)
    if layout is not None:
        check_layout(layout)
    inverse_frequencies(rotary_dim, base, rope_scaling=rope_scaling, seq_len=float(_LONGEST))
    setting = _Setting(head_dim, base, rope_scaling, rotary_dim)
    described = f"head_dim={head_dim}, base={base}"
    if rotary_dim != head_dim:
        described += f", rotary_dim={rotary_dim}"
    if rope_scaling is not None:
        described += f", rope_scaling type {rope_scaling.get('rope_type', rope_scaling.get('type'))!r}"
    if layout is not None:
        described += f", layout={layout!r}"

    x = np.random.default_rng(20240501).standard_normal((_SEQ, head_dim)).astype(np.float32)
    x64 = x.astype(np.float64)
    probes = {"short": np.arange(_SEQ, dtype=np.int64),
              "shifted": 1000 + np.arange(_SEQ, dtype=np.int64),
              "long": _LONGEST - _SEQ + 1 + np.arange(_SEQ, dtype=np.int64)}
    outputs = {}
    for name, positions in probes.items():
        out = _call(fn, x, positions)
        if out.shape != x.shape:
            return RopeReport(False, None, (Finding("not-a-rotation", (
                f"fn returned shape {out.shape} for x of shape {x.shape}: RoPE rotates each "
                "vector in place, so the output has the shape of x")),), described)
        if not np.all(np.isfinite(out)):
            return RopeReport(False, None, (Finding("not-a-rotation", (
                f"fn returned NaN or inf at positions {positions[0]}..{positions[-1]} for "
                "finite input: check for overflow in the angles or a division")),), described)
        outputs[name] = out

    def close(name, pairs, **changes):
        ref = setting.reference(x64, probes[name], pairs, **changes)
        return _error(outputs[name], ref, x64) < _TOLERANCE

    order = [layout] if layout else ["interleaved", "half"]
    order += [other for other in ("interleaved", "half") if other not in order]
    found = next((pairs for pairs in order if close("short", pairs)), None)
    if found is not None:
        findings = _check_further(close, found, layout, setting, outputs, probes, x64)
        return RopeReport(not findings, found, tuple(findings), described)
    finding = _diagnose(close, order, layout, setting, outputs["short"], probes["short"], x64)
    return RopeReport(False, None, (finding,), described)


def _check_further(close, pairs, layout, setting, outputs, probes, x64):
    """fn is right at short positions in layout ``pairs``: check the layout asked for, then
    positions further along and near 2^20."""
    findings = []
    if layout is not None and pairs != layout:
        findings.append(Finding("pairing", _PAIRING_SWAPPED.format(found=pairs, asked=layout)))
    if not close("shifted", pairs):
        if np.allclose(outputs["shifted"], outputs["short"], atol=1e-6):
            message = ("fn ignores the positions it is given: positions 1000..1015 give the "
                       "same output as 0..15. Rotate by the positions argument (with a KV "
                       "cache, new tokens start at the cache length), not by arange(seq)")
        else:
            message = ("positions 1000..1015 are rotated wrongly although 0..15 are right: "
                       "fn must use the positions argument as given (no offset, no modulo, "
                       "no clipping to a table of precomputed angles)")
        findings.append(Finding("positions", message))
        return findings
    if not close("long", pairs):
        error = _angle_error(outputs["long"], setting.reference(x64, probes["long"], pairs),
                             pairs, setting.rotary_dim)
        if close("long", pairs, float32_angles=True) or error < 0.5:
            findings.append(Finding("precision", (
                f"near position 2^20 the angles are off by up to {error:.3g} rad, as when "
                "m * theta_i is formed in float32 (transformers' own Llama code does this). "
                "Form positions and inv_freq in float64, multiply there, and cast only cos "
                "and sin to the working dtype")))
        else:
            findings.append(Finding("positions", (
                "positions near 2^20 give wrong results although 1000..1015 are right: the "
                "positions overflow or are truncated (int16/float16 positions, a table of "
                "angles shorter than the context)")))
    return findings


_PAIRING_SWAPPED = (
    "fn pairs features as {found!r} but layout={asked!r} was asked for: 'interleaved' pairs "
    "(2i, 2i+1) (RoFormer, Meta's Llama code), 'half' pairs (i, i + d/2) (transformers' "
    "rotate_half). Use the other rotate helper and cos/sin expansion, or permute W_q and W_k "
    "(rope_core.permute_for_half_layout)")


def _angle_error(out, ref, pairs, r):
    """Largest angle (rad) between output and reference pairs."""
    a, b = _pair_values(out, pairs, r), _pair_values(ref, pairs, r)
    return float(np.max(np.abs(np.angle(a * np.conj(b)))))


def _diagnose(close, order, layout, setting, out, positions, x64):
    """fn is wrong at short positions: name the classic bug it matches, or describe it."""
    r, d = setting.rotary_dim, setting.head_dim
    for pairs in order:
        if close("short", pairs, reverse=True):
            return Finding("direction", (
                "fn turns every pair the wrong way (by -m*theta_i): the sine terms have the "
                "wrong sign. With rotate_half use x*cos + rotate_half(x)*sin where "
                "rotate_half(x) = cat(-x2, x1), or multiply by e^{+i m theta}"))
        if setting.rope_scaling is not None:
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
        if r < d:
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
    return _describe(order, setting, out, positions, x64)


def _describe(order, setting, out, positions, x64):
    """No classic bug fits: look at norms, then at the frequencies fn turns each pair by."""
    r, d = setting.rotary_dim, setting.head_dim
    factor = setting.factor(positions)
    norm_in = np.linalg.norm(x64[:, :r], axis=-1)
    ratio = np.linalg.norm(out[:, :r], axis=-1) / np.maximum(norm_in, 1e-30)
    passed = np.allclose(out[:, r:], x64[:, r:], atol=1e-5)
    if not passed:
        return Finding("partial", (
            f"features {r}..{d - 1} must pass through unchanged (rotary_dim={r}), but fn "
            "changes them"))
    if not np.allclose(ratio, factor, rtol=_TOLERANCE):
        if setting.rope_scaling is not None and np.allclose(ratio, 1.0, rtol=_TOLERANCE):
            return Finding("scaling", (
                f"fn keeps norms, but rope_scaling's attention factor {factor:.6g} should "
                "scale them: multiply cos and sin by rope_core.attention_factor(...)"))
        return Finding("not-a-rotation", (
            f"fn changes the norms of the vectors (output/input from {ratio.min():.3g} to "
            f"{ratio.max():.3g}, expected {factor:.6g}): each pair must be rotated, "
            "x*cos + rotate(x)*sin with rotate(a, b) = (-b, a) and cos, sin of the same angle"))
    for pairs in order:
        zx, zo = _pair_values(x64, pairs, r), _pair_values(out, pairs, r)
        if not np.allclose(np.abs(zo), factor * np.abs(zx), rtol=1e-3, atol=1e-6):
            continue
        steps = np.angle(zo[1:] / zx[1:] * np.conj(zo[:-1] / zx[:-1]))  # turn per position
        theta_fn = np.median(steps, axis=0)
        start = np.angle(zo[0] / zx[0])
        theta = setting.thetas(positions)
        if np.max(np.abs(start)) > 1e-3:
            return Finding("positions", (
                "at position 0 fn already turns the pairs (by up to "
                f"{np.max(np.abs(start)):.3g} rad): position 0 must leave x unchanged; check "
                "for swapped cos and sin or an offset in the positions"))
        unrotated = np.abs(theta_fn) < 1e-9
        if np.any(unrotated) and not np.any(np.abs(theta[unrotated]) < 1e-12):
            first = int(np.argmax(unrotated))
            return Finding("partial", (
                f"fn leaves pairs {first}.. unrotated; with rotary_dim={r} all {r // 2} pairs "
                "turn"))
        if setting.rope_scaling is not None:
            unscaled = setting.thetas(positions, scaled=False)
            if np.allclose(theta_fn, unscaled, rtol=1e-3) or not np.allclose(
                    theta_fn[:1], theta[:1], rtol=1e-3):
                return Finding("scaling", (
                    "fn's frequencies differ from rope_scaling's (pair 0: "
                    f"{theta_fn[0]:.6g}, expected {theta[0]:.6g}); compare with "
                    "rope_core.inverse_frequencies(rotary_dim, base, rope_scaling=...)"))
        shown = ", ".join(f"{a:.4g} (expected {b:.4g})"
                          for a, b in list(zip(theta_fn, theta))[:3])
        return Finding("frequencies", (
            f"fn turns the pairs by the wrong frequencies: theta_0.. = {shown}. Use "
            f"theta_i = base^(-2i/{r}) for i = 0..{r // 2 - 1}: exponent 2i/d, not i/d; the "
            f"base given (rope_theta = {setting.base:g}); d the rotated dimension"))
    return Finding("pairing", (
        "fn keeps each vector's norm but not the norm of each pair in either layout: it "
        "rotates features that are not paired as (2i, 2i+1) or (i, i + d/2)"))
