"""LayoutExplorer's sentence: the previous-token head's attention over words, as trained and
loaded with the wrong layout, and the widget's defaults (d = 16, the last word asks).

The weights are recomputed here from rope_core's apply_rope and an explicit causal softmax of
the cosine scores of ``layout_scores``, not through ``layout_sentence_attention`` itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import rope_core as rc
from rope_core import widgets as W
from rope_core.demos.spectrum import layout_scores, layout_sentence_attention

ROOT = Path(__file__).resolve().parents[1]
SENTENCE = "the old cat sat on the warm mat".split()


def causal_softmax_of_scores(dim, base, count, sharpness, layout):
    """Row m: softmax over n <= m of sharpness * cos-score(n - m), from layout_scores."""
    curve = layout_scores(dim, base, range(-(count - 1), count))
    score = dict(zip(curve["distances"].tolist(), curve["trained" if layout == "interleaved" else "wrong"]))
    weights = np.zeros((count, count))
    for m in range(count):
        logits = np.array([sharpness * score[n - m] for n in range(m + 1)])
        weights[m, : m + 1] = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    return weights


@pytest.mark.parametrize("dim", [4, 8, 16, 32])
@pytest.mark.parametrize("sharpness", [1.0, 8.0])
def test_sentence_attention_is_the_causal_softmax_of_the_heads_scores(dim, sharpness):
    got = layout_sentence_attention(dim, 10000.0, SENTENCE, sharpness)
    assert got["words"] == SENTENCE
    for key, layout in (("trained", "interleaved"), ("wrong", "half")):
        np.testing.assert_allclose(got[key], causal_softmax_of_scores(dim, 10000.0, len(SENTENCE), sharpness, layout), atol=1e-12)
        np.testing.assert_allclose(got[key].sum(axis=1), 1.0, atol=1e-12)
        assert np.all(np.triu(got[key], k=1) == 0)          # no word sees a later one


def test_at_d_16_each_word_looks_one_back_as_trained_and_at_itself_when_loaded_wrongly():
    got = layout_sentence_attention(16, 10000.0, SENTENCE)
    last = len(SENTENCE) - 1
    assert got["trained"][1:].argmax(axis=1).tolist() == list(range(last))
    assert got["wrong"].argmax(axis=1).tolist() == list(range(last + 1))
    assert got["trained"][last, last - 1] > 0.8 > 0.5 > got["wrong"][last].max()


def test_the_wrong_layout_is_half_layout_rope_of_the_same_vectors():
    # The same q, k rotated by apply_rope in the half layout, dotted and soft-maxed by hand.
    dim, count = 16, len(SENTENCE)
    k = np.random.default_rng(1).standard_normal(dim) * np.repeat(0.5 ** np.arange(dim // 2), 2)
    q = rc.apply_rope(k[None], [-1])[0]
    positions = np.arange(count)
    qs = rc.apply_rope(np.tile(q, (count, 1)), positions, layout="half")
    ks = rc.apply_rope(np.tile(k, (count, 1)), positions, layout="half")
    logits = 8.0 * (qs @ ks.T) / (np.linalg.norm(q) * np.linalg.norm(k))
    logits[np.triu_indices(count, 1)] = -np.inf
    want = np.exp(logits - logits.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(layout_sentence_attention(dim, 10000.0, SENTENCE)["wrong"], want, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: layout_sentence_attention(8, 10000.0, "the cat"), "words"),
        (lambda: layout_sentence_attention(8, 10000.0, ["cat"]), "words"),
        (lambda: layout_sentence_attention(8, 10000.0, ["the", ""]), "words"),
        (lambda: layout_sentence_attention(8, 10000.0, ["the", 3]), "words"),
        (lambda: layout_sentence_attention(8, 10000.0, SENTENCE, sharpness=0.0), "sharpness"),
        (lambda: layout_sentence_attention(7, 10000.0, SENTENCE), "dim"),
        (lambda: W.LayoutExplorer(sentence="cat"), "sentence"),
        (lambda: W.LayoutExplorer(sentence=" ".join(["a"] * 11)), "sentence"),
        (lambda: W.LayoutExplorer(sentence="the extraordinarily long"), "sentence"),
        (lambda: W.LayoutExplorer(sentence=["the", "cat"]), "sentence"),
        (lambda: W.LayoutExplorer(query=8), "query"),
    ],
)
def test_bad_input_names_its_argument(call, name):
    with pytest.raises((TypeError, ValueError), match=name):
        call()


def test_the_widget_opens_at_d_16_asking_from_the_last_word_with_rope_cores_weights():
    widget = W.LayoutExplorer()
    data = widget.data
    assert data["dims"][widget.dim_index] == 16 and widget.query == len(SENTENCE) - 1
    assert data["words"] == SENTENCE
    for dim, tab in zip(data["dims"], data["tables"]):
        want = layout_sentence_attention(dim, data["base"], SENTENCE)
        for key in ("trained", "wrong"):
            np.testing.assert_allclose(tab["attention"][key], want[key], atol=5e-4)
    # A widget of one dimension opens at it; a short sentence asks from its last word.
    small = W.LayoutExplorer(dims=(8,), sentence="a cat sat")
    assert small.dim_index == 0 and small.query == 2 and small.data["words"] == ["a", "cat", "sat"]


def test_the_sentence_costs_under_2_kb_of_state():
    without = len(json.dumps([{k: v for k, v in t.items() if k != "attention"} for t in W.LayoutExplorer().data["tables"]]))
    with_sentence = len(json.dumps(W.LayoutExplorer().data["tables"]))
    assert with_sentence - without < 2000, with_sentence - without


def test_chapter_7_says_what_the_widget_opens_on():
    # The sentences before the widget cell name its opening d, its sentence and where the last
    # word looks as trained: all read from the widget and rope_core, not repeated by hand.
    text = (ROOT / "book" / "07-computing-fast.md").read_text()
    prose = text[: text.index("LayoutExplorer()")]
    prose = prose[prose.rindex("The widget opens at"):]
    widget = W.LayoutExplorer()
    words = widget.data["words"]
    dim = widget.data["dims"][widget.dim_index]
    assert f"The widget opens at $d = {dim}$" in prose and f"$x = (1, 2, \\dots, {dim})$" in prose
    assert f'"{" ".join(words)}"' in " ".join(prose.split())
    trained = layout_sentence_attention(16, widget.data["base"], words)["trained"][-1]
    looked_at = re.search(r'so "(\w+)" looks at "(\w+)"', prose)
    assert looked_at and looked_at.groups() == (words[-1], words[int(trained.argmax())])
    assert f'where "{words[-1]}" will look' in " ".join(prose.split())
