"""CandidateExplorer's contents (q, k) and its lines of algebra (no browser): each line of
``CANDIDATE_ALGEBRA`` equals the product ``encode`` gives at every content the widget offers,
the widget's preset contents and its state follow, and bad contents are refused by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from rope_core import widgets as W
from rope_core.demos.candidates import (
    CANDIDATE_ALGEBRA,
    CANDIDATE_DEFAULTS,
    CANDIDATE_MORE_CONTENTS,
    CANDIDATES,
    candidate_table,
    encode,
)


def test_each_candidates_line_of_algebra_is_its_product():
    """Each line of CANDIDATE_ALGEBRA, as a formula, equals f(q, m) conj(f(k, n)) from
    ``encode`` at every content the widget offers, and says what decides the verdict."""
    assert list(CANDIDATE_ALGEBRA) == list(CANDIDATES)
    theta, size = CANDIDATE_DEFAULTS["theta"], CANDIDATE_DEFAULTS["size"]
    m, n = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    for q, k in [(CANDIDATE_DEFAULTS["q"], CANDIDATE_DEFAULTS["k"]), *CANDIDATE_MORE_CONTENTS]:
        a_m, a_n = (np.exp(1j * m * theta) - 1) / 2, (np.exp(1j * n * theta) - 1) / 2
        qk = q * np.conj(k)
        closed = {
            "rotation": qk * np.exp(1j * (m - n) * theta),
            "no position": qk * np.ones_like(m),
            "additive": qk + q * np.conj(a_n) + a_m * np.conj(k) + a_m * np.conj(a_n),
            "growing": 1.01 ** (m + n) * qk * np.exp(1j * (m - n) * theta),
            "quadratic": qk * np.exp(1j * (m - n) * (m + n) * theta / 8),
            "by content": qk * np.exp(1j * (m * abs(q) - n * abs(k)) * theta),
        }
        for name, product in closed.items():
            got = encode(name, q, m, theta) * np.conj(encode(name, k, n, theta))
            np.testing.assert_allclose(got, product, atol=1e-12, err_msg=name)
        # Parity: the real part is Re(q k̄) for even n − m and Re(q k) for odd; the imaginary
        # part of the same product at (m, n) and (m + 1, n + 1) has opposite signs.
        parity = encode("parity", q, m, theta) * np.conj(encode("parity", k, n, theta))
        np.testing.assert_allclose(parity.real, np.where((n - m) % 2 == 0, qk.real, (q * k).real), atol=1e-12)
        np.testing.assert_allclose(parity.imag[1:, 1:], -parity.imag[:-1, :-1], atol=1e-12)
        # "by content" passes exactly when |q| = |k|, as its line says.
        spread = candidate_table(q, k, theta, size)["by content"]["real_spread"].max()
        assert (spread < 1e-9) == bool(np.isclose(abs(q), abs(k), rtol=0, atol=1e-12)), (q, k, spread)
    assert any(np.isclose(abs(q), abs(k)) for q, k in CANDIDATE_MORE_CONTENTS)
    assert any(not np.isclose(abs(q), abs(k)) for q, k in CANDIDATE_MORE_CONTENTS)


def test_candidate_explorer_rejects_bad_contents():
    with pytest.raises(ValueError, match="more_contents"):
        W.CandidateExplorer(more_contents=[(1 + 1j,)])
    with pytest.raises(ValueError, match="more_contents"):
        W.CandidateExplorer(more_contents=5)
    with pytest.raises(ValueError, match="k"):
        W.CandidateExplorer(more_contents=[(1 + 1j, "k")])
    with pytest.raises(Exception, match="content_index"):
        W.CandidateExplorer(content_index=3)


def test_the_state_follows_the_content():
    widget = W.CandidateExplorer()
    widget.content_index, widget.candidate_index = 2, 5
    q, k = CANDIDATE_MORE_CONTENTS[1]
    assert widget.content == [q.real, q.imag, k.real, k.imag]
    t = candidate_table(q, k, widget.data["theta"], 16)
    np.testing.assert_array_equal(widget.state()["matrix"], t["by content"]["real"])
    # The presets the page steps through are the widget's contents, in order.
    for i, (q, k) in enumerate([(CANDIDATE_DEFAULTS["q"], CANDIDATE_DEFAULTS["k"]), *CANDIDATE_MORE_CONTENTS]):
        assert widget.data["contents"][i] == [q.real, q.imag, k.real, k.imag]
    # A content the reader dragged to: the state is rope_core's at that q and k.
    widget.content = [0.3, -1.1, 0.7, 0.2]
    t = candidate_table(0.3 - 1.1j, 0.7 + 0.2j, widget.data["theta"], 16)
    np.testing.assert_array_equal(widget.state()["matrix"], t["by content"]["real"])
