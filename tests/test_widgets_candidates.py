"""Chapter 4's candidate encodings (rope_core.demos.candidates) and the CandidateExplorer widget.

The score matrix of a candidate is Toeplitz (constant along every diagonal n - m) exactly when
its score depends on n - m only; the chapter's derivation says which candidates manage it.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from rope_core import plots
from rope_core import widgets as W
from rope_core.demos import candidates as demo


def test_candidates_are_the_chapter_formulas(rng):
    x, p, theta = complex(*rng.standard_normal(2)), 7, 0.4
    expected = {
        "rotation": x * np.exp(1j * p * theta), "no position": x, "additive": x + 0.5 * (np.exp(1j * p * theta) - 1),
        "growing": x * 1.01**p * np.exp(1j * p * theta), "quadratic": x * np.exp(1j * p**2 * theta / 8),
        "by content": x * np.exp(1j * p * theta * abs(x)), "parity": np.conj(x),
    }
    assert list(expected) == list(demo.CANDIDATES)
    for name, value in expected.items():
        assert abs(complex(demo.encode(name, x, p, theta)) - value) < 1e-12, name
    assert complex(demo.encode("parity", x, 6, theta)) == x


def test_score_matrix_is_toeplitz_exactly_for_the_chapters_solutions(rng):
    for _ in range(5):
        q, k = complex(*rng.standard_normal(2)), complex(*rng.standard_normal(2))
        t = demo.candidate_table(q, k, float(rng.uniform(0.1, 1.0)), int(rng.integers(6, 20)))
        for name in t["names"]:
            real, imag = t[name]["real_spread"].max(), t[name]["imag_spread"].max()
            if name in ("rotation", "no position"):
                assert real < 1e-12 and imag < 1e-12, name         # the complex wish holds
            elif name == "parity":
                assert real < 1e-12 and imag > 1e-6, name          # the real wish only
            else:
                assert real > 1e-3 and imag > 1e-3, name
            # The matrix is Re/Im of f(q, m) conj(f(k, n)), rows m, columns n.
            m, n = 3, 5
            product = demo.encode(name, q, m, t["theta"]) * np.conj(demo.encode(name, k, n, t["theta"]))
            assert abs(t[name]["real"][m, n] - product.real) < 1e-12 and abs(t[name]["imag"][m, n] - product.imag) < 1e-12


def test_diagonal_spread_reads_each_diagonal():
    matrix = np.array([[1.0, 2.0, 3.0], [4.0, 1.0, 2.0], [9.0, 4.0, 1.0]])
    offsets, spreads = demo.diagonal_spread(matrix)
    assert offsets.tolist() == [-2, -1, 0, 1, 2]
    assert spreads.tolist() == [0.0, 0.0, 0.0, 0.0, 0.0]
    matrix[2, 0] = 9.0
    matrix[1, 0] = 5.0
    assert demo.diagonal_spread(matrix)[1].tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_widget_sends_the_demos_table_and_its_state():
    widget = W.CandidateExplorer()
    t = demo.candidate_table()
    assert widget.data["names"] == t["names"] and widget.data["offsets"] == t["offsets"].tolist()
    # The page computes the matrices itself: Python sends the candidates' parameters, not tables.
    assert widget.data["parameters"] == demo.CANDIDATE_PARAMETERS and "tables" not in widget.data
    np.testing.assert_array_equal(widget.state()["matrix"], t["rotation"]["real"])
    widget.candidate_index, widget.part_index, widget.diagonal_index = 6, 1, widget.data["offsets"].index(-2)
    state = widget.state()
    assert (state["name"], state["part"], state["offset"]) == ("parity", "imag", -2)
    np.testing.assert_array_equal(state["diagonal"], np.diagonal(t["parity"]["imag"], offset=-2))


@pytest.mark.parametrize("build, match", [
    (lambda: W.CandidateExplorer(size=1), "size"),
    (lambda: W.CandidateExplorer(size=30), "size"),
    (lambda: W.CandidateExplorer(q="1"), "q"),
    (lambda: W.CandidateExplorer(theta=float("nan")), "theta"),
    (lambda: W.CandidateExplorer(candidate_index=7), "candidate_index"),
    (lambda: demo.encode("mirror", 1.0, 1, 0.1), "name"),
    (lambda: demo.diagonal_spread(np.ones((2, 3))), "square"),
    (lambda: plots.plot_candidate_scores("spiral"), "name"),
    (lambda: plots.plot_candidate_scores(part="abs"), "part"),
])
def test_bad_arguments_name_themselves(build, match):
    with pytest.raises((ValueError, TypeError), match=match):
        build()


def test_static_view_draws_the_demos_table():
    ax = plots.plot_candidate_scores("quadratic")
    t = demo.candidate_table()
    np.testing.assert_array_equal(ax.images[0].get_array(), t["quadratic"]["real"])
    assert f"{t['quadratic']['real_spread'].max():.3g}" in ax.get_title()
    matplotlib.pyplot.close(ax.figure)
    ax = plots.plot_candidate_scores("rotation")
    assert ax.get_title().endswith("spread 0")
    matplotlib.pyplot.close(ax.figure)
