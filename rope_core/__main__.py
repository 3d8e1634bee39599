"""The ``rope-core`` command line (also ``python -m rope_core``).

``inspect config.json``
    A model's RoPE as :func:`rope_core.from_config` reads it: type, base, head and rotary
    dimension, layout, per layer type, NoPE layers, scaling bands, attention and softmax
    factors, and any guess it made (``--json`` for a machine-readable form).
``compare a.json b.json``
    The same for two configs, side by side, with what differs (e.g. a transformers 4
    config against its transformers 5 save).
``models``
    The models of :mod:`rope_core.atlas`.

Errors exit with status 2 and the library's own message.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from pathlib import Path

import numpy as np

from . import atlas
from .config import RopeConfigWarning, from_config, layer_plan
from .frequencies import inverse_frequencies

#: What each layout is called elsewhere: vLLM's is_neox_style, exllama's RopeStyle.
_LAYOUT_NAMES = {"half": "half (rotate_half, vLLM/exllama 'neox')",
                 "interleaved": "interleaved (pairs 2i, 2i+1; vLLM/exllama 'gptj')"}


class CommandError(Exception):
    """A problem with the command's input, reported as ``rope-core: error: ...``."""


def read_config(path):
    """A config.json file as a dict (the error names the file)."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not JSON: {error}") from None
    if not isinstance(config, dict):
        raise CommandError(f"{path} holds a JSON {type(config).__name__}, not a config object")
    return config


def _bands(spec):
    """Pairs grouped by how the scaling changed their frequency: kept as base^(-2i/d), divided
    by one common factor, divided by factors that change from pair to pair (a ramp, LongRoPE's
    per-pair factors), or never turning (p-RoPE).

    Each band: ``pairs`` [first, last], ``kind``, ``factor`` [smallest, largest] and
    ``wavelengths`` [first pair's, last pair's] in tokens.
    """
    theta = spec.inverse_frequencies
    plain = inverse_frequencies(spec.rotary_dim, spec.base)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(theta > 0, plain / theta, np.inf)
        wavelength = np.where(theta > 0, 2 * np.pi / theta, np.inf)
    same = lambda i, j: 0 <= j < theta.size and np.isclose(factor[i], factor[j], rtol=1e-9)  # noqa: E731
    labels = []
    for i in range(theta.size):
        if np.isinf(factor[i]):
            labels.append(("off", None))
        elif np.isclose(factor[i], 1.0, rtol=1e-9):
            labels.append(("kept", None))
        elif same(i, i - 1) or same(i, i + 1):
            labels.append(("divided", round(float(factor[i]), 9)))
        else:
            labels.append(("ramp", None))
    bands, start = [], 0
    for i in range(1, theta.size + 1):
        if i == theta.size or labels[i] != labels[start]:
            band_factor = factor[start:i][np.isfinite(factor[start:i])]
            bands.append({"pairs": [start, i - 1], "kind": labels[start][0],
                          "factor": ([float(band_factor.min()), float(band_factor.max())]
                                     if band_factor.size else None),
                          "wavelengths": [float(wavelength[start]), float(wavelength[i - 1])]})
            start = i
    return bands


def describe(config, *, layer_type=None, seq_len=None, strict=False):
    """The RoPE of ``config`` as a JSON-ready dict (what ``inspect --json`` prints); ``strict``
    refuses a model type rope_core would read generically."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RopeConfigWarning)  # kept in the spec's guesses
        plan = layer_plan(config)
        types = []
        for kind, uses in plan:
            if uses and kind not in types:
                types.append(kind)
        if layer_type is not None:
            types = [layer_type]
        specs = {kind: from_config(config, layer_type=kind, seq_len=seq_len, strict=strict)
                 for kind in (types or [None])}
    first = next(iter(specs.values()))
    out = {
        "model_type": first.model_type,
        # a hand-written family, or a type read as transformers' own code was surveyed to read it
        "known_model_type": not first.guesses,
        "guesses": list(first.guesses),
        "layers": len(plan) or None,
        "nope_layers": list(first.nope_layers),
        "rope": [],
    }
    for kind, spec in specs.items():
        out["rope"].append({
            "layer_type": kind,
            "layers": list(spec.layers),
            "rope_type": spec.rope_type,
            "base": spec.base,
            "head_dim": spec.head_dim,
            "rotary_dim": spec.rotary_dim,
            "rotary_offset": spec.rotary_offset,
            "rotated_pairs": spec.rotated_pairs,
            "layout": spec.layout,
            "output_in_half_order": spec.output_in_half_order,
            "partial_rotary_factor": spec.partial_rotary_factor,
            "attention_factor": spec.attention_factor,
            "softmax_scale_factor": spec.softmax_scale_factor,
            "original_max_position_embeddings": spec.original_max_position_embeddings,
            "max_position_embeddings": spec.max_position_embeddings,
            "seq_len": spec.seq_len,
            "rope_parameters": dict(spec.rope_parameters),
            "bands": _bands(spec),
            "inverse_frequencies": spec.inverse_frequencies.tolist(),
        })
    return out


