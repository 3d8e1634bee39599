"""rope_core with the inputs real code passes it: transformers' position_ids, lists, whole
configs where a scaling block is expected, and the optional extras missing."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import rope_core
from rope_core import apply_rope, apply_rope_elementwise, cos_sin_tables, rope_angles


def transformers_rope(x, position_ids, base=10000.0):
    """transformers' Llama code, restated: cos/sin (batch, seq, d) unsqueezed at axis 1 for the
    heads, and x * cos + rotate_half(x) * sin (half layout)."""
    d = x.shape[-1]
    inv_freq = 1.0 / base ** (np.arange(0, d, 2) / d)
    freqs = position_ids[..., None] * inv_freq                # (batch, seq, d/2)
    emb = np.concatenate([freqs, freqs], -1)                  # (batch, seq, d)
    cos, sin = np.cos(emb)[:, None], np.sin(emb)[:, None]     # (batch, 1, seq, d)
    rotated = np.concatenate([-x[..., d // 2:], x[..., : d // 2]], -1)
    return x * cos + rotated * sin


@pytest.mark.parametrize("batch, heads", [(2, 2), (3, 3), (2, 5), (4, 1)])
def test_position_ids_batch_seq_follow_transformers(rng, batch, heads):
    seq, d = 6, 8
    x = rng.standard_normal((batch, heads, seq, d))
    # Different positions per batch row (left padding, packed sequences): rows matter.
    position_ids = np.stack([np.arange(seq) + 7 * b for b in range(batch)])
    got = apply_rope(x, position_ids, layout="half")
    np.testing.assert_allclose(got, transformers_rope(x, position_ids), atol=1e-12)
    # The same as giving (batch, 1, seq) explicitly, in every form that takes positions.
    explicit = position_ids[:, None, :]
    np.testing.assert_allclose(got, apply_rope(x, explicit, layout="half"), atol=1e-12)
    np.testing.assert_allclose(apply_rope_elementwise(x, position_ids, layout="half"), got, atol=1e-12)


def test_position_ids_are_never_applied_row_to_head(rng):
    """batch == heads used to broadcast (batch, seq) against (heads, seq): row b went to head b."""
    x = rng.standard_normal((2, 2, 4, 8))
    position_ids = np.array([[0, 1, 2, 3], [100, 101, 102, 103]])
    got = apply_rope(x, position_ids, layout="interleaved")
    for b in range(2):
        for h in range(2):
            np.testing.assert_allclose(got[b, h], apply_rope(x[b, h], position_ids[b]), atol=1e-12)
    row_to_head = apply_rope(x, position_ids[None, :, :])     # what NumPy broadcasting would do
    assert not np.allclose(got[0, 1], row_to_head[0, 1])


def test_position_ids_with_the_wrong_batch_say_what_to_pass(rng):
    x = rng.standard_normal((2, 3, 4, 8))
    with pytest.raises(ValueError, match=r"\(batch, seq\).*\(batch, 1, seq\)"):
        apply_rope(x, np.zeros((3, 4), dtype=int))


def test_per_head_positions_still_broadcast_when_given_one_axis_per_leading_axis(rng):
    x = rng.standard_normal((2, 3, 4, 8))
    per_head = np.arange(3)[:, None] * 10 + np.arange(4)      # (heads, seq)
    got = apply_rope(x, per_head[None])                       # (1, heads, seq)
    for b in range(2):
        for h in range(3):
            np.testing.assert_allclose(got[b, h], apply_rope(x[b, h], per_head[h]), atol=1e-12)


def test_lists_of_positions_work_everywhere(rng):
    x = rng.standard_normal((2, 3, 8))
    as_array = apply_rope(x, np.array([[0, 1, 2], [5, 6, 7]]))
    np.testing.assert_array_equal(apply_rope(x, [[0, 1, 2], [5, 6, 7]]), as_array)
    np.testing.assert_array_equal(apply_rope(x[0], [0, 1, 2]), apply_rope(x[0], np.arange(3)))
    np.testing.assert_array_equal(apply_rope(x[0], (0.0, 1.0, 2.0)), apply_rope(x[0], np.arange(3)))
    np.testing.assert_array_equal(rope_angles([0, 1, 2], 8), rope_angles(np.arange(3), 8))
    cos_list, _ = cos_sin_tables([0, 1, 2], 8)
    np.testing.assert_array_equal(cos_list, np.cos(rope_angles(np.arange(3), 8)))
    np.testing.assert_allclose(apply_rope(x.tolist(), [0, 1, 2])[0], apply_rope(x[0], [0, 1, 2]))


WHOLE_CONFIG = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                "rope_theta": 500000.0,
                "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                 "high_freq_factor": 4.0,
                                 "original_max_position_embeddings": 8192}}
PER_LAYER = {"full_attention": {"rope_type": "default", "rope_theta": 10000.0},
             "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}


@pytest.mark.parametrize("rope_scaling, words", [
    (WHOLE_CONFIG, "from_config"),
    (PER_LAYER, "from_config"),
    ({"factor": 8.0}, "rope_type"),
    ({"rope_type": "linear", "factor": 2.0, "nested": {"a": [1, 2]}}, "nested"),
])
@pytest.mark.parametrize("call", [
    lambda s: apply_rope(np.ones((3, 8)), rope_scaling=s),
    lambda s: apply_rope(np.ones((3, 8), np.float32), rope_scaling=s, layout="half"),
    lambda s: cos_sin_tables(np.arange(3), 8, rope_scaling=s),
])
def test_a_config_where_a_scaling_block_belongs_gets_the_validation_error(call, rope_scaling, words):
    """Never "TypeError: unhashable type" from the cache key: the validation speaks first."""
    with pytest.raises(ValueError, match=words):
        call(rope_scaling)


def longrope(short_factor):
    return {"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 16,
            "short_factor": short_factor, "long_factor": [1.0, 1.0]}


def test_the_table_cache_key_is_canonical_and_complete(rng):
    x = rng.standard_normal((5, 4))
    rope_core.clear_table_cache()
    as_list = apply_rope(x, rope_scaling=longrope([1.0, 2.0]))
    # The same block written differently is served from the same cache entry ...
    reordered = dict(reversed(list(longrope((1, 2)).items())))
    cos_a = cos_sin_tables(np.arange(5), 4, rope_scaling=longrope([1.0, 2.0]))[0]
    cos_b = cos_sin_tables(np.arange(5), 4, rope_scaling=reordered)[0]
    assert cos_a is cos_b
    np.testing.assert_array_equal(apply_rope(x, rope_scaling=reordered), as_list)
    # ... and a different value inside a list is a different table.
    other = apply_rope(x, rope_scaling=longrope([1.0, 3.0]))
    assert not np.allclose(other, as_list)
    rope_core.clear_table_cache()
    np.testing.assert_array_equal(apply_rope(x, rope_scaling=longrope([1.0, 3.0])), other)


@pytest.mark.parametrize("subpackage, blocked, extra", [
    ("rope_core.plots", "matplotlib", "plots"),
    ("rope_core.widgets", "anywidget", "widgets"),
    ("rope_core.widgets", "traitlets", "widgets"),
])
def test_missing_extras_name_the_extra_to_install(subpackage, blocked, extra):
    code = f"import sys; sys.modules[{blocked!r}] = None; import {subpackage}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("ImportError")
    assert f'pip install "rope-core[{extra}]"' in last_line and blocked in last_line


def test_the_maths_imports_without_the_extras():
    code = ("import sys\n"
            "for name in ('matplotlib', 'anywidget', 'ipywidgets', 'traitlets'):\n"
            "    sys.modules[name] = None\n"
            "import rope_core, numpy as np\n"
            "print(rope_core.apply_rope(np.ones((2, 4))).shape)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(2, 4)"
