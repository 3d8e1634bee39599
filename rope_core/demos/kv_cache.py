r"""A KV cache through prefill, decode, eviction and re-rotation: the ``KVCacheTimeline`` widget.

A cache of capacity :math:`C` holds keys *after* RoPE, :math:`R_n\mathbf{k}` (what every engine
of chapter 13 stores). The prompt's :math:`P` keys are written at positions :math:`0 \dots P-1`
(prefill), then one key per decoded token until the cache is full. The cache then drops its
:math:`E` oldest tokens and renumbers the kept ones :math:`0 \dots C-E-1`, so that positions stay
inside the trained range (llama.cpp's context shift; StreamingLLM renumbers the same way). A
kept key still carries its old rotation :math:`R_n`; one more rotation by :math:`-E`
(:func:`rope_core.serving.rerotate_cached_keys`) makes it :math:`R_{n-E}\mathbf{k}`, the key a
fresh pass would give at its new position. Without it every score of the next query against a
kept key is computed at the wrong distance.

For each stage the table holds each cached key's rotation angle in pair 0 (the angle between
the cached key and the un-rotated one), the angle it should have at its current position, and
the next query's scores against the cache next to those against freshly rotated keys.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..apply import apply_rope
from ..serving import rerotate_cached_keys

__all__ = ["KV_CACHE_DEFAULTS", "kv_cache_stages"]

#: The widget's cache: an 8-dimensional head at base 10 000 (pair 0 turns 1 radian per
#: position, so neighbouring keys' dials differ at a glance), a 5-token prompt, capacity 8,
#: 3 tokens evicted when full, then 3 more decoded.
KV_CACHE_DEFAULTS = {"dim": 8, "base": 10000.0, "prompt_length": 5, "capacity": 8, "evict": 3,
                     "decode_after": 3, "seed": 0}


def _check_count(value, name, lowest):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lowest:
        raise ValueError(f"{name} must be an integer >= {lowest}, got {value!r}")
    return int(value)


def _pair0_angle(rotated, raw, dim):
    # Half layout: pair 0 is features (0, d/2). The angle from the un-rotated key to the cached
    # one, in [0, 2π).
    turned = np.arctan2(rotated[..., dim // 2], rotated[..., 0]) - np.arctan2(raw[..., dim // 2], raw[..., 0])
    return np.mod(turned, 2 * np.pi)


def kv_cache_stages(dim=KV_CACHE_DEFAULTS["dim"], base=KV_CACHE_DEFAULTS["base"],
                    prompt_length=KV_CACHE_DEFAULTS["prompt_length"], capacity=KV_CACHE_DEFAULTS["capacity"],
                    evict=KV_CACHE_DEFAULTS["evict"], decode_after=KV_CACHE_DEFAULTS["decode_after"],
                    *, rerotate=True, seed=KV_CACHE_DEFAULTS["seed"]):
    r"""The cache after each event: prefill, every decode step, eviction, re-rotation, decode.

    Parameters
    ----------
    dim : int
        Head dimension :math:`d` (even).
    base : float
        RoPE base.
    prompt_length : int
        :math:`P`, tokens written by the prefill (:math:`1 \le P < C`).
    capacity : int
        :math:`C`, keys the cache holds.
    evict : int
        :math:`E`, oldest tokens dropped when the cache is full (:math:`1 \le E < C`).
    decode_after : int
        Tokens decoded after the eviction (at most :math:`E`, so the cache never overflows).
    rerotate : bool
        Whether the kept keys get their rotation by :math:`-E` (``False``: the bug).
    seed : int
        Seed of the random queries and keys.

    Returns
    -------
    list of dict
        One per stage (:math:`1 + (C - P) + 2 + \text{decode\_after}` of them): ``event``
        (``"prefill"``, ``"decode"``, ``"evict"`` or ``"rerotate"``), ``label``, ``tokens``
        (shape (n,), the index in the stream of each cached token), ``positions`` (shape (n,),
        the position each cached key is rotated at), ``should`` (shape (n,), the position the
        token has now), ``angle`` and ``should_angle`` (shape (n,), pair 0's rotation of the
        cached key and of a fresh key at ``should``, radians in :math:`[0, 2\pi)`),
        ``query_position`` (where the next query sits: the next free position), ``scores`` and
        ``fresh_scores`` (shape (n,), the next query against the cached keys and against fresh
        keys, divided by :math:`\sqrt{d}`), and ``error`` (:math:`\max |\text{scores} -
        \text{fresh\_scores}|`, rounded to 12 decimals).

    Examples
    --------
    >>> stages = kv_cache_stages()
    >>> [s["event"] for s in stages][:2], round(stages[-1]["error"], 12)
    (['prefill', 'decode'], 0.0)
    >>> kv_cache_stages(rerotate=False)[-1]["error"] > 0.1
    True
    """
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or dim < 2 or dim % 2:
        raise ValueError(f"dim must be an even integer >= 2, got {dim!r}")
    if isinstance(base, bool) or not isinstance(base, numbers.Real) or not np.isfinite(base) or base <= 1:
        raise ValueError(f"base must be a finite number > 1, got {base!r}")
    capacity = _check_count(capacity, "capacity", 2)
    prompt_length = _check_count(prompt_length, "prompt_length", 1)
    if prompt_length >= capacity:
        raise ValueError(f"prompt_length must be below capacity ({capacity}), got {prompt_length}")
    evict = _check_count(evict, "evict", 1)
    if evict >= capacity:
        raise ValueError(f"evict must be below capacity ({capacity}), got {evict}")
    decode_after = _check_count(decode_after, "decode_after", 0)
    if decode_after > evict:
        raise ValueError(f"decode_after must be at most evict ({evict}), got {decode_after}")
    if not isinstance(rerotate, bool):
        raise ValueError(f"rerotate must be True or False, got {rerotate!r}")
    total = capacity + decode_after + 1  # every token the stream ever has, and the next query
    rng = np.random.default_rng(seed)
    queries, keys = rng.normal(size=(2, total, dim))

    def rope(vectors, positions):
        return apply_rope(vectors, np.asarray(positions), base=base, layout="half")

    # The cache: token indices, the position each key is rotated at, the position each token
    # has now, and the rotated keys themselves.
    tokens, positions, should = [], [], []
    cached = np.empty((0, dim))
    stages = []

    def snapshot(event, label):
        token_ids = np.asarray(tokens, dtype=int)
        query_position = len(tokens)  # the next token goes to the next free position
        next_token = (token_ids.max() + 1) if len(tokens) else 0
        query = rope(queries[next_token : next_token + 1], [query_position])[0]
        fresh = rope(keys[token_ids], should)
        scores = cached @ query / np.sqrt(dim)
        fresh_scores = fresh @ query / np.sqrt(dim)
        stages.append({
            "event": event, "label": label, "tokens": token_ids.tolist(),
            "positions": list(positions), "should": list(should),
            "angle": _pair0_angle(cached, keys[token_ids], dim).tolist(),
            "should_angle": _pair0_angle(fresh, keys[token_ids], dim).tolist(),
            "query_position": query_position, "scores": scores.tolist(),
            "fresh_scores": fresh_scores.tolist(),
            # Differences at round-off (1e-16) are no error: 0, as a reader would read them.
            "error": float(np.round(np.max(np.abs(scores - fresh_scores)), 12)) if len(tokens) else 0.0,
        })

    def write(token, position):
        nonlocal cached
        tokens.append(token)
        positions.append(position)
        should.append(position)
        cached = np.vstack([cached, rope(keys[token : token + 1], [position])])

    for token in range(prompt_length):
        write(token, token)
    snapshot("prefill", f"prefill: the prompt's {prompt_length} keys at positions 0–{prompt_length - 1}")
    for token in range(prompt_length, capacity):
        write(token, token)
        snapshot("decode", f"decode token {token} at position {token}")
    del tokens[:evict], positions[:evict], should[:evict]
    cached = cached[evict:]
    should[:] = list(range(len(should)))
    snapshot("evict", f"cache full: drop the {evict} oldest, renumber the rest 0–{len(should) - 1}")
    if rerotate:
        cached = rerotate_cached_keys(cached, -evict, base=base, layout="half")
        positions[:] = [p - evict for p in positions]
        snapshot("rerotate", f"rotate every kept key by −{evict}")
    else:
        snapshot("rerotate", "keep the kept keys as they are")
    for token in range(capacity, capacity + decode_after):
        write(token, len(tokens))
        snapshot("decode", f"decode token {token} at position {len(tokens) - 1}")
    return stages