def _count(value):
    return "-" if value is None else f"{value:,}".replace(",", " ")


def _layers(indices):
    """0-4, 6, 8-11: runs of consecutive layer indices."""
    runs, start = [], None
    for i, value in enumerate(indices):
        if start is None:
            start = value
        if i + 1 == len(indices) or indices[i + 1] != value + 1:
            runs.append(f"{start}" if start == value else f"{start}-{value}")
            start = None
    return ", ".join(runs) if runs else "none"


def _wavelength(value):
    return "inf" if math.isinf(value) else f"{value:,.0f}".replace(",", " ")


def format_text(info, name):
    """``inspect``'s table."""
    lines = [f"{name}: model_type {info['model_type']!r}"
             + ("" if info["known_model_type"] else " (not a type rope_core knows: read generically, see guess)")]
    if info["layers"]:
        lines.append(f"  layers          {info['layers']}; without RoPE: "
                     f"{_layers(info['nope_layers'])}")
    for rope in info["rope"]:
        head = "all RoPE layers" if rope["layer_type"] is None else f"layer type {rope['layer_type']!r}"
        lines.append(f"  {head}: layers {_layers(rope['layers'])}" if rope["layers"] else f"  {head}")
        rows = [
            ("rope_type", rope["rope_type"]),
            ("base (rope_theta)", f"{rope['base']:g}"),
            ("head_dim", rope["head_dim"]),
            ("rotary_dim", f"{rope['rotary_dim']} (features {rope['rotary_offset']}.."
                           f"{rope['rotary_offset'] + rope['rotary_dim'] - 1}, "
                           f"{rope['rotated_pairs']} pairs turn)"),
            ("layout", _LAYOUT_NAMES[rope["layout"]]
             + (", written back in half order" if rope["output_in_half_order"] else "")),
            ("attention factor", f"{rope['attention_factor']:.6g} (on cos and sin)"),
            ("softmax factor", f"{rope['softmax_scale_factor']:.6g} (on 1/sqrt(d))"),
            ("trained to", _count(rope["original_max_position_embeddings"])),
            ("max positions", _count(rope["max_position_embeddings"])),
        ]
        if rope["seq_len"] is not None:
            rows.append(("frequencies for", f"{rope['seq_len']:g} tokens"))
        lines += [f"    {key:18s}{value}" for key, value in rows]
        for band in rope["bands"]:
            first, last = band["pairs"]
            short, long = (_wavelength(w) for w in band["wavelengths"])
            waves = f"wavelength {short}" if first == last else f"wavelengths {short}..{long}"
            low, high = band["factor"] or (None, None)
            what = {"kept": "as base^(-2i/d)", "off": "never turn",
                    "divided": f"divided by {low:.4g}" if low else "",
                    "ramp": f"divided by {low:.4g}..{high:.4g}" if low else ""}[band["kind"]]
            pairs = f"pair {first}" if first == last else f"pairs {first}..{last}"
            lines.append(f"    {pairs:18s}{what} ({waves} tokens)")
    for guess in info["guesses"]:
        lines.append(f"  guess: {guess}")
    return "\n".join(lines)


