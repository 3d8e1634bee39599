"""The two widgets with draggable vectors: one table (rope_core.demos.rotation) for the widget,
its page and its static twin; the continuous angle traits and their validation.

The browser side (the page's own numbers at random states, the 47° drag) is in
``test_widgets_drag_browser.py``.
"""

from __future__ import annotations

import re

import matplotlib
import numpy as np
import pytest
import traitlets

matplotlib.use("Agg")

from rope_core import plots
from rope_core import widgets as W
from rope_core.demos import rotation as demo
from rope_core.widgets._base import SliderError


def closed_form(length, angle_deg, turn):
    """length·(cos(α + turn), sin(α + turn)): the rotated vector without rope_core."""
    angle = np.radians(angle_deg) + turn
    return length * np.array([np.cos(angle), np.sin(angle)])


def test_widget_defaults_are_the_demos_defaults():
    widget, defaults = W.RotationExplorer(), demo.ROTATION_DEFAULTS
    assert widget.data["thetas"] == list(defaults["thetas"]) and widget.data["lengths"] == list(defaults["lengths"])
    assert widget.data["q_angles_deg"] == list(defaults["q_angles_deg"])
    assert widget.data["positions"] == list(range(defaults["max_position"] + 1))
    assert (widget.q_angle, widget.position, widget.theta_index, widget.length_index) == (
        defaults["q_angle"], defaults["position"], defaults["theta_index"], defaults["length_index"])
    assert widget.q_length == defaults["lengths"][defaults["length_index"]]
    assert widget.data["length_range"] == defaults["length_range"]
    relative, defaults = W.RelativeInvariance(), demo.RELATIVE_DEFAULTS
    assert (relative.q_angle, relative.k_angle, relative.m, relative.n, relative.shift) == tuple(
        defaults[k] for k in ("q_angle", "k_angle", "m", "n", "shift"))
    assert (relative.q_length, relative.k_length) == (defaults["q_length"], defaults["k_length"])
    assert relative.data == {"theta": defaults["theta"], "max_position": defaults["max_position"],
                             "length_range": defaults["length_range"], "compact": False}
    assert relative.shift > 0       # it opens shifted, so its first frame shows the lesson


def test_rotation_explorer_tables_are_the_demos_table_and_the_closed_form():
    widget = W.RotationExplorer(thetas=(0.05, 0.7, 2.5), max_position=40)
    tables = demo.rotation_table((0.05, 0.7, 2.5), 40)
    angles = np.array([0.05, 0.7, 2.5])[:, None] * np.arange(41)
    for name, expected in (("angle", angles), ("angle_deg", np.degrees(angles) % 360),
                           ("cos", np.cos(angles)), ("sin", np.sin(angles))):
        np.testing.assert_allclose(widget.data[name], tables[name], atol=5e-7, rtol=0)
        np.testing.assert_allclose(tables[name], expected, atol=1e-12, rtol=0)


def test_rotation_explorer_state_at_random_states(rng):
    widget = W.RotationExplorer()
    for _ in range(60):
        widget.q_angle = float(rng.uniform(-720, 720))
        widget.position = int(rng.integers(len(widget.data["positions"])))
        widget.theta_index = int(rng.integers(len(widget.data["thetas"])))
        stop = int(rng.integers(len(widget.data["lengths"])))
        moved, widget.length_index = stop != widget.length_index, stop
        if moved:   # moving to a stop sets the length (traitlets: only a change notifies)
            assert widget.q_length == widget.data["lengths"][stop]
        if rng.integers(2):   # a drag's continuous length
            widget.q_length = float(rng.uniform(*widget.data["length_range"]))
        assert 0 <= widget.q_angle < 360
        length, theta = widget.q_length, widget.data["thetas"][widget.theta_index]
        state = widget.state()
        np.testing.assert_allclose(state["q"], closed_form(length, widget.q_angle, 0.0), atol=1e-12)
        np.testing.assert_allclose(state["rotated"], closed_form(length, widget.q_angle, widget.position * theta), atol=1e-12)
        assert state["angle"] == pytest.approx(widget.position * theta, abs=1e-12)
        turned = np.degrees(widget.position * theta)  # the read-out's degrees, mod 360, closed form
        assert 0 <= state["angle_deg"] < 360
        assert abs((state["angle_deg"] - turned + 180) % 360 - 180) < 1e-9
        assert state["trail"].shape == (widget.position, 2)
        for j in range(0, widget.position, 7):
            np.testing.assert_allclose(state["trail"][j], closed_form(length, widget.q_angle, j * theta), atol=1e-12)


