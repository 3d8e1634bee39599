"""Checks of the book's claims that say which claim failed, for which values, and why.

A chapter states a claim in prose and checks it in code. When a reader changes a parameter
and runs all cells, a check either still holds or names the claim that no longer holds for
those values; it never stops the notebook with a bare ``AssertionError``.

A failed claim is written to standard error and execution goes on, so the rest of the
chapter still runs. The book's strict build turns any standard-error output of a cell into
an error, so a claim that fails for the book's own values fails the build.

Checked in a Jupyter kernel, the claims of one cell show as one line, e.g. "✓ 7 claims
hold", in a ``<details>`` box that opens to the list of them, each with what was measured
("✓ a rotation keeps lengths · all 1 000 values"); a cell with one claim shows its
statement. The line is one display, updated as each claim of the cell is checked, so the
chapters' check cells need nothing more than their ``claim`` calls. When a claim of the cell
fails, the line says so ("✗ 1 of 7 claims does not hold") as well as the message on
standard error. The book folds the cell's code (and what it printed) behind a toggle
(``book/_ext/teach_first.py``).
The returned :class:`Verdict` is true or false like a ``bool`` but is not shown again as a
bare ``True`` when it is the cell's last expression.

Examples
--------
>>> import numpy as np
>>> bool(claim("every angle is below one turn", np.all(np.array([0.5, 1.0]) < 2 * np.pi)))
True
>>> bool(claim_close("cos² + sin² = 1", np.cos(0.3) ** 2 + np.sin(0.3) ** 2, 1.0))
True
"""

from __future__ import annotations

import html
import sys

import numpy as np

__all__ = ["ClaimFailure", "Verdict", "claim", "claim_close"]

MARKER = "Claim does not hold"  # every failure message starts with this; tests look for it
MIME_TYPE = "text/html"
CSS_CLASS = "rope-claim"  # the HTML class of a claim's line; the book's page rules find it by it
MARK = "✓"
FAILED_MARK = "✗"
SUMMARY_CSS_CLASS = "rope-claims"  # the <details> of a cell's claims


class ClaimFailure(str):
    """The message of a failed claim (a ``str``), as written to standard error."""


class Verdict:
    """Whether one claim held: true or false like a ``bool``, and equal to that ``bool``.

    A notebook does not echo it as ``True`` when a check cell ends with ``claim(...)``: the
    claim's line was already shown when it was checked.

    Attributes
    ----------
    holds : bool
        Whether the claim held.
    statement : str
        The claim as the prose makes it.
    numbers : str
        What was measured, shown after a holding claim, e.g. ``"all 1 000 values"``.
    """

    __slots__ = ("holds", "numbers", "statement")

    def __init__(self, holds, statement, numbers=""):
        self.holds, self.statement, self.numbers = bool(holds), statement, numbers

    def __bool__(self):
        return self.holds

    def __eq__(self, other):
        return self.holds == other

    def __hash__(self):
        return hash(self.holds)

    def __repr__(self):
        return f"Verdict(holds={self.holds}, statement={self.statement!r})"

    def _ipython_display_(self):
        """Nothing: the claim's line is displayed once, when it is checked."""


def _count(n):
    """``1000`` as ``"1 000"``: thin-spaced thousands, as the book's prose writes them."""
    return f"{n:,}".replace(",", "\N{NARROW NO-BREAK SPACE}")


class _CellClaims:
    """The claims checked so far by the cell that is running, and their one display."""

    def __init__(self, key):
        self.key, self.verdicts, self.handle = key, [], None

    def summary(self):
        """``(mark, text)`` of the cell's line: its one statement, or how many hold."""
        failed = sum(not verdict.holds for verdict in self.verdicts)
        total = len(self.verdicts)
        if failed:
            verb = "does" if failed == 1 else "do"
            return FAILED_MARK, f"{failed} of {total} claims {verb} not hold"
        if total == 1:
            return MARK, self.verdicts[0].statement
        return MARK, f"{total} claims hold"

    def bundle(self):
        """The mime bundle: HTML (a closed ``<details>`` with the list) and plain text."""
        mark, text = self.summary()
        rows, plain = [], [f"{mark} {text}"]
        for verdict in self.verdicts:
            sign = MARK if verdict.holds else FAILED_MARK
            numbers = f" · {verdict.numbers}" if verdict.numbers else ""
            rows.append(f'<div class="{CSS_CLASS}">{_mark(sign)} '
                        f"{html.escape(verdict.statement)}"
                        + (f'<span class="{CSS_CLASS}-numbers">{html.escape(numbers)}</span>' if numbers else "")
                        + "</div>")
            plain.append(f"  {sign} {verdict.statement}{numbers}")
        state = "holds" if mark == MARK else "fails"
        line = (f'<details class="{SUMMARY_CSS_CLASS} {SUMMARY_CSS_CLASS}-{state}"><summary>'
                f'{_mark(mark)} {html.escape(text)}</summary>'
                + "".join(rows) + "</details>")
        if len(self.verdicts) == 1 and not self.verdicts[0].numbers:
            plain = plain[:1]  # the statement is the whole line
        return {"text/plain": "\n".join(plain), MIME_TYPE: line}


