"""Checks of the book's claims that say which claim failed, for which values, and why.

A chapter states a claim in prose and checks it in code. When a reader changes a parameter
and runs all cells, a check either still holds or names the claim that no longer holds for
those values; it never stops the notebook with a bare ``AssertionError``.

A failed claim is written to standard error and execution goes on, so the rest of the
chapter still runs. The book's strict build turns any standard-error output of a cell into
an error, so a claim that fails for the book's own values fails the build.

Examples
--------
>>> import numpy as np
>>> claim("every angle is below one turn", np.all(np.array([0.5, 1.0]) < 2 * np.pi))
True
>>> claim_close("cos² + sin² = 1", np.cos(0.3) ** 2 + np.sin(0.3) ** 2, 1.0)
True
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["ClaimFailure", "claim", "claim_close"]

MARKER = "Claim does not hold"  # every failure message starts with this; tests look for it


class ClaimFailure(str):
    """The message of a failed claim (a ``str``), as written to standard error."""


def _as_bool(holds, statement):
    if callable(holds):
        holds = holds()
    array = np.asarray(holds)
    if array.dtype != bool:
        raise TypeError(
            f"holds must be a bool or an array of bools for the claim {statement!r}, "
            f"got {type(holds).__name__} of dtype {array.dtype}"
        )
    return bool(array.all())


def claim(statement, holds, *, why=""):
    """Check one claim of the text; on failure, say which claim, for these values, and why.

    Parameters
    ----------
    statement : str
        The claim as the prose makes it, e.g. ``"every slow pair returns to its trained arc"``.
    holds : bool, array of bool, or callable returning one
        ``True`` (every element ``True``) when the claim holds.
    why : str, optional
        What was measured, shown only on failure: the offending values, with their numbers.

    Returns
    -------
    bool
        Whether the claim holds. On failure a :class:`ClaimFailure` message starting with
        ``"Claim does not hold"`` is written to ``sys.stderr``; nothing is raised.
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"statement must be a non-empty str, got {statement!r}")
    if not isinstance(why, str):
        raise TypeError(f"why must be a str, got {type(why).__name__}")
    if _as_bool(holds, statement):
        return True
    message = ClaimFailure(f"{MARKER} for these values: {statement}" + (f"\n  because {why}" if why else ""))
    print(message, file=sys.stderr, flush=True)
    return False


def claim_close(statement, actual, expected, *, rtol=1e-7, atol=0.0, why=""):
    """:func:`claim` that ``actual`` equals ``expected`` elementwise within tolerances.

    The test is numpy's ``|actual - expected| <= atol + rtol * |expected|``; on failure the
    message gives the largest absolute and relative differences and where they occur.

    Parameters
    ----------
    statement : str
        The claim as the prose makes it.
    actual, expected : array_like
        Broadcastable arrays of numbers.
    rtol, atol : float
        Relative and absolute tolerance (``>= 0``).
    why : str, optional
        Extra context added to the failure message.

    Returns
    -------
    bool
        Whether the claim holds.
    """
    for name, value in (("rtol", rtol), ("atol", atol)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
            raise ValueError(f"{name} must be a number >= 0, got {value!r}")
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    try:
        actual, expected = np.broadcast_arrays(actual, expected)
    except ValueError:
        raise ValueError(
            f"actual and expected must broadcast for the claim {statement!r}, "
            f"got shapes {np.shape(actual)} and {np.shape(expected)}"
        ) from None
    close = np.isclose(actual, expected, rtol=rtol, atol=atol)
    if close.all():
        return claim(statement, True)
    error = np.abs(actual - expected)
    worst = np.unravel_index(np.nanargmax(np.where(close, -np.inf, error)), error.shape)
    relative = error[worst] / abs(expected[worst]) if expected[worst] != 0 else np.inf
    detail = (
        f"{int((~close).sum())} of {close.size} values differ; the worst, at index {tuple(int(i) for i in worst)}, "
        f"is {actual[worst]:.6g} against {expected[worst]:.6g} (abs. error {error[worst]:.3g}, "
        f"rel. error {relative:.3g}; rtol={rtol:g}, atol={atol:g})"
    )
    return claim(statement, False, why=detail + (f"; {why}" if why else ""))