def test_relative_invariance_state_at_random_states(rng):
    widget = W.RelativeInvariance()
    top = widget._max_position + 1
    for _ in range(60):
        widget.q_angle, widget.k_angle = (float(v) for v in rng.uniform(0, 360, 2))
        widget.m, widget.n, widget.shift = (int(v) for v in rng.integers(top, size=3))
        widget.q_length, widget.k_length = (float(v) for v in rng.uniform(*widget.data["length_range"], 2))
        state, theta = widget.state(), widget._theta
        rq = closed_form(widget.q_length, widget.q_angle, (widget.m + widget.shift) * theta)
        rk = closed_form(widget.k_length, widget.k_angle, (widget.n + widget.shift) * theta)
        np.testing.assert_allclose(state["rotated_q"], rq, atol=1e-12)
        np.testing.assert_allclose(state["rotated_k"], rk, atol=1e-12)
        # |q||k| cos(angle between the rotated vectors): depends on n - m only.
        between = np.radians(widget.k_angle - widget.q_angle) + (widget.n - widget.m) * theta
        expected = widget.q_length * widget.k_length * np.cos(between)
        assert state["score"] == pytest.approx(expected, abs=1e-12)
        assert state["reference"] == pytest.approx(expected, abs=1e-12)
        # The ghosts are the state before the shift; the arc's angle is the same at every shift.
        np.testing.assert_allclose(state["ghost_q"], closed_form(widget.q_length, widget.q_angle, widget.m * theta), atol=1e-12)
        np.testing.assert_allclose(state["ghost_k"], closed_form(widget.k_length, widget.k_angle, widget.n * theta), atol=1e-12)
        assert 0 <= state["angle"] < 2 * np.pi
        assert abs(np.exp(1j * state["angle"]) - np.exp(1j * between)) < 1e-9
        strips = widget.strips()
        np.testing.assert_allclose(strips["by_shift"], expected, atol=1e-12)          # flat
        offsets = strips["offsets"]
        np.testing.assert_allclose(strips["by_offset"], widget.q_length * widget.k_length
                                   * np.cos(np.radians(widget.k_angle - widget.q_angle) + offsets * theta), atol=1e-12)
        assert strips["by_offset"][list(offsets).index(widget.n - widget.m)] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), "30", True, None])
@pytest.mark.parametrize("make, trait", [(W.RotationExplorer, "q_angle"), (W.RelativeInvariance, "q_angle"),
                                         (W.RelativeInvariance, "k_angle")])
def test_angle_traits_refuse_bad_values_and_keep_the_widget(make, trait, bad):
    widget = make()
    before = getattr(widget, trait)
    with pytest.raises(Exception, match=trait) as error:
        setattr(widget, trait, bad)
    assert isinstance(error.value, traitlets.TraitError)   # SliderError is one too
    assert isinstance(error.value, SliderError) == (isinstance(bad, float))
    assert getattr(widget, trait) == before


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 0.0, -1.0, 5.0, "1", True, None])
@pytest.mark.parametrize("make, trait", [(W.RotationExplorer, "q_length"), (W.RelativeInvariance, "q_length"),
                                         (W.RelativeInvariance, "k_length")])
def test_length_traits_refuse_values_outside_their_range_and_keep_the_widget(make, trait, bad):
    widget = make()
    before = getattr(widget, trait)
    with pytest.raises(traitlets.TraitError, match=trait) as error:
        setattr(widget, trait, bad)
    assert isinstance(error.value, SliderError) == isinstance(bad, float)   # a number: says the range
    assert getattr(widget, trait) == before


