"""rope_core.claims: a failed claim names itself on stderr and never raises."""

from __future__ import annotations

import numpy as np
import pytest

from rope_core.claims import MARKER, claim, claim_close


def test_a_holding_claim_returns_true_and_writes_nothing(capsys):
    assert claim("two is even", 2 % 2 == 0) is True
    assert claim("all positive", np.array([1.0, 2.0]) > 0) is True
    assert claim("lazily checked", lambda: np.bool_(True)) is True
    assert capsys.readouterr() == ("", "")


def test_a_failed_claim_names_the_claim_and_the_reason_on_stderr(capsys):
    assert claim("every pair is slow", np.array([True, False]), why="pair 1 turns 3.2 times") is False
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(MARKER)
    assert "every pair is slow" in err and "pair 1 turns 3.2 times" in err


def test_claim_close_reports_the_worst_difference(capsys):
    assert claim_close("halved", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) is True
    assert capsys.readouterr().err == ""
    assert claim_close("halved", [1.0, 2.5, 3.0], [1.0, 2.0, 3.0], rtol=1e-3) is False
    err = capsys.readouterr().err
    assert err.startswith(MARKER) and "halved" in err
    assert "1 of 3 values differ" in err and "index (1,)" in err and "2.5 against 2" in err


def test_claim_close_uses_both_tolerances(capsys):
    assert claim_close("near zero", [1e-12], [0.0], atol=1e-9) is True
    assert claim_close("near zero", [1e-12], [0.0]) is False
    assert "rel. error inf" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: claim("", True), TypeError, "statement"),
        (lambda: claim(3, True), TypeError, "statement"),
        (lambda: claim("x", 1), TypeError, "holds"),
        (lambda: claim("x", np.array([0.5])), TypeError, "holds"),
        (lambda: claim("x", True, why=3), TypeError, "why"),
        (lambda: claim_close("x", [1.0], [1.0], rtol=-1), ValueError, "rtol"),
        (lambda: claim_close("x", [1.0], [1.0], atol=float("nan")), ValueError, "atol"),
        (lambda: claim_close("x", [1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "broadcast"),
    ],
)
def test_bad_input_names_the_argument(call, error, names):
    with pytest.raises(error, match=names):
        call()
