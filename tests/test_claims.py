"""rope_core.claims: a failed claim names itself on stderr and never raises; a claim that holds
shows one line in a notebook and is not echoed again as a bare ``True``."""

from __future__ import annotations

import IPython
import IPython.display
import numpy as np
import pytest

from rope_core.claims import CSS_CLASS, MARKER, SUMMARY_CSS_CLASS, Verdict, claim, claim_close


def test_a_holding_claim_returns_a_true_verdict_and_writes_nothing(capsys):
    for verdict in (claim("two is even", 2 % 2 == 0), claim("all positive", np.array([1.0, 2.0]) > 0),
                    claim("lazily checked", lambda: np.bool_(True))):
        assert isinstance(verdict, Verdict) and verdict.holds is True
        assert verdict and verdict == True  # noqa: E712 (equal to the bool, as the docstring says)
    assert capsys.readouterr() == ("", "")


def test_a_failed_claim_names_the_claim_and_the_reason_on_stderr(capsys):
    verdict = claim("every pair is slow", np.array([True, False]), why="pair 1 turns 3.2 times")
    assert not verdict and verdict.holds is False and verdict == False  # noqa: E712
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(MARKER)
    assert "every pair is slow" in err and "pair 1 turns 3.2 times" in err


def test_claim_close_reports_the_worst_difference(capsys):
    assert claim_close("halved", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]).holds is True
    assert capsys.readouterr().err == ""
    assert claim_close("halved", [1.0, 2.5, 3.0], [1.0, 2.0, 3.0], rtol=1e-3).holds is False
    err = capsys.readouterr().err
    assert err.startswith(MARKER) and "halved" in err
    assert "1 of 3 values differ" in err and "index (1,)" in err and "2.5 against 2" in err