def test_length_range_and_starting_lengths_are_checked():
    for bad in [(1.0,), (1.0, 0.5), (0.0, 1.0), (0.2, float("nan")), "ab", ("a", "b")]:
        with pytest.raises(ValueError, match="length_range"):
            W.RelativeInvariance(length_range=bad)
        with pytest.raises(ValueError, match="length_range"):
            W.RotationExplorer(length_range=bad)
    with pytest.raises(ValueError, match="q_length"):
        W.RelativeInvariance(q_length=2.0)      # outside the default range (0.2, 1.3)
    # The range widens to hold every stop of the length slider; a given q_length wins over the stop.
    assert W.RotationExplorer(lengths=(0.1, 2.0)).data["length_range"] == (0.1, 2.0)
    assert W.RotationExplorer(length_index=0, q_length=0.7).q_length == 0.7


def test_angle_traits_wrap_into_0_360():
    widget = W.RotationExplorer()
    for value, wrapped in ((370.0, 10.0), (-90.0, 270.0), (360.0, 0.0), (47, 47.0)):
        widget.q_angle = value
        assert widget.q_angle == pytest.approx(wrapped, abs=1e-12)
    with pytest.raises(ValueError, match="q_angle_deg"):
        W.RelativeInvariance(q_angle_deg=float("nan"))


def test_static_views_draw_the_demos_table():
    ax = plots.plot_rotation((1.0, 0.5), position=5, theta=0.4)
    state = demo.rotation_state((1.0, 0.5), 5, 0.4)
    arrows = [text.xy for text in ax.texts if hasattr(text, "xy")]
    np.testing.assert_allclose(arrows[0], state["q"], atol=1e-12)
    np.testing.assert_allclose(arrows[1], state["rotated"], atol=1e-12)
    # The rotated axis vectors (the matrix's columns) and the matrix itself, as the widget draws.
    c, s = np.cos(state["angle"]), np.sin(state["angle"])
    np.testing.assert_allclose(arrows[2], (c, s), atol=1e-12)
    np.testing.assert_allclose(arrows[3], (-s, c), atol=1e-12)
    columns = {t.get_gid(): t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("matrix-col")}
    assert columns == {"matrix-col0": f"{c:.3f}\n{s:.3f}".replace("-", "\u2212"),
                       "matrix-col1": f"{-s:.3f}\n{c:.3f}".replace("-", "\u2212")}
    trail = [line for line in ax.lines if line.get_gid() == "trail"]
    np.testing.assert_allclose(np.column_stack(trail[0].get_data()), state["trail"], atol=1e-12)
    assert f"{state['angle']:.3g}" in ax.get_title()
    assert any(t.get_gid() == "arc-label" for t in ax.texts)
    matplotlib.pyplot.close(ax.figure)
    # Past half a turn: the closest return is ringed and named in the title (rotation_table's).
    ax = plots.plot_rotation((1.0, 0.5), position=21, theta=0.3)
    table = demo.rotation_table([0.3], 21)
    best = int(table["closest"][0, -1])
    ring = [line for line in ax.lines if line.get_gid() == "closest"]
    np.testing.assert_allclose(np.ravel(ring[0].get_data()), demo.rotation_state((1.0, 0.5), 21, 0.3)["rotated"] if best == 21
                               else demo.rotation_state((1.0, 0.5), 21, 0.3)["trail"][best], atol=1e-12)
    assert f"closest return $m = {best}$ ({table['closest_offset'][0, -1]:.3g} rad)" in ax.get_title()
    matplotlib.pyplot.close(ax.figure)

    widget = W.RelativeInvariance(m=3, n=9, shift=4)
    ax = plots.plot_relative_invariance(widget._q, widget._k, m=3, n=9, shift=4, theta=widget._theta)
    state = widget.state()
    arrows = [text.xy for text in ax.texts if hasattr(text, "xy")]
    np.testing.assert_allclose(arrows[0], state["ghost_q"], atol=1e-12)
    np.testing.assert_allclose(arrows[1], state["ghost_k"], atol=1e-12)
    np.testing.assert_allclose(arrows[2], state["rotated_q"], atol=1e-12)
    np.testing.assert_allclose(arrows[3], state["rotated_k"], atol=1e-12)
    assert "Delta = 4" in ax.get_title()
    assert float(re.search(r"= (-?[\d.]+)\$$", ax.get_title()).group(1)) == pytest.approx(state["score"], abs=5e-3)
    # γ in the title and as an arc; the two strips under the dial: flat against Δ, a cosine
    # against n − m, each with its dot at this state (relative_strips, the widget's table).
    assert f"gamma = {np.degrees(state['angle']):.0f}°" in ax.get_title()
    assert [p.get_gid() for p in ax.patches].count("gamma") == 1
    strips = demo.relative_strips(widget._q, widget._k, 3, 9, widget._theta, 24)
    by_shift, by_offset = (inset.lines for inset in ax.child_axes)
    np.testing.assert_allclose(by_shift[0].get_ydata(), strips["by_shift"], atol=1e-12)
    np.testing.assert_allclose(by_offset[0].get_ydata(), strips["by_offset"], atol=1e-12)
    assert np.ptp(strips["by_shift"]) < 1e-12 < np.ptp(strips["by_offset"])
    np.testing.assert_allclose([by_shift[1].get_xdata()[0], by_offset[1].get_xdata()[0]], [4, 6])
    np.testing.assert_allclose([by_shift[1].get_ydata()[0], by_offset[1].get_ydata()[0]], [state["score"]] * 2, atol=1e-12)
    matplotlib.pyplot.close(ax.figure)


