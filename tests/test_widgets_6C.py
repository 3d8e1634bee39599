"""CandidateExplorer computes its matrices on the page (no browser here): Python sends only the
candidates' parameters, preset contents and whether each meets the wish for every content;
``candidate_meets_wish`` says so from rope_core over random contents, and bad input is refused
by name."""

from __future__ import annotations

import json

import numpy as np
import pytest
import traitlets

from rope_core import widgets as W
from rope_core.demos import candidates as demo


def test_the_state_is_small_and_holds_no_precomputed_matrices():
    data = W.CandidateExplorer().data
    assert not {"tables", "more", "scale"} & set(data)
    # One content's 7 x 2 x 16 x 16 numbers alone would be ~40 KB; the parameters are a few bytes.
    assert len(json.dumps(data)) < 4_000


def test_encode_uses_the_parameters_the_page_is_sent():
    theta, m = 0.5, np.arange(6)
    q = 0.3 - 0.8j
    p = demo.CANDIDATE_PARAMETERS
    np.testing.assert_allclose(demo.encode("growing", q, m, theta), q * p["growth"] ** m * np.exp(1j * m * theta))
    np.testing.assert_allclose(demo.encode("additive", q, m, theta), q + p["additive_half"] * (np.exp(1j * m * theta) - 1))
    np.testing.assert_allclose(demo.encode("quadratic", q, m, theta), q * np.exp(1j * m**2 * theta / p["quadratic_divisor"]))


def test_meets_wish_is_every_diagonal_constant_for_every_random_content(rng):
    """The wish's answer the widget checks a prediction against: rotation, no position and
    parity keep the real score Toeplitz for every content; the others fail for some content,
    "by content" only when |q| != |k|."""
    verdicts = {name: demo.candidate_meets_wish(name) for name in demo.CANDIDATES}
    assert verdicts == {"rotation": True, "no position": True, "additive": False, "growing": False,
                        "quadratic": False, "by content": False, "parity": True}
    assert W.CandidateExplorer().data["meets_wish"] == list(verdicts.values())
    for _ in range(20):
        q, k = rng.normal(size=2) + 1j * rng.normal(size=2)
        t = demo.candidate_table(q, k)
        for name, holds in verdicts.items():
            if holds:
                assert t[name]["real_spread"].max() < 1e-9 * np.abs(t[name]["real"]).max(), name
    # "by content" at equal lengths passes, which is why a single content cannot decide the wish.
    t = demo.candidate_table(0.6 + 0.8j, 1j)
    assert t["by content"]["real_spread"].max() < 1e-12


@pytest.mark.parametrize("call, match", [
    (lambda: demo.candidate_meets_wish("spiral"), "name"),
    (lambda: demo.candidate_meets_wish("rotation", trials=0), "trials"),
    (lambda: demo.candidate_meets_wish("rotation", seed=-1), "seed"),
    (lambda: demo.candidate_meets_wish("rotation", theta=float("inf")), "theta"),
    (lambda: W.CandidateExplorer(content=[1.0, 2.0, 3.0]), "content"),
    (lambda: W.CandidateExplorer(content=[1.0, float("nan"), 3.0, 0.0]), "content"),
])
def test_bad_input_is_refused_by_name(call, match):
    with pytest.raises((ValueError, TypeError, traitlets.TraitError), match=match):
        call()


def test_content_index_puts_its_preset_on_the_page_and_content_moves_freely():
    widget = W.CandidateExplorer(content_index=1)
    assert widget.content == widget.data["contents"][1]
    widget.content = [0.2, 0.0, -1.2, 0.4]
    t = demo.candidate_table(0.2, -1.2 + 0.4j)
    widget.candidate_index = list(demo.CANDIDATES).index("additive")
    np.testing.assert_array_equal(widget.state()["matrix"], t["additive"]["real"])
