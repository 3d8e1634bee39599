r"""Candidate position encodings :math:`f(x, m)` of chapter 4, and their score matrices.

Chapter 4 asks for an :math:`f` with :math:`\langle f(q, m), f(k, n)\rangle` a function of
:math:`m - n` only. Over a grid of positions that is a statement about a matrix: the score
:math:`S_{mn}` must be constant along every diagonal :math:`n - m = \text{const}`, i.e.
:math:`S` is a *Toeplitz* matrix. The ``CandidateExplorer`` widget draws the tables of
:func:`candidate_table`; vectors are complex numbers, :math:`q = q_0 + \mathrm{i}\,q_1`.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._checks import check_int

__all__ = ["CANDIDATES", "CANDIDATE_ALGEBRA", "CANDIDATE_DEFAULTS", "CANDIDATE_LENGTH_RANGE", "CANDIDATE_MORE_CONTENTS",
           "CANDIDATE_PARAMETERS", "candidate_meets_wish", "candidate_table", "diagonal_spread", "encode"]

#: The chapter's candidates: name -> (formula as the book writes it, what it tries).
CANDIDATES = {
    "rotation": ("f(q, m) = q e^{imθ}", "turn by mθ"),
    "no position": ("f(q, m) = q", "ignore the position"),
    "additive": ("f(q, m) = q + (e^{imθ} − 1)/2", "add a position vector"),
    "growing": ("f(q, m) = 1.01^m q e^{imθ}", "turn and grow"),
    "quadratic": ("f(q, m) = q e^{im²θ/8}", "turn by a quadratic angle"),
    "by content": ("f(q, m) = q e^{imθ|q|}", "turn long vectors faster"),
    "parity": ("f(q, m) = q, or q̄ if m is odd", "mirror at odd positions"),
}

#: The widget's query and key (complex), frequency and positions 0 .. size - 1.
CANDIDATE_DEFAULTS = {"q": 0.9397 + 0.3420j, "k": 0.2071 + 0.7727j, "theta": 0.5, "size": 16}

#: The numbers inside the candidates' formulas, by name: the growth per position of "growing",
#: the half in "additive"'s position vector (e^{imθ} − 1)/2 and the divisor 8 of "quadratic"'s
#: angle m²θ/8. ``encode`` uses these, and the widget sends them so the page can do the same.
CANDIDATE_PARAMETERS = {"growth": 1.01, "additive_half": 0.5, "quadratic_divisor": 8.0}

#: Lengths the widget lets the reader give q and k by dragging their tips.
CANDIDATE_LENGTH_RANGE = (0.2, 1.3)

#: Further contents (q, k) the widget offers after the default one: the wish must hold for every
#: content. The first pair has two different lengths; the second two equal ones (both √0.72),
#: the one kind of content for which "by content" happens to pass.
CANDIDATE_MORE_CONTENTS = ((-0.35 + 0.62j, 0.9 - 0.2j), (0.6 + 0.6j, 0.84 + 0.12j))

#: For each candidate, the one line of algebra of f(q, m) conj(f(k, n)) that decides it: what is
#: left of m and n. tests/test_widgets_wA.py checks each line against ``encode``.
CANDIDATE_ALGEBRA = {
    "rotation": "q e^{imθ} · conj(k e^{inθ}) = q k̄ e^{i(m−n)θ}: only m − n is left",
    "no position": "q · k̄: no position is left at all (every diagonal constant, but the order is lost)",
    "additive": "(q + a_m)(k̄ + ā_n) = q k̄ + q ā_n + a_m k̄ + a_m ā_n, a_m = (e^{imθ} − 1)/2: the middle terms see n alone and m alone",
    "growing": "1.01^{m+n} q k̄ e^{i(m−n)θ}: the growth sees m + n",
    "quadratic": "q k̄ e^{i(m² − n²)θ/8} = q k̄ e^{i(m−n)(m+n)θ/8}: the angle sees m + n too",
    "by content": "q k̄ e^{i(m|q| − n|k|)θ}: a function of m − n only when |q| = |k|",
    "parity": "Re: Re(q k̄) when n − m is even, Re(q k) when odd, so n − m only; Im: its sign flips with m",
}


def _check_complex(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Number) or not np.isfinite(complex(value)):
        raise ValueError(f"{name} must be a finite complex number, got {value!r}")
    return complex(value)


def encode(name, x, positions, theta):
    r"""The candidate ``name`` applied to the complex vectors ``x`` at ``positions``.

    Parameters
    ----------
    name : str
        A key of :data:`CANDIDATES`.
    x : complex or array_like of complex
    positions : array_like of int, broadcasting with ``x``
    theta : float
        Angle per position (radians).

    Returns
    -------
    ndarray of complex

    Examples
    --------
    >>> complex(np.round(encode("rotation", 1.0, 1, np.pi / 2), 12))
    1j
    >>> complex(encode("parity", 1 + 2j, 3, 0.5))
    (1-2j)
    """
    if name not in CANDIDATES:
        raise ValueError(f"name must be one of {list(CANDIDATES)}, got {name!r}")
    x = np.asarray(x, dtype=np.complex128)
    p = np.asarray(positions, dtype=np.float64)
    theta = float(theta)
    if name == "rotation":
        return x * np.exp(1j * p * theta)
    if name == "no position":
        return x * np.ones_like(p)
    if name == "additive":
        return x + CANDIDATE_PARAMETERS["additive_half"] * (np.exp(1j * p * theta) - 1)
    if name == "growing":
        return x * CANDIDATE_PARAMETERS["growth"]**p * np.exp(1j * p * theta)
    if name == "quadratic":
        return x * np.exp(1j * p**2 * theta / CANDIDATE_PARAMETERS["quadratic_divisor"])
    if name == "by content":
        return x * np.exp(1j * p * theta * np.abs(x))
    return np.where(p % 2 == 0, x, np.conj(x))   # parity


def diagonal_spread(matrix):
    r"""For a square matrix, the spread (max − min) along each diagonal :math:`n - m = \delta`.

    Returns
    -------
    (ndarray, ndarray)
        ``offsets`` :math:`\delta = -(N-1) \dots N-1` and the spread of each; a matrix is
        Toeplitz exactly when every spread is 0.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"matrix must be square, got shape {matrix.shape}")
    size = matrix.shape[0]
    offsets = np.arange(-(size - 1), size)
    spreads = np.array([np.ptp(np.diagonal(matrix, offset=int(d))) for d in offsets])
    return offsets, spreads


