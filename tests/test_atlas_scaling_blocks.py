"""Chapter 12's scaling-block table against transformers' own rotary classes.

``tests/fixtures/scaling_blocks_golden.json`` holds, for every record of
``rope_core.atlas.SCALING_BLOCKS`` and every layer type that applies RoPE, the ``inv_freq`` and
``attention_scaling`` transformers computes from the same config
(``scripts/golden_scaling_blocks.py``). The table's columns come from rope_core, so these tests
hold each of them to transformers' numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import rope_core
from rope_core import atlas

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "scaling_blocks_golden.json").read_text())
RECORDS = GOLDEN["records"]
MODELS = [item["model"] for item in atlas.SCALING_BLOCKS]


def spec_for(record):
    return rope_core.from_config(record["config"], layer_type=record["layer_type"])


def test_the_fixture_comes_from_transformers_5_and_covers_every_record():
    assert GOLDEN["transformers_version"].startswith("5.")
    assert [record["name"] for record in RECORDS if record["name"] in MODELS]
    assert {record["name"] for record in RECORDS} == set(MODELS)


@pytest.mark.parametrize("model", MODELS)
def test_the_fixture_was_made_from_todays_config(model):
    """A changed atlas entry or extension block must regenerate the fixture."""
    configs = [record["config"] for record in RECORDS if record["name"] == model]
    assert configs and all(config == atlas.scaling_block_config(model) for config in configs)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['name']}-{r['layer_type']}")
def test_rope_core_computes_transformers_frequencies_and_attention_factor(record):
    spec = spec_for(record)
    np.testing.assert_allclose(spec.inverse_frequencies, record["inv_freq"], rtol=4e-7, atol=0)  # float32 rounding
    assert spec.attention_factor == pytest.approx(record["attention_scaling"], rel=1e-6)
    if "softmax_scale_factor" in record:
        assert spec.softmax_scale_factor == pytest.approx(record["softmax_scale_factor"], rel=1e-6)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['name']}-{r['layer_type']}")
def test_the_layers_the_table_calls_scaled_are_the_ones_transformers_changes(record):
    """A scaled layer type's frequencies or factor differ from plain RoPE at its own base."""
    spec = spec_for(record)
    pairs = len(record["inv_freq"])
    plain = spec.base ** (-np.arange(pairs) / pairs)
    changed = (not np.allclose(record["inv_freq"], plain, rtol=1e-6)
               or record["attention_scaling"] != 1.0)
    assert changed == (spec.rope_type in atlas.SCALED_ROPE_TYPES)


def test_rows_say_who_passes_the_block():
    rows = {item["model"]: row for item, row in zip(atlas.SCALING_BLOCKS, atlas.scaling_block_rows())}
    # Blocks added at deployment: Qwen3's README block and the Qwen3-Next extension.
    assert rows["qwen3-8b-yarn"]["you pass"].endswith("--max-model-len 131072")
    assert rows["qwen3-next-80b-a3b"]["you pass"].endswith("--max-model-len 1048576")
    assert '"partial_rotary_factor": 0.25' in rows["qwen3-next-80b-a3b"]["rope_parameters"]
    assert all('"rope_theta"' in rows[model]["rope_parameters"]
               for model in ("qwen3-8b-yarn", "qwen3-next-80b-a3b"))
    shipped = [model for model in MODELS if model not in ("qwen3-8b-yarn", "qwen3-next-80b-a3b")]
    assert all(rows[model]["you pass"].startswith("nothing") for model in shipped)
    assert rows["gemma-3-4b"]["scaled layers"] == "5 full_attention of 34"
    assert rows["qwen3-next-80b-a3b"]["scaled layers"] == "all 12 RoPE layers of 48"
    assert all(row["source"] for row in rows.values())


def test_an_unknown_model_is_refused_by_name():
    with pytest.raises(ValueError, match="model: 'llama-9'"):
        atlas.scaling_block_config("llama-9")
