"""rope_core.from_config against transformers' own numbers (tests/fixtures/rope_golden.json).

The fixture is written by ``scripts/golden_rope.py``, which runs each model's transformers
rotary-embedding class and ``apply_*`` function on the atlas's configs; this test needs neither
torch nor transformers. transformers works in float32, rope_core in float64: frequencies agree
to float32 round-off, and a rotated head to the float32 error of the angle m * theta (about
1e-7 * m radians), which the tolerance of each row follows.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rope_core import atlas, from_config
from rope_core.config import PUBLISHED_CONFIGS

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "rope_golden.json").read_text())
RECORDS = FIXTURE["records"]


def _config(record):
    return record["config"] if "config" in record else atlas.entry(record["name"]).config_dict()


def _id(record):
    return f"{record['name']}:{record['layer_type']}"


def test_the_fixture_records_its_provenance_and_covers_the_atlas():
    assert FIXTURE["transformers_version"].startswith("5.")
    assert FIXTURE["torch_version"]
    covered = {record["name"] for record in RECORDS}
    assert set(atlas.names()) <= covered
    for name in atlas.names():  # every layer type with RoPE of every atlas model
        assert {r["layer_type"] for r in RECORDS if r["name"] == name} == set(atlas.specs(name))


@pytest.mark.parametrize("record", RECORDS, ids=_id)
def test_frequencies_and_factors_match_transformers(record):
    spec = from_config(_config(record), layer_type=record["layer_type"])
    expected = np.array(record["inv_freq"])
    assert spec.inverse_frequencies.shape == expected.shape
    assert spec.rotary_dim == 2 * expected.size
    # float32 round-off of transformers' base ** (2i / d) (zeros stay exactly zero).
    np.testing.assert_allclose(spec.inverse_frequencies, expected, rtol=4e-7, atol=0)
    assert spec.attention_factor == pytest.approx(record["attention_scaling"], rel=1e-6)
    assert spec.softmax_scale_factor == pytest.approx(record.get("softmax_scale_factor", 1.0), rel=1e-6)


@pytest.mark.parametrize("record", RECORDS, ids=_id)
def test_rotated_heads_match_the_models_own_apply(record):
    config = _config(record)
    spec = from_config(config, layer_type=record["layer_type"])
    for case in record["cases"]:
        x = np.array(case["x"])
        positions = np.array(case["positions"])
        got = spec.apply(x, positions)
        expected = np.array(case["rotated"])
        tolerance = 2e-6 + 4e-7 * positions[:, None] * spec.attention_factor
        assert np.all(np.abs(got - expected) <= tolerance), (
            f"{_id(record)} {case['label']}: max error {np.abs(got - expected).max():.3g}")


@pytest.mark.parametrize("record", RECORDS, ids=_id)
def test_cos_sin_tables_match(record):
    spec = from_config(_config(record), layer_type=record["layer_type"])
    for case in record["cases"]:
        theta = spec.frequencies_at(max(case["positions"]) + 1)
        for m, cos_row, sin_row in zip(case["table_positions"], case["cos"], case["sin"]):
            cos_row, sin_row = np.array(cos_row), np.array(sin_row)
            half = theta.size
            if cos_row.size == 2 * half:  # [c, c] (rotate_half) or repeat_interleave'd
                split = np.allclose(cos_row[:half], cos_row[half:])
                cos_row = cos_row[:half] if split else cos_row[0::2]
                sin_row = sin_row[:half] if split else sin_row[0::2]
            tolerance = 2e-6 + 4e-7 * m * spec.attention_factor
            np.testing.assert_allclose(np.cos(m * theta) * spec.attention_factor, cos_row, rtol=0, atol=tolerance)
            np.testing.assert_allclose(np.sin(m * theta) * spec.attention_factor, sin_row, rtol=0, atol=tolerance)


def test_a_wrong_layout_would_be_caught():
    """The rotated-head check is not blind to the layout: the other one misses by O(1)."""
    record = next(r for r in RECORDS if r["name"] == "llama-4-scout")
    spec = from_config(_config(record), layer_type=record["layer_type"])
    assert spec.layout == "interleaved"
    from dataclasses import replace
    wrong = replace(spec, layout="half")
    case = record["cases"][0]
    error = np.abs(wrong.apply(np.array(case["x"]), case["positions"])[:2] - np.array(case["rotated"])[:2])
    assert error.max() > 0.1


REAL = [record for record in RECORDS if "rope_layers" in record]


def test_the_published_configs_are_all_recorded():
    """Every config in rope_core/configs has its record (the 13 published models and the
    two whose config leaves out partial_rotary_factor)."""
    names = set(PUBLISHED_CONFIGS)
    assert names == {record["name"] for record in REAL}
    assert len(names) == 15


@pytest.mark.parametrize("record", REAL, ids=_id)
def test_published_configs_give_transformers_rotary_dim_head_and_rope_layers(record):
    """The keys transformers reads beyond the frequencies: rotary_dim (MiniMax-M2), the
    per-family partial_rotary_factor defaults (GLM-4.5, Qwen3-Next), and which layers rotate
    (EXAONE 4's NoPE global layers, Qwen3-Next's linear-attention layers). Known model types
    give no warning."""
    import warnings

    from rope_core.config import MODEL_TYPES, RopeConfigWarning
    assert record["config"]["model_type"] in MODEL_TYPES
    with warnings.catch_warnings():
        warnings.simplefilter("error", RopeConfigWarning)
        spec = from_config(record["config"])
    assert spec.guesses == ()
    assert spec.rotary_dim == 2 * len(record["inv_freq"])
    assert spec.head_dim == record["head_dim"]
    assert list(spec.layers) == record["rope_layers"]
    n_layers = record["config"]["num_hidden_layers"]
    assert sorted(spec.layers + spec.nope_layers) == list(range(n_layers))


def test_published_config_returns_a_fresh_copy_and_refuses_an_unknown_name():
    from rope_core import published_config

    config = published_config("minimax-m2")
    config["rotary_dim"] = 0
    assert published_config("minimax-m2")["rotary_dim"] == 64
    with pytest.raises(ValueError, match="name: 'minimax-m3' is not a published config"):
        published_config("minimax-m3")