def candidate_table(q=CANDIDATE_DEFAULTS["q"], k=CANDIDATE_DEFAULTS["k"], theta=CANDIDATE_DEFAULTS["theta"],
                    size=CANDIDATE_DEFAULTS["size"]):
    r"""Score matrices of every candidate over positions :math:`m, n = 0 \dots` ``size`` − 1.

    Returns
    -------
    dict
        ``names`` (the keys of :data:`CANDIDATES`), ``positions`` (size,), ``offsets``
        (2 size − 1,) and, per candidate name, ``real`` :math:`S_{mn} = \operatorname{Re}[f(q,
        m)\overline{f(k, n)}]` (the score, rows ``m``, columns ``n``), ``imag`` the imaginary
        part of the same product (the complex wish asks for both), and ``real_spread``,
        ``imag_spread``: the spread along each diagonal :math:`n - m = \delta`.
    """
    q, k = _check_complex(q, "q"), _check_complex(k, "k")
    if isinstance(theta, bool) or not isinstance(theta, numbers.Real) or not np.isfinite(theta):
        raise ValueError(f"theta must be a finite real number, got {theta!r}")
    size = check_int(size, "size", min=2, max=64)
    positions = np.arange(size)
    out = {"names": list(CANDIDATES), "positions": positions, "q": q, "k": k, "theta": float(theta)}
    for name in CANDIDATES:
        product = encode(name, q, positions[:, None], theta) * np.conj(encode(name, k, positions[None, :], theta))
        offsets, real_spread = diagonal_spread(product.real)
        _, imag_spread = diagonal_spread(product.imag)
        out[name] = {"real": product.real, "imag": product.imag, "real_spread": real_spread, "imag_spread": imag_spread}
    out["offsets"] = offsets
    return out


def candidate_meets_wish(name, theta=CANDIDATE_DEFAULTS["theta"], size=CANDIDATE_DEFAULTS["size"], trials=64, seed=0):
    r"""Whether the candidate ``name`` meets the real wish for every content tried: its score
    :math:`\operatorname{Re}[f(q, m)\overline{f(k, n)}]` is constant along every diagonal
    :math:`n - m` for ``trials`` random contents :math:`(q, k)`.

    The lengths :math:`|q|, |k|` are drawn independently from :data:`CANDIDATE_LENGTH_RANGE`
    and the directions uniformly, so a candidate that passes only for special contents (such as
    "by content", which needs :math:`|q| = |k|`) fails. A diagonal counts as constant when its
    spread is below :math:`10^{-9}` times the largest :math:`|S_{mn}|`.

    Parameters
    ----------
    name : str
        A key of :data:`CANDIDATES`.
    theta : float
    size : int
        Positions :math:`0 \dots` ``size`` − 1.
    trials : int
        How many random contents to try (at least 1).
    seed : int
        Seed of the random contents.

    Returns
    -------
    bool

    Examples
    --------
    >>> candidate_meets_wish("rotation"), candidate_meets_wish("by content")
    (True, False)
    """
    if name not in CANDIDATES:
        raise ValueError(f"name must be one of {list(CANDIDATES)}, got {name!r}")
    trials = check_int(trials, "trials", min=1)
    rng = np.random.default_rng(check_int(seed, "seed", min=0))
    for _ in range(trials):
        lengths = rng.uniform(*CANDIDATE_LENGTH_RANGE, size=2)
        q, k = lengths * np.exp(1j * rng.uniform(0, 2 * np.pi, size=2))
        scores = candidate_table(q, k, theta, size)[name]["real"]
        if diagonal_spread(scores)[1].max() >= 1e-9 * np.abs(scores).max():
            return False
    return True
