"""Mutation run over rope_core's maths: does `make unit` catch each classic RoPE bug?

The mutants are the classic RoPE bugs M01–M52 (each written against today's files) plus
M60–M64 for the later scaling code. Each is one textual replacement; the file is
patched, the maths tests and the docstring examples run (``pytest -x``, no browser/book), and
the file is restored. A mutant whose text is no longer in its file is reported as SKIP, so a
refactor that moves the code shows up instead of silently shrinking the run.

Usage: .venv/bin/python scripts/mutate_maths.py [--only M06,M49]
Prints killed/SURVIVED per mutant and the rate; exit status 1 if any mutant survives.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/test_apply.py", "tests/test_attention.py", "tests/test_attention_statistics.py",
    "tests/test_layouts.py", "tests/test_absolute.py", "tests/test_bad_input.py",
    "tests/test_properties.py", "tests/test_rotation.py", "tests/test_real_inputs.py",
    "tests/test_testing.py", "tests/test_public_api.py", "tests/test_frequencies.py",
    "tests/test_multimodal.py", "tests/test_pitfalls.py", "tests/test_precision.py",
    "tests/test_blocks.py", "tests/test_config.py", "tests/test_config_golden.py",
    "tests/test_atlas.py", "tests/test_base_threshold.py", "rope_core",
]
F, A, X, L, C = ("rope_core/frequencies.py", "rope_core/apply.py", "rope_core/_fast.py",
                 "rope_core/layouts.py", "rope_core/_checks.py")
B, AT, T = "rope_core/bounds.py", "rope_core/attention.py", "rope_core/testing.py"
MUTANTS = [
    # (id and what, file, old, new)
    ("M01 half-layout sign flip", X, "np.concatenate([-sin, sin], -1)", "np.concatenate([sin, -sin], -1)"),
    ("M01b rotate_half sign", A, "np.concatenate([-x[..., half:], x[..., :half]], axis=-1)",
     "np.concatenate([x[..., half:], -x[..., :half]], axis=-1)"),
    ("M02 interleaved conj table", X, "((cos + 1j * sin).astype(dtype),)", "((cos - 1j * sin).astype(dtype),)"),
    ("M03 teaching tile->repeat", A, "cos, sin = np.tile(np.cos(angles), 2), np.tile(np.sin(angles), 2)",
     "cos, sin = np.repeat(np.cos(angles), 2, -1), np.repeat(np.sin(angles), 2, -1)"),
    ("M04 YaRN ramp off by one", F, "np.arange(dim // 2, dtype=np.float64) - low",
     "np.arange(1, dim // 2 + 1, dtype=np.float64) - low"),
    ("M05 YaRN weights swapped", F,
     "(theta / factor) * (1.0 - extrapolation_weight) + theta * extrapolation_weight",
     "(theta / factor) * extrapolation_weight + theta * (1.0 - extrapolation_weight)"),
    ("M06 YaRN range clipped at d/2-1", F, "return max(low, 0), min(high, dim - 1)",
     "return max(low, 0), min(high, dim // 2 - 1)"),
    # (Swapping the edges of the first np.where alone is equivalent: the band overwrites it.)
    ("M07 llama3 band edges swapped", F, "medium = (wavelength >= length / high) & (wavelength <= length / low)",
     "medium = (wavelength >= length / low) & (wavelength <= length / high)"),
    ("M08 llama3 high edge x1.2", F, "(wavelength >= length / high) &", "(wavelength >= 1.2 * length / high) &"),
    ("M09 llama3 smooth uses high", F, "smooth = (length / wavelength[medium] - low) / (high - low)",
     "smooth = (length / wavelength[medium] - high) / (high - low)"),
    ("M10 permutation odd-first", L, "np.concatenate([np.arange(0, dim, 2), np.arange(1, dim, 2)])",
     "np.concatenate([np.arange(1, dim, 2), np.arange(0, dim, 2)])"),
    ("M11 half_to_interleaved without inverse", L,
     "x[..., np.argsort(interleaved_to_half_permutation(x.shape[-1]))]",
     "x[..., interleaved_to_half_permutation(x.shape[-1])]"),
    ("M13 base == 1 accepted", C, "base <= 0 or base == 1.0", "base <= 0"),
    ("M14 overlapping out accepted", C, "if np.may_share_memory(out, x):", "if False:"),
    ("M15 NaN positions accepted", C,
     '    if not np.all(np.isfinite(array)):\n        raise ValueError(f"{name} must be finite, got NaN or inf")',
     "    pass"),
    ("M16 factor < 1 accepted", F, 'config.get("factor", 1.0) < 1.0', 'config.get("factor", 1.0) < 0.0'),
    ("M17 dynamic NTK without max", F, "current = max(seq_len, length) if seq_len", "current = seq_len if seq_len"),
    ("M18 LongRoPE >= instead of >", F, 'seq_len > config["original_max_position_embeddings"]',
     'seq_len >= config["original_max_position_embeddings"]'),
    ("M19 YaRN mscale 0.07", F, "0.1 * weight * math.log(scale) + 1.0", "0.07 * weight * math.log(scale) + 1.0"),
    ("M20 cache key ignores scaling", X, "            scaling_key(rope_scaling), np.dtype(dtype).str)",
     "            scaling_key(None), np.dtype(dtype).str)"),
    ("M21b blocked path last block unwritten", X, "for start in range(0, seq_len, rows)]",
     "for start in range(0, max(seq_len - rows, 1), rows)]"),
    ("M22 seq_len max not max+1", A, "max(float(np.max(positions)) + 1.0, 1.0)", "max(float(np.max(positions)), 1.0)"),
    ("M23 decay-bound normalisation", B, "return np.abs(partial_sums).mean(axis=-1)",
     "return np.abs(partial_sums).sum(axis=-1)"),
    ("M24 min_base skips m = L", B, "for stop in range(context_len + 1, 0, -block):",
     "for stop in range(context_len, 0, -block):"),
    ("M25 bfloat16 rounds half up", "rope_core/precision.py", "rounding = 0x7FFF + ((bits >> 16) & 1)",
     "rounding = 0x8000"),
    ("M26 Qwen2-VL text resumes one early", "rope_core/multimodal.py",
     "resume = start + max(grid_h, grid_w) if", "resume = start + max(grid_h, grid_w) - 1 if"),
    ("M27 M-RoPE height/width swapped", "rope_core/multimodal.py",
     "positions = np.stack([t, h, w], axis=-1)[..., section_of_pair]",
     "positions = np.stack([t, w, h], axis=-1)[..., section_of_pair]"),
    ("M45 table cache LRU -> FIFO", X, "        _TABLE_CACHE.move_to_end(key)\n", ""),
    ("M49 float32 angle product not rounded", "rope_core/precision.py",
     "return np.asarray(product.astype(dtype), dtype=np.float64)", "return np.asarray(product, dtype=np.float64)"),
    ("M50 relative_scores q positions reversed", AT,
     "rotated_q = apply_rope(q, positions_q, base=base, layout=layout)",
     "rotated_q = apply_rope(q, positions_q[::-1], base=base, layout=layout)"),
    ("M51 strided/f16 path conj", X, "np.multiply(pairs_complex, table[index][row_slice], out=pairs_complex)",
     "np.multiply(pairs_complex, np.conj(table[index][row_slice]), out=pairs_complex)"),
    ("M52 linear-attention denominator rotated", AT,
     "        denominator = phi_q @ phi_k.sum(axis=0)", "        denominator = rotated_q @ rotated_k.sum(axis=0)"),
    ("M53 yarn_ramp high == low divides by zero", F, "    if high == low:\n", "    if False:\n"),
    ("M60 position_ids row-to-head again", C,
     "if positions.ndim == 2 and len(batch_shape) >= 3 and positions.shape[0] != 1:", "if False:"),
    ("M61 check_int accepts bool", C,
     '    if isinstance(value, bool) or not isinstance(value, numbers.Integral):\n        raise TypeError(f"{name} must be {expected}, got {value!r}")',
     '    if not isinstance(value, numbers.Integral):\n        raise TypeError(f"{name} must be {expected}, got {value!r}")'),
    ("M62 check_rope tolerance 10x looser", T, "_TOLERANCE = 1e-3", "_TOLERANCE = 1e-1"),
    ("M63 check_rope ignores the shifted probe", T, '    if not close("shifted", pairs):',
     "    if False:"),
    ("M64 cache key order-dependent", X, "tuple(sorted((str(k), _canonical(v)) for k, v in value.items()))",
     "tuple((str(k), _canonical(v)) for k, v in value.items())"),
    ("M65 base bound names the wrong argument", B,
     "lower, upper = check_base(lower, names[0]), check_base(upper, names[1])",
     "lower, upper = check_base(lower), check_base(upper)"),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated ids, e.g. M06,M49")
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else None
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
               "-m", "not book and not browser and not lab and not chapters",
               *[t for t in TESTS if (ROOT / t).exists()]]
    killed = survived = skipped = 0
    for name, relative, old, new in MUTANTS:
        if wanted and name.split()[0] not in wanted:
            continue
        path = ROOT / relative
        text = path.read_text()
        if text.count(old) != 1:
            print(f"SKIP     {name}: its code is found {text.count(old)} times in {relative}")
            skipped += 1
            continue
        path.write_text(text.replace(old, new))
        try:
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        finally:
            path.write_text(text)
        failed = [line[7:110] for line in done.stdout.splitlines() if line.startswith("FAILED")]
        if done.returncode:
            killed += 1
            print(f"killed   {name}: {failed[0] if failed else done.stdout.strip().splitlines()[-1][:100]}", flush=True)
        else:
            survived += 1
            print(f"SURVIVED {name}", flush=True)
    total = killed + survived
    print(f"killed {killed} of {total} ({100 * killed / max(total, 1):.0f} %), {skipped} skipped")
    return 1 if survived or skipped else 0


if __name__ == "__main__":
    sys.exit(main())
