"""rope_core.testing.check_rope: right implementations pass, each classic bug gets its own code.

Every implementation here is written out with NumPy the way readers write theirs (the
transformers and Meta formulas), not with rope_core, so the check is tested against
independent code.
"""

from __future__ import annotations

import numpy as np
import pytest

from rope_core import apply_rope, attention_factor, from_config, inverse_frequencies
from rope_core.testing import CODES, Finding, RopeReport, check_rope

D = 64


def thetas(dim, base=10000.0):
    return base ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], -1)


def rotate_every_two(x):
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = -x[..., 1::2], x[..., 0::2]
    return out


def hf_rope(x, positions, *, inv_freq=None, base=10000.0, factor=1.0, sign=1.0,
            tables="half", pairs="half", dtype=np.float64):
    """transformers' Llama formula: emb = cat(freqs, freqs), x*cos + rotate_half(x)*sin."""
    dim = x.shape[-1]
    inv_freq = thetas(dim, base) if inv_freq is None else inv_freq
    freqs = np.asarray(positions, dtype)[:, None] * np.asarray(inv_freq, dtype)
    freqs = freqs.astype(np.float64)
    expand = (lambda t: np.concatenate([t, t], -1)) if tables == "half" else (
        lambda t: np.repeat(t, 2, -1))
    cos, sin = expand(np.cos(freqs)) * factor, expand(np.sin(freqs)) * factor
    rotate = rotate_half if pairs == "half" else rotate_every_two
    return (x * cos + rotate(x) * sin * sign).astype(np.float32)


def meta_rope(x, positions, *, base=10000.0):
    """Meta's Llama formula: pairs as complex numbers times e^{i m theta}."""
    z = x[:, 0::2].astype(np.float64) + 1j * x[:, 1::2]
    z = z * np.exp(1j * np.outer(positions, thetas(x.shape[-1], base)))
    out = np.empty(x.shape)
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out.astype(np.float32)


def torch_style(x, positions):
    """What a torch user's converting lambda hands back: float32, made via a list round trip."""
    return np.array(hf_rope(x, positions).tolist(), dtype=np.float32)


# --- right implementations ----------------------------------------------------------------

@pytest.mark.parametrize("fn, layout", [
    (hf_rope, "half"),
    (meta_rope, "interleaved"),
    (torch_style, "half"),
    (lambda x, p: hf_rope(x, p, tables="interleaved", pairs="interleaved"), "interleaved"),
    (lambda x, p: apply_rope(x, p), "interleaved"),
    (lambda x, p: apply_rope(x, p, layout="half"), "half"),
])
def test_right_implementations_pass_in_both_layouts(fn, layout):
    report = check_rope(fn, head_dim=D)
    assert report.ok, str(report)
    assert report.layout == layout
    assert report.findings == ()
    assert "passed" in str(report) and layout in str(report)
    assert check_rope(fn, head_dim=D, layout=layout).ok


def test_right_implementation_with_other_base_rotary_dim_and_scaling_passes():
    assert check_rope(lambda x, p: hf_rope(x, p, base=500000.0), head_dim=128,
                      base=500000.0).ok
    partial = lambda x, p: np.concatenate(                                   # noqa: E731
        [meta_rope(x[:, :16], p), x[:, 16:]], -1)
    assert check_rope(partial, head_dim=D, rotary_dim=16).ok
    yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    inv, af = inverse_frequencies(D, 10000.0, rope_scaling=yarn), attention_factor(
        D, 10000.0, rope_scaling=yarn)
    assert af != 1.0
    assert check_rope(lambda x, p: hf_rope(x, p, inv_freq=inv, factor=af), head_dim=D,
                      rope_scaling=yarn).ok


# --- one or more bugs per code ---------------------------------------------------------------

LINEAR = {"rope_type": "linear", "factor": 4.0}
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}