def test_claim_close_uses_both_tolerances(capsys):
    assert claim_close("near zero", [1e-12], [0.0], atol=1e-9).holds is True
    assert claim_close("near zero", [1e-12], [0.0]).holds is False
    assert "rel. error inf" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("call", "error", "names"),
    [
        (lambda: claim("", True), TypeError, "statement"),
        (lambda: claim(3, True), TypeError, "statement"),
        (lambda: claim("x", 1), TypeError, "holds"),
        (lambda: claim("x", np.array([0.5])), TypeError, "holds"),
        (lambda: claim("x", True, why=3), TypeError, "why"),
        (lambda: claim("x", True, numbers=3), TypeError, "numbers"),
        (lambda: claim_close("x", [1.0], [1.0], rtol=-1), ValueError, "rtol"),
        (lambda: claim_close("x", [1.0], [1.0], atol=float("nan")), ValueError, "atol"),
        (lambda: claim_close("x", [1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "broadcast"),
    ],
)
def test_bad_input_names_the_argument(call, error, names):
    with pytest.raises(error, match=names):
        call()


class _Kernel:
    """What claims display, as if they ran in a Jupyter kernel: each display's latest bundle,
    in order; ``next_cell()`` starts the next cell as a kernel does (its count goes up)."""

    def __init__(self):
        self.kernel, self.execution_count, self.shown = object(), 1, []

    def display(self, bundle, raw, display_id=False):
        assert raw and display_id is True
        index = len(self.shown)
        self.shown.append(bundle)
        kernel = self

        class Handle:
            def update(self, bundle, raw):
                assert raw
                kernel.shown[index] = bundle

        return Handle()

    def next_cell(self):
        self.execution_count += 1


@pytest.fixture
def kernel(monkeypatch):
    fake = _Kernel()
    monkeypatch.setattr(IPython, "get_ipython", lambda: fake)
    monkeypatch.setattr(IPython.display, "display", fake.display)
    return fake


def test_in_a_kernel_a_cells_claims_show_as_one_line_with_the_list_folded(kernel, capsys):
    claim("every angle is small", np.arange(1000) < 2000)
    claim_close("cos² + sin² = 1", np.cos(np.arange(3.0)) ** 2 + np.sin(np.arange(3.0)) ** 2, 1.0)
    claim("one fact", True)
    (line,) = kernel.shown
    first, second, third = line["text/plain"].splitlines()[1:]
    assert line["text/plain"].splitlines()[0] == "✓ 3 claims hold"
    assert first == "  ✓ every angle is small · all 1\u202f000 values"
    assert second.startswith("  ✓ cos² + sin² = 1 · 3 values, largest difference ")
    assert third == "  ✓ one fact"
    page = line["text/html"]
    assert page.startswith(f'<details class="{SUMMARY_CSS_CLASS} {SUMMARY_CSS_CLASS}-holds"><summary>')
    assert "</span> 3 claims hold</summary>" in page and "<details open" not in page
    assert page.count(f'<div class="{CSS_CLASS}">') == 3 and "all 1\u202f000 values" in page
    assert capsys.readouterr() == ("", "")


def test_each_cell_gets_its_own_line_and_one_claim_shows_its_statement(kernel):
    claim("two is even", True)
    kernel.next_cell()
    claim("three is odd", True)
    claim("four is even", True)
    assert [bundle["text/plain"].splitlines()[0] for bundle in kernel.shown] == [
        "✓ two is even", "✓ 2 claims hold"]
    assert kernel.shown[0]["text/plain"] == "✓ two is even"


def test_in_a_kernel_a_failed_claim_makes_the_line_say_so(kernel, capsys):
    claim("x is small", True)
    claim("x < y", np.array([True, False]))
    (line,) = kernel.shown
    assert line["text/plain"].splitlines()[0] == "✗ 1 of 2 claims does not hold"
    assert f"{SUMMARY_CSS_CLASS}-fails" in line["text/html"] and "✓ 2" not in line["text/plain"]
    assert "  ✗ x < y" in line["text/plain"]
    assert capsys.readouterr().err.startswith(MARKER)


def test_statements_are_escaped_in_the_line(kernel):
    claim("a < b & c", True)
    assert "a &lt; b &amp; c" in kernel.shown[0]["text/html"]


def test_a_verdict_is_not_echoed_as_the_last_expression_of_a_cell():
    # IPython's display hook shows an object's _ipython_display_ instead of its repr.
    verdict = claim("two is even", True)
    assert verdict._ipython_display_() is None
    assert repr(verdict) == "Verdict(holds=True, statement='two is even')"


@pytest.mark.parametrize(
    ("actual", "expected", "shown"),
    [
        ([np.nan, np.nan], [1.0, 2.0], "nan against 1"),          # every difference NaN
        ([1.0, np.nan], [1.0, 2.0], "nan against 2"),
        ([np.inf, 2.5], [1.0, 2.0], "inf against 1"),              # inf is worse than 0.5
        ([np.inf], [-np.inf], "inf against -inf"),
        ([1.0, np.inf], [1.0, np.inf * 0], "inf against nan"),
    ],
)
def test_claim_close_reports_nan_and_inf_as_a_failed_claim_with_the_values(actual, expected, shown, capsys):
    with np.errstate(all="raise"):  # a numpy warning would reach stderr in a notebook
        verdict = claim_close("the matrix keeps lengths", actual, expected)
    assert verdict.holds is False
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(MARKER) and "the matrix keeps lengths" in err
    assert shown in err and "NaN or infinite" in err
    assert "Warning" not in err


def test_claim_close_holds_for_equal_infinities(capsys):
    assert claim_close("both overflow", [np.inf, 1.0], [np.inf, 1.0]).holds is True
    assert capsys.readouterr() == ("", "")


def test_in_a_real_kernel_a_cells_claims_end_as_one_output_and_a_failure_reaches_stderr():
    """As the book build runs a chapter (nbclient): the line's updates leave one output per
    cell, and a failed claim is on stderr as well as in the line."""
    import nbformat
    from nbclient import NotebookClient

    cells = [
        "from rope_core.claims import claim, claim_close\nclaim('a', True)\nclaim('b', True)\nclaim('c', True)",
        "claim('d', True)\nclaim_close('e', [float('nan')], [1.0])",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    first, second = (cell.outputs for cell in notebook.cells)
    assert [output.output_type for output in first] == ["display_data"]
    assert first[0].data["text/plain"].splitlines()[0] == "✓ 3 claims hold"
    lines = [o for o in second if o.output_type == "display_data"]
    errors = [o for o in second if o.output_type == "stream" and o.name == "stderr"]
    assert len(lines) == 1 and lines[0].data["text/plain"].startswith("✗ 1 of 2 claims does not hold")
    assert len(errors) == 1 and errors[0].text.startswith(MARKER) and "nan against 1" in errors[0].text