def _compare(a, b):
    """The fields in which two described configs differ, as text lines."""
    lines = []
    show = lambda key, value: _layers(value) if isinstance(value, list) else value  # noqa: E731
    for key in ("model_type", "layers", "nope_layers"):
        if a[key] != b[key]:
            lines.append(f"  {key}: {show(key, a[key])} | {show(key, b[key])}")
    ropes_a = {rope["layer_type"]: rope for rope in a["rope"]}
    ropes_b = {rope["layer_type"]: rope for rope in b["rope"]}
    if set(ropes_a) != set(ropes_b):
        lines.append(f"  layer types with RoPE: {sorted(map(str, ropes_a))} | {sorted(map(str, ropes_b))}")
    pairs = [(kind, ropes_a[kind], ropes_b[kind]) for kind in ropes_a if kind in ropes_b]
    if not pairs and len(ropes_a) == len(ropes_b) == 1:   # one RoPE each, named differently
        pairs = [(None, a["rope"][0], b["rope"][0])]
    for kind, left, right in pairs:
        where = "" if kind is None else f"[{kind}] "
        for key in ("layers", "rope_type", "base", "head_dim", "rotary_dim", "rotary_offset", "layout",
                    "attention_factor", "softmax_scale_factor", "original_max_position_embeddings",
                    "max_position_embeddings"):
            if left[key] != right[key]:
                lines.append(f"  {where}{key}: {show(key, left[key])} | {show(key, right[key])}")
        theta_a, theta_b = np.array(left["inverse_frequencies"]), np.array(right["inverse_frequencies"])
        if theta_a.shape == theta_b.shape and not np.array_equal(theta_a, theta_b):
            with np.errstate(divide="ignore", invalid="ignore"):
                diff = np.nanmax(np.abs(theta_a - theta_b) / np.where(theta_a > 0, theta_a, 1))
            lines.append(f"  {where}inverse_frequencies: differ by up to {diff:.3g} (relative)")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="rope-core", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    inspect = commands.add_parser("inspect", help="print the RoPE of a config.json")
    inspect.add_argument("config", help="a model's config.json")
    inspect.add_argument("--layer-type", help="only this layer type (e.g. full_attention)")
    inspect.add_argument("--seq-len", type=float, help="sequence length for dynamic NTK and LongRoPE")
    inspect.add_argument("--json", action="store_true", help="print JSON instead of a table")
    inspect.add_argument("--strict", action="store_true",
                         help="refuse a model type rope_core would only read generically")
    compare = commands.add_parser("compare", help="compare the RoPE of two config.json files")
    compare.add_argument("a")
    compare.add_argument("b")
    compare.add_argument("--seq-len", type=float)
    compare.add_argument("--strict", action="store_true",
                         help="refuse a model type rope_core would only read generically")
    commands.add_parser("models", help="list the models of the atlas")
    args = parser.parse_args(argv)
    try:
        if args.command == "inspect":
            info = describe(read_config(args.config), layer_type=args.layer_type, seq_len=args.seq_len,
                            strict=args.strict)
            print(json.dumps(info, indent=1) if args.json else format_text(info, args.config))
        elif args.command == "compare":
            a = describe(read_config(args.a), seq_len=args.seq_len, strict=args.strict)
            b = describe(read_config(args.b), seq_len=args.seq_len, strict=args.strict)
            differences = _compare(a, b)
            print(f"{args.a} | {args.b}")
            print("\n".join(differences) if differences else "  the same RoPE")
            if a["guesses"] == b["guesses"]:
                for guess in a["guesses"]:
                    print(f"  guess (both): {guess}")
            else:
                for name, info in ((args.a, a), (args.b, b)):
                    for guess in info["guesses"]:
                        print(f"  guess ({name}): {guess}")
        else:
            for row in atlas.table_rows():
                print(f"{row['model']:28s} {row['layers']:28s} {row['rope_type']:12s} base {row['base']:>12s}"
                      f"  rotated {row['rotary']:>9s}  {row['layout']:11s} max positions {row['context']}")
    except (CommandError, TypeError, ValueError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"rope-core: error: {message}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