def test_embedded_state_stays_under_200_kb_at_the_largest_settings():
    assert W.RotationExplorer().state_size() < 60_000 and W.RelativeInvariance().state_size() < 60_000
    big = W.RotationExplorer(thetas=tuple(np.linspace(0.01, 3.0, 12)), max_position=256,
                             q_angles_deg=tuple(range(0, 360, 5)), lengths=(0.5, 1.0, 1.5, 2.0))
    assert big.state_size() <= 200_000
    assert W.RelativeInvariance(max_position=128).state_size() <= 200_000


def test_bad_inputs_to_the_demos_name_the_argument():
    with pytest.raises(ValueError, match="q must"):
        demo.rotation_state((1.0, 2.0, 3.0), 1, 0.1)
    with pytest.raises(ValueError, match="position"):
        demo.rotation_state((1.0, 0.0), -1, 0.1)
    with pytest.raises(ValueError, match="shift"):
        demo.relative_state((1.0, 0.0), (0.0, 1.0), 1, 2, 1.5, 0.1)
    with pytest.raises(ValueError, match="k must"):
        demo.relative_state((1.0, 0.0), (np.nan, 1.0), 1, 2, 0, 0.1)
    with pytest.raises(ValueError, match="max_position"):
        demo.relative_strips((1.0, 0.0), (0.0, 1.0), 1, 2, 0.1, -3)
    with pytest.raises(TypeError, match="compact"):
        W.RelativeInvariance(compact="yes")


def test_rotation_explorer_closest_returns_are_the_demos_table():
    """The page takes the last change of the closest return at or before m: that is the table's
    closest position past half a turn, and its offset from q, at every θ and m."""
    widget = W.RotationExplorer()
    table = demo.rotation_table(widget.data["thetas"], len(widget.data["positions"]) - 1)
    for t, changes in enumerate(widget.data["returns"]):
        for m in widget.data["positions"]:
            seen = [(j, offset) for j, offset in changes if j <= m]
            best, offset = seen[-1] if seen else (-1, None)
            assert best == table["closest"][t, m]
            if best >= 0:
                assert abs(offset - table["closest_offset"][t, m]) < 1e-6
                # Past half a turn, and no earlier position past half a turn is closer to q.
                earlier = [j for j in range(m + 1) if j * widget.data["thetas"][t] > np.pi]
                assert best in earlier and offset <= min(table["offset"][t, j] for j in earlier) + 1e-6   # sent to 6 decimals
    assert widget.data["first_return"][3] == 25 and widget.data["nearest_turn"][3] == 13   # θ = 0.5: chapter 2
