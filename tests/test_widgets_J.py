"""RotationMatrixHeatmap's position slider and question, without a browser.

The slider runs past the question's m (32) to 4096: one token per stop up to 64, then log steps,
landing exactly on 32 and on every power of two, so that a reader can go far enough along for
the slow blocks to turn (m·θ_3 = 1 rad needs m = 1000 at d = 8, base 10^4). The question keeps
its own m, sent to the page. Bad arguments are refused, naming the argument.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import rope_core as rc
from rope_core import widgets as W


def test_heatmap_slider_runs_past_the_question_on_log_steps():
    widget = W.RotationMatrixHeatmap()
    positions = np.array(widget.data["positions"])
    assert positions[0] == 0 and positions[-1] == 4096
    assert list(positions[:65]) == list(range(65))              # one token a stop up to 64
    ratios = positions[65:] / positions[64:-1]
    assert ratios.max() < 1.11 and ratios.min() > 1.05, ratios  # then log steps (48 of them)
    assert {32, *(2**k for k in range(13))} <= set(positions.tolist())
    assert widget.data["question"] == 32
    assert widget.data["positions"][widget.position] == 1       # it opens at m = 1


def test_far_along_the_slow_blocks_turn_too():
    # What the reader finds past the question: at m = 32 the bottom block has turned less
    # than 0.1 rad, and by the slider's end every block of the default head has turned more.
    widget = W.RotationMatrixHeatmap()
    dim, base = widget.data["dims"][widget.dim_index], widget.data["bases"][widget.base_index]
    theta = rc.inverse_frequencies(dim, base)
    table = widget.data["tables"][widget.dim_index][widget.base_index]
    np.testing.assert_array_equal(table["theta"], theta)
    assert (dim, base) == (8, 10000.0)
    assert 32 * theta[-1] < 0.1 and 4096 * theta[-1] > 1.0
    assert 1000 in range(widget.data["positions"][64], 4097) and 1000 * theta[3] == pytest.approx(1.0)


def test_question_position_is_a_stop_and_defaults_within_a_short_slider():
    widget = W.RotationMatrixHeatmap(max_position=200, question_position=100)
    assert 100 in widget.data["positions"] and widget.data["question"] == 100
    assert widget.data["positions"][-1] == 200
    short = W.RotationMatrixHeatmap(max_position=4)
    assert short.data["positions"] == [0, 1, 2, 3, 4] and short.data["question"] == 4


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"question_position": 0}, "question_position"),
    ({"question_position": 5000}, "question_position"),
    ({"question_position": 3.5}, "question_position"),
    ({"max_position": 10**6}, "max_position"),
    ({"max_position": True}, "max_position"),
])
def test_bad_positions_are_refused_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        W.RotationMatrixHeatmap(**kwargs)


def test_position_trait_is_a_stop_index():
    widget = W.RotationMatrixHeatmap()
    widget.position = len(widget.data["positions"]) - 1
    with pytest.raises(ValueError, match="position"):
        widget.position = len(widget.data["positions"])


def test_heatmap_state_stays_small():
    # 33 stops were 25 068 bytes of data; 113 stops and the question's m add about 300.
    data = json.dumps(W.RotationMatrixHeatmap().data, separators=(",", ":"))
    assert len(data) < 25_600, len(data)