def _mark(sign):
    """The ✓ or ✗ of a line, as HTML (a failed claim's mark has its own colour)."""
    failed = f" {CSS_CLASS}-failed" if sign == FAILED_MARK else ""
    return f'<span class="{CSS_CLASS}-mark{failed}">{sign}</span>'


_running_cell = None  # the _CellClaims of the cell the kernel is running


def _show(verdict):
    """Add a claim to its cell's one line, in a Jupyter kernel only (not in scripts or tests)."""
    global _running_cell
    shell = sys.modules.get("IPython") and sys.modules["IPython"].get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return
    from IPython.display import display

    # Claims of one cell share the request that ran it (and the kernel's count of cells).
    request = (getattr(shell, "parent_header", None) or {}).get("header", {}).get("msg_id")
    key = (shell, request, getattr(shell, "execution_count", None))
    if _running_cell is None or _running_cell.key != key:
        _running_cell = _CellClaims(key)
    _running_cell.verdicts.append(verdict)
    if _running_cell.handle is None:
        _running_cell.handle = display(_running_cell.bundle(), raw=True, display_id=True)
    else:
        _running_cell.handle.update(_running_cell.bundle(), raw=True)


def _as_bool(holds, statement):
    """``(holds as one bool, how many values were checked)``."""
    if callable(holds):
        holds = holds()
    array = np.asarray(holds)
    if array.dtype != bool:
        raise TypeError(
            f"holds must be a bool or an array of bools for the claim {statement!r}, "
            f"got {type(holds).__name__} of dtype {array.dtype}"
        )
    return bool(array.all()), array.size


def claim(statement, holds, *, why="", numbers=None):
    """Check one claim of the text; on failure, say which claim, for these values, and why.

    Parameters
    ----------
    statement : str
        The claim as the prose makes it, e.g. ``"every slow pair returns to its trained arc"``.
    holds : bool, array of bool, or callable returning one
        ``True`` (every element ``True``) when the claim holds.
    why : str, optional
        What was measured, shown only on failure: the offending values, with their numbers.
    numbers : str, optional
        What was measured, listed with the claim (in a Jupyter kernel). Default:
        ``"all N values"`` when ``holds`` has ``N > 1`` elements, else nothing.

    Returns
    -------
    Verdict
        Whether the claim holds (true or false, equal to that ``bool``). On failure a
        :class:`ClaimFailure` message starting with ``"Claim does not hold"`` is written to
        ``sys.stderr``; nothing is raised. In a Jupyter kernel the claim joins its cell's
        one line ("✓ 7 claims hold", the list one click away).
    """
    if not isinstance(statement, str) or not statement.strip():
        raise TypeError(f"statement must be a non-empty str, got {statement!r}")
    for name, value in (("why", why), ("numbers", "" if numbers is None else numbers)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    held, size = _as_bool(holds, statement)
    if numbers is None:
        numbers = f"all {_count(size)} values" if size > 1 else ""
    verdict = Verdict(held, statement, numbers)
    if not held:
        message = ClaimFailure(f"{MARKER} for these values: {statement}" + (f"\n  because {why}" if why else ""))
        print(message, file=sys.stderr, flush=True)
    _show(verdict)
    return verdict


def claim_close(statement, actual, expected, *, rtol=1e-7, atol=0.0, why=""):
    """:func:`claim` that ``actual`` equals ``expected`` elementwise within tolerances.

    The test is numpy's ``|actual - expected| <= atol + rtol * |expected|``; on failure the
    message gives the largest absolute and relative differences and where they occur. A
    claim that holds shows how many values were compared and the largest difference.

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
    Verdict
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
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is NaN: a difference, not a warning
        error = np.abs(actual - expected)
    if close.all():
        largest = float(np.max(np.where(close & np.isfinite(error), error, 0.0), initial=0.0))
        numbers = (f"{_count(close.size)} values, largest difference {largest:.1g}" if close.size > 1
                   else f"difference {largest:.1g}")
        return claim(statement, True, numbers=numbers)
    # The worst value is the largest difference, and a NaN or infinite one is worse than any.
    badness = np.where(close, -1.0, np.where(np.isnan(error), np.inf, error))
    worst = np.unravel_index(np.argmax(badness), badness.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        relative = error[worst] / abs(expected[worst]) if expected[worst] != 0 else np.inf
    not_finite = int((~close & ~(np.isfinite(actual) & np.isfinite(expected))).sum())
    detail = (
        f"{int((~close).sum())} of {close.size} values differ"
        + (f" ({not_finite} of them NaN or infinite)" if not_finite else "")
        + f"; the worst, at index {tuple(int(i) for i in worst)}, "
        f"is {actual[worst]:.6g} against {expected[worst]:.6g} (abs. error {error[worst]:.3g}, "
        f"rel. error {relative:.3g}; rtol={rtol:g}, atol={atol:g})"
    )
    return claim(statement, False, why=detail + (f"; {why}" if why else ""))
