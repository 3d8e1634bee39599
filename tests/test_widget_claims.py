"""What Part I's prose says about a widget's settings and data, checked here rather than on the
page: a reader needs the widget, not a check line about its defaults (and a check line there
would give a quiz's answer away before the reader tries)."""

from __future__ import annotations

import numpy as np

from rope_core.demos.candidates import candidate_table
from rope_core.demos.rotation import RELATIVE_DEFAULTS, relative_state, relative_strips, unit_vector


def test_ch02_the_rotation_explorer_turns_q_by_cos_and_sin_of_m_theta():
    """Ch. 2: "The numbers behind the drawing are those of (2.x)": the widget's table is
    cos and sin of mθ at every θ and position it offers, to its 6 stored decimals."""
    from rope_core.widgets import RotationExplorer

    explorer = RotationExplorer(theta_index=3)
    thetas = np.asarray(explorer.data["thetas"])
    positions = np.asarray(explorer.data["positions"])
    angles = positions[None, :] * thetas[:, None]
    assert thetas[3] == 0.5, "the chapter opens the widget at θ = 0.5"
    np.testing.assert_allclose(explorer.data["cos"], np.cos(angles), atol=1e-6)
    np.testing.assert_allclose(explorer.data["sin"], np.sin(angles), atol=1e-6)


def test_ch04_the_candidate_explorer_shows_what_the_prose_says():
    """Ch. 4: "every diagonal of the rotation is one colour, while the quadratic candidate's
    largest spread along a diagonal is 1.6", and the explorer's quiz: the real diagonals are
    constant for rotation, no position and parity, the imaginary ones without parity."""
    matrices = candidate_table()
    assert matrices["rotation"]["real_spread"].max() < 1e-12
    assert round(float(matrices["quadratic"]["real_spread"].max()), 1) == 1.6
    constant_real = [name for name in matrices["names"] if matrices[name]["real_spread"].max() < 1e-12]
    constant_imag = [name for name in matrices["names"] if matrices[name]["imag_spread"].max() < 1e-12]
    assert constant_real == ["rotation", "no position", "parity"]
    assert constant_imag == ["rotation", "no position"]


def test_ch06_the_relative_invariance_widget_opens_as_the_prose_says():
    """Ch. 6: "puts q at position m = 2 and k at n = 7 (θ = 0.3) and opens with both shifted
    by Δ = 9 [...] the angle γ between them is still 141°, and the score is −0.621 before and
    after. The strip on the left plots the score against Δ: flat"."""
    shown = RELATIVE_DEFAULTS
    assert (shown["m"], shown["n"], shown["shift"], shown["theta"]) == (2, 7, 9, 0.3)
    q = shown["q_length"] * unit_vector(shown["q_angle"])
    k = shown["k_length"] * unit_vector(shown["k_angle"])
    at = relative_state(q, k, shown["m"], shown["n"], shown["shift"], shown["theta"])
    strips = relative_strips(q, k, shown["m"], shown["n"], shown["theta"], shown["max_position"])
    assert round(float(np.degrees(at["angle"]))) == 141
    np.testing.assert_allclose([at["score"], at["reference"]], -0.621, atol=5e-4)
    assert np.ptp(strips["by_shift"]) < 1e-12