def no_minus(x, p):
    """rotate_half without its minus sign: a reflection, not a rotation."""
    half = x.shape[-1] // 2
    freqs = np.outer(p, thetas(x.shape[-1]))
    cos, sin = np.tile(np.cos(freqs), 2), np.tile(np.sin(freqs), 2)
    return x * cos + np.concatenate([x[:, half:], x[:, :half]], -1) * sin


def sin_for_cos(x, p):
    freqs = np.outer(p, thetas(x.shape[-1]))
    cos = np.tile(np.cos(freqs), 2)
    return x * cos + rotate_half(x) * cos


def float32_angles(x, p):
    """Angles formed in float32, as transformers' own code forms them."""
    return hf_rope(x, p, dtype=np.float32)


def ignores_positions(x, p):
    return hf_rope(x, np.arange(x.shape[0]))


def off_by_one(x, p):
    return hf_rope(x, p + 1)


def int16_positions(x, p):
    return hf_rope(x, p.astype(np.int16))


def frequencies_over_i_not_2i(x, p):
    dim = x.shape[-1]
    return hf_rope(x, p, inv_freq=10000.0 ** (-np.arange(dim // 2) / dim))


def wrong_base(x, p):
    return hf_rope(x, p, base=10000.0)          # checked with base=500000


def partial_rotates_everything(x, p):
    return hf_rope(x, p)                        # checked with rotary_dim=16


def partial_frequencies_over_head_dim(x, p):
    rotated = hf_rope(x[:, :16], p, inv_freq=thetas(x.shape[-1])[:8])
    return np.concatenate([rotated, x[:, 16:]], -1)


def partial_rotates_only_half(x, p):
    """Rotary over the first half of the pairs only, though all should turn (meta layout)."""
    out = meta_rope(x, p)
    out[:, D // 2:] = x[:, D // 2:]
    return out


def scaling_ignored(x, p):
    return hf_rope(x, p)                        # checked with LINEAR or YARN


def yarn_without_attention_factor(x, p):
    return hf_rope(x, p, inv_freq=inverse_frequencies(D, 10000.0, rope_scaling=YARN))


BUGS = [
    ("not-a-rotation", no_minus, {}),
    ("not-a-rotation", sin_for_cos, {}),
    ("pairing", lambda x, p: hf_rope(x, p, tables="interleaved"), {}),   # repeat with rotate_half
    ("pairing", lambda x, p: hf_rope(x, p, tables="half", pairs="interleaved"), {}),
    ("pairing", hf_rope, {"layout": "interleaved"}),
    ("pairing", meta_rope, {"layout": "half"}),
    ("frequencies", frequencies_over_i_not_2i, {}),
    ("frequencies", wrong_base, {"base": 500000.0}),
    ("positions", ignores_positions, {}),
    ("positions", off_by_one, {}),
    ("positions", int16_positions, {}),
    ("precision", float32_angles, {}),
    ("direction", lambda x, p: hf_rope(x, p, sign=-1.0), {}),
    ("direction", lambda x, p: meta_rope(x, -p), {}),
    ("partial", partial_rotates_everything, {"rotary_dim": 16}),
    ("partial", partial_frequencies_over_head_dim, {"rotary_dim": 16}),
    ("partial", partial_rotates_only_half, {}),
    ("scaling", scaling_ignored, {"rope_scaling": LINEAR}),
    ("scaling", scaling_ignored, {"rope_scaling": YARN}),
    ("scaling", yarn_without_attention_factor, {"rope_scaling": YARN}),
    ("overflow", lambda x, p: hf_rope(x, p) * np.where(p >= 2**16, np.inf, 1.0)[:, None], {}),
]


@pytest.mark.parametrize("code, fn, kwargs", BUGS,
                         ids=[f"{code}-{fn.__name__}-{i}" for i, (code, fn, _) in enumerate(BUGS)])
def test_each_bug_is_named_by_its_code_and_no_other(code, fn, kwargs):
    report = check_rope(fn, head_dim=D, **kwargs)
    assert not report.ok
    assert report.codes == [code], str(report)
    finding = report.findings[0]
    assert isinstance(finding, Finding) and finding.code in CODES
    assert len(finding.message) > 40                         # says what and how to fix
    assert code in str(report) and finding.message in str(report)


def test_every_code_is_covered_by_a_bug_above():
    assert {code for code, _, _ in BUGS} == set(CODES)


def test_the_report_knows_the_layout_of_a_swapped_but_coherent_implementation():
    report = check_rope(hf_rope, head_dim=D, layout="interleaved")
    assert report.layout == "half" and isinstance(report, RopeReport)


def test_a_wrong_shape_or_nan_output_is_not_a_rotation():
    assert check_rope(lambda x, p: x[:, : D // 2], head_dim=D).codes == ["not-a-rotation"]
    assert check_rope(lambda x, p: x * np.nan, head_dim=D).codes == ["not-a-rotation"]
    # NaN only far out is not a broken rotation but an overflow
    assert check_rope(lambda x, p: hf_rope(x, p) * np.where(p > 2000, np.nan, 1.0)[:, None],
                      head_dim=D).codes == ["overflow"]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"fn": "rope", "head_dim": 64}, TypeError, "fn must be a callable"),
    ({"fn": hf_rope, "head_dim": 63}, ValueError, "head_dim"),
    ({"fn": hf_rope, "head_dim": 64.0}, TypeError, "head_dim"),
    ({"fn": hf_rope, "head_dim": 64, "base": 1.0}, ValueError, "base"),
    ({"fn": hf_rope, "head_dim": 64, "rotary_dim": 128}, ValueError, "rotary_dim"),
    ({"fn": hf_rope, "head_dim": 64, "layout": "rotate_half"}, ValueError, "'neox'"),
    ({"fn": hf_rope, "head_dim": 64, "rope_scaling": {"factor": 2.0}}, ValueError, "rope_type"),
    ({"fn": hf_rope, "head_dim": 64, "rope_scaling": {"rope_theta": 1e4, "hidden_size": 64,
                                                      "rope_scaling": None}},
     ValueError, "from_config"),
])
def test_bad_arguments_get_clear_errors(kwargs, error, words):
    fn = kwargs.pop("fn")
    with pytest.raises(error, match=words):
        check_rope(fn, **kwargs)


def test_a_failing_or_unconvertible_fn_says_so():
    def raises(x, p):
        raise RuntimeError("CUDA out of memory")
    with pytest.raises(RuntimeError, match="fn\\(x, positions\\) raised RuntimeError"):
        check_rope(raises, head_dim=D)
    with pytest.raises(TypeError, match="numpy"):
        check_rope(lambda x, p: object(), head_dim=D)


@pytest.mark.parametrize("fn, kwargs, words", [
    (ignores_positions, {}, "ignores the positions"),
    (off_by_one, {}, "off-by-one"),
    (int16_positions, {}, "near 2^20"),
    (float32_angles, {}, "float32"),
    (frequencies_over_i_not_2i, {}, "2i/d"),
    (partial_rotates_everything, {"rotary_dim": 16}, "rotates all 64 features"),
    (partial_frequencies_over_head_dim, {"rotary_dim": 16}, "head_dim=64"),
    (yarn_without_attention_factor, {"rope_scaling": YARN}, "attention factor"),
    (scaling_ignored, {"rope_scaling": YARN}, "ignores rope_scaling"),
    (lambda x, p: hf_rope(x, p, tables="interleaved"), {}, "tile"),
])
def test_messages_say_which_variant_of_the_bug_it_is(fn, kwargs, words):
    (finding,) = check_rope(fn, head_dim=D, **kwargs).findings
    assert words in finding.message


def atlas_cases():
    from rope_core import atlas
    for name in atlas.names():
        for layer_type, spec in atlas.specs(name).items():
            # check_rope rotates the first rotary_dim features; DeepSeek's rotated features
            # come last and Gemma 4's "proportional" pads frequencies with zeros.
            if spec.rotary_offset == 0 and spec.rope_type != "proportional":
                yield pytest.param(spec, id=f"{name}-{layer_type}")


@pytest.mark.parametrize("spec", list(atlas_cases()))
def test_every_atlas_model_as_from_config_applies_it_passes(spec):
    """Two codepaths agree: RopeSpec.apply (the models' configs, as transformers reads them)
    and check_rope's reference (rope_core.inverse_frequencies / attention_factor)."""
    scaling = None
    if spec.rope_type != "default":
        scaling = {key: value for key, value in spec.rope_parameters.items()
                   if key not in ("rope_theta", "partial_rotary_factor")}
        if spec.rope_type == "longrope" and "factor" not in scaling:
            scaling["max_position_embeddings"] = spec.max_position_embeddings
    report = check_rope(spec.apply, head_dim=spec.head_dim, base=spec.base,
                        rope_scaling=scaling, rotary_dim=spec.rotary_dim, layout=spec.layout)
    assert report.ok, str(report)
    assert report.layout == spec.layout


# --- check_rope in a test suite: spec=, max_position=, dtype= ---------------------------------
#
# transformers-style code in NumPy, rounding as torch does: inv_freq, positions and their
# product in float32 (LlamaRotaryEmbedding), cos and sin cast to the model dtype, then
# q * cos + rotate_half(q) * sin with every product and sum rounded to that dtype.

def to_bfloat16(a):
    """Round float32 values to bfloat16 (nearest, ties to even), kept in float32."""
    bits = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def to_float16(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def torch_inv_freq(dim, base):
    """1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.float) / dim)), in float32."""
    exponents = np.arange(0, dim, 2).astype(np.float32) / np.float32(dim)
    return np.float32(1.0) / np.power(np.float32(base), exponents, dtype=np.float32)


def transformers_style(dtype="float32", *, base=10000.0, inv_freq=None, factor=1.0, angles_in=np.float32):
    """LlamaRotaryEmbedding + apply_rotary_pos_emb computing in ``dtype``."""
    round_to = {"float32": lambda a: np.asarray(a, np.float32), "bfloat16": to_bfloat16,
                "float16": to_float16}[dtype]

    def fn(x, positions):
        inv = torch_inv_freq(x.shape[-1], base) if inv_freq is None else np.asarray(inv_freq)
        freqs = np.asarray(positions).astype(angles_in)[:, None] * inv.astype(angles_in)
        emb = np.concatenate([freqs, freqs], -1)
        cos, sin = round_to(np.cos(emb) * factor), round_to(np.sin(emb) * factor)
        q = round_to(x)
        return round_to(round_to(q * cos) + round_to(rotate_half(q) * sin))
    return fn


def vllm_style(cache_size, *, base=10000.0):
    """vLLM's RotaryEmbedding (neox style): a cos/sin cache of cache_size positions, indexed."""
    def fn(x, positions):
        inv = torch_inv_freq(x.shape[-1], base)
        t = np.arange(cache_size, dtype=np.float32)
        freqs = (t[:, None] * inv).astype(np.float32)
        cos_cache, sin_cache = np.cos(freqs), np.sin(freqs)
        index = np.asarray(positions) % cache_size          # what an out-of-range gather wraps to
        cos, sin = np.tile(cos_cache[index], 2), np.tile(sin_cache[index], 2)
        return x * cos + rotate_half(x) * sin
    return fn


LLAMA31 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
           "rope_theta": 500000.0, "max_position_embeddings": 131072,
           "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}


def llama31_style(*, scaled=True, held=np.float64, angles_in=np.float64):
    """A Llama 3.1 rotary: llama3-scaled inv_freq held in ``held`` (transformers: float32),
    angles formed in ``angles_in`` (transformers: float32), the rest float32."""
    inv = from_config(LLAMA31).inverse_frequencies if scaled else thetas(128, 500000.0)
    return transformers_style(inv_freq=inv.astype(held).astype(np.float64), angles_in=angles_in)


def test_float32_transformers_code_passes_for_the_context_it_serves_and_not_at_2_20():
    fn = transformers_style("float32")
    assert check_rope(fn, head_dim=D, max_position=8192).ok
    assert check_rope(fn, head_dim=D, max_position=131072).ok
    report = check_rope(fn, head_dim=D)                     # default: positions up to 2^20
    assert report.codes == ["precision"], str(report)
    message = report.findings[0].message
    assert "near position 2^20" in message and "formed in float32" in message
    assert "max_position=" in message                        # says how to state the context


def test_precision_names_the_rounding_that_happened():
    """float64 angles on a float32 inv_freq: the error is exactly proportional to m, and the
    message says the frequencies are held in float32, not that the multiply was."""
    held = transformers_style("float32", base=500000.0, angles_in=np.float64)
    (finding,) = check_rope(held, head_dim=128, base=500000.0).findings
    assert finding.code == "precision"
    assert "inv_freq (theta_i) is held in float32" in finding.message
    assert "formed in float32" not in finding.message
    formed = transformers_style("float32", base=500000.0)
    (finding,) = check_rope(formed, head_dim=128, base=500000.0).findings
    assert "m * theta_i is formed in float32" in finding.message


def test_bfloat16_code_passes_when_checked_as_bfloat16():
    fn = transformers_style("bfloat16")
    assert check_rope(fn, head_dim=D, dtype="bfloat16", max_position=8192).ok
    assert check_rope(fn, head_dim=128, dtype="bfloat16", max_position=131072).ok
    # the same code is not a pairing bug when checked as float32 at short range
    assert "pairing" not in check_rope(fn, head_dim=D, max_position=8192).codes


def to_4_bits(a):
    """Round to 4 significant bits (an 8-bit float's precision), kept in float32."""
    mantissa, exponent = np.frexp(np.asarray(a, np.float64))
    return np.ldexp(np.round(mantissa * 16) / 16, exponent).astype(np.float32)


def test_rounding_beyond_the_dtype_is_precision_and_says_to_pass_dtype():
    def eight_bit(x, p):               # cos, sin and the output rounded far below bfloat16
        angles = np.outer(p, thetas(x.shape[-1]))
        cos, sin = to_4_bits(np.tile(np.cos(angles), 2)), to_4_bits(np.tile(np.sin(angles), 2))
        return to_4_bits(x * cos + rotate_half(x) * sin)
    (finding,) = check_rope(eight_bit, head_dim=D, dtype="bfloat16", max_position=8192).findings
    assert finding.code == "precision", finding
    assert "dtype=" in finding.message and "0..15" in finding.message


def test_a_vllm_style_cache_passes_for_its_length_and_fails_beyond():
    fn = vllm_style(8192)
    report = check_rope(fn, head_dim=D, max_position=8192)
    assert report.ok, str(report)
    beyond = check_rope(fn, head_dim=D, max_position=16384)
    assert beyond.codes == ["positions"]
    assert "16383" in beyond.findings[0].message and "16384 positions" in beyond.findings[0].message


def test_llama31_code_passes_against_its_spec_and_unscaled_code_is_scaling():
    spec = from_config(LLAMA31)
    report = check_rope(llama31_style(), spec=spec)
    assert report.ok, str(report)
    assert report.layout == "half" and "spec of llama" in str(report)
    # transformers' own: inv_freq and angles in float32, for the 131072 positions the model serves
    transformers_own = llama31_style(held=np.float32, angles_in=np.float32)
    assert check_rope(transformers_own, spec=spec, max_position=spec.max_position_embeddings).ok
    assert check_rope(transformers_own, spec=spec).ok       # the spec brings its own context
    assert check_rope(transformers_own, spec=spec, max_position=2**20).codes == ["precision"]
    unscaled = check_rope(llama31_style(scaled=False), spec=spec)
    assert unscaled.codes == ["scaling"], str(unscaled)
    assert "ignores rope_scaling" in unscaled.findings[0].message


def test_scaled_code_checked_without_its_scaling_is_told_so_with_the_numbers_that_differ():
    report = check_rope(llama31_style(), head_dim=128, base=500000.0)
    assert report.codes == ["scaling"], str(report)
    message = report.findings[0].message
    assert "rope_scaling=" in message and "more slowly" in message
    shown, expected = message.split(" rad per token, expected ")[0].split(": ")[-1], \
        message.split(" rad per token, expected ")[1].split(")")[0]
    assert shown != expected                                   # never "x (expected x)"


def test_frequency_messages_show_values_that_differ():
    (finding,) = check_rope(frequencies_over_i_not_2i, head_dim=D).findings
    for part in finding.message.split("pair ")[1:4]:
        value, expected = part.split(": ")[1].split(" (expected ")
        assert value != expected.split(")")[0]


def test_float16_overflow_is_told_apart_from_a_non_rotation():
    """All-float16 code: inf beyond 65504 is overflow, and its angles are already wrong at 1000."""
    def all_half(x, p):
        inv = thetas(x.shape[-1]).astype(np.float16)
        freqs = np.asarray(p).astype(np.float16)[:, None] * inv
        emb = np.concatenate([freqs, freqs], -1).astype(np.float32)
        return to_float16(x * np.cos(emb) + rotate_half(x) * np.sin(emb))
    with np.errstate(over="ignore", invalid="ignore"):
        report = check_rope(all_half, head_dim=D, dtype="float16")
    assert report.codes == ["precision", "overflow"], str(report)
    message = report.findings[0].message
    assert "1000..1015" in message and "cast to float16" in message and "off by up to" in message
    assert "65504" in report.findings[1].message
    assert "not-a-rotation" not in report.codes


def test_fn_returning_none_says_so():
    (finding,) = check_rope(lambda x, p: None, head_dim=D).findings
    assert finding.code == "not-a-rotation" and "returned None" in finding.message


@pytest.mark.parametrize("kwargs, error, words", [
    ({"max_position": 10}, ValueError, "max_position"),
    ({"max_position": 8192.0}, TypeError, "max_position"),
    ({"dtype": "int8"}, ValueError, "dtype"),
    ({"spec": "llama"}, TypeError, "RopeSpec"),
    ({"spec": "LLAMA31", "head_dim": 64}, ValueError, "head_dim=64 contradicts"),
    ({"spec": "LLAMA31", "rope_scaling": {"rope_type": "linear", "factor": 2.0}}, ValueError, "spec="),
    ({"spec": "LLAMA31", "layout": "interleaved"}, ValueError, "spec.layout"),
])
def test_bad_new_arguments_get_clear_errors(kwargs, error, words):
    if kwargs.get("spec") == "LLAMA31":
        kwargs["spec"] = from_config(LLAMA31)
    kwargs.setdefault("head_dim", None if "spec" in kwargs else D)
    with pytest.raises(error, match=words):
        check_rope(hf_rope, **kwargs)


def test_code_rotating_fewer_features_than_rotary_dim_is_partial():
    neox = lambda x, p: apply_rope(x, p, layout="half", rotary_dim=32)          # noqa: E731
    assert check_rope(neox, head_dim=128, rotary_dim=32).ok
    (finding,) = check_rope(neox, head_dim=128, rotary_dim=64).findings
    assert finding.code == "partial" and "only the first 32 features" in finding.message


def test_layout_names_practitioners_use_are_accepted():
    assert check_rope(hf_rope, head_dim=D, layout="neox").layout == "half"
    assert check_rope(meta_rope, head_dim=D, layout="gptj").layout == "interleaved"
    assert check_rope(hf_rope, head_dim=D, layout="gptj").codes == ["pairing"]


# --- code written the way real code is written: low precision, exponents, a model's context ------

def bfloat16(values):
    """values rounded to bfloat16 (8 significant bits, nearest even), as torch's .to(bfloat16)."""
    values = np.asarray(values, dtype=np.float64)
    mantissa, exponent = np.frexp(values)                     # values = mantissa * 2**exponent
    return np.ldexp(np.round(mantissa * 2**8) / 2**8, exponent)  # np.round: half to even


def rope_from_inv_freq(x, positions, inv_freq, *, angle_dtype=np.float32):
    """transformers' LlamaRotaryEmbedding.forward + apply_rotary_pos_emb, in NumPy."""
    freqs = np.asarray(positions, dtype=angle_dtype)[:, None] * inv_freq.astype(angle_dtype)
    emb = np.concatenate([freqs, freqs], axis=-1).astype(np.float64)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


def test_an_inv_freq_buffer_rounded_to_bfloat16_is_named_precision_not_positions():
    """model.to(torch.bfloat16) once cast the inv_freq buffer too; the angles are then formed
    in float32 from rounded frequencies. The formula is right, so the finding is precision."""
    inv_freq = bfloat16(1.0 / 10000.0 ** (np.arange(0, D, 2) / D))
    report = check_rope(lambda x, p: rope_from_inv_freq(x, p, inv_freq), head_dim=D)
    assert report.codes == ["precision"], str(report)
    message = report.findings[0].message
    assert "inv_freq (theta_i) held in bfloat16" in message and "rad (measured" in message
    assert "inv_freq.float()" in message


def test_positions_and_inv_freq_cast_to_bfloat16_are_named_precision_not_frequencies():
    """position_ids.to(bf16)[:, None] * inv_freq.to(bf16): the product is formed in bfloat16."""
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, D, 2) / D)

    def all_bf16(x, p):
        freqs = bfloat16(bfloat16(p)[:, None] * bfloat16(inv_freq))
        emb = np.concatenate([freqs, freqs], axis=-1)
        return x * np.cos(emb) + rotate_half(x) * np.sin(emb)
    report = check_rope(all_bf16, head_dim=D, max_position=8192)
    assert report.codes == ["precision"], str(report)
    message = report.findings[0].message
    assert "positions and inv_freq cast to bfloat16" in message
    angle_error = float(message.split("off by up to ")[1].split(" rad")[0])
    assert 0 < angle_error < np.pi


def test_an_exponent_over_half_the_dimension_is_named_frequencies_with_the_values():
    """inv_freq = base ** (-arange(0, d, 2) / (d // 2)): every pair but the first turns too fast,
    the slow half too; it is not 'only the first features rotate'."""
    inv_freq = 1.0 / 10000.0 ** (np.arange(0, D, 2) / (D // 2))
    report = check_rope(lambda x, p: rope_from_inv_freq(x, p, inv_freq, angle_dtype=np.float64), head_dim=D)
    assert report.codes == ["frequencies"], str(report)
    message = report.findings[0].message
    assert f"divides by {D // 2} instead of the rotated dimension {D}" in message
    assert f"pair {D // 2 - 1}: " in message and "expected" in message


def test_a_spec_brings_its_models_context_length():
    """GPT-J serves 2048 positions: its own code is right there, whatever happens at 2^20."""
    gptj = from_config({"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64,
                        "n_positions": 2048})

    def gptj_code(x, p):  # modeling_gptj.py: float32 sinusoids, rotate_every_two on rotary_dim
        inv_freq = 1.0 / 10000 ** (np.arange(0, 64, 2) / 64)
        angles = (np.asarray(p, np.float32)[:, None] * inv_freq.astype(np.float32)).astype(np.float64)
        cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)
        rot = x[:, :64]
        every_two = np.stack([-rot[:, 1::2], rot[:, 0::2]], axis=-1).reshape(rot.shape)
        return np.concatenate([rot * cos + every_two * sin, x[:, 64:]], axis=-1)
    report = check_rope(gptj_code, spec=gptj)
    assert report.ok and "max_position=2048" in str(report), str(report)
    assert report.layout == "interleaved"
    assert not check_rope(gptj_code, spec=gptj, max_position=2**20).ok  # an explicit one wins
