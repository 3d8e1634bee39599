"""The trained-model explorer's arcs (where each head looks from a chosen query), in Python."""

from __future__ import annotations

import numpy as np
import pytest

from rope_core.tinymodel import analysis, experiments
from rope_core.tinymodel.train import attention, load_checkpoint
from rope_core.widgets import TrainedModelExplorer
from rope_core.widgets.trained import ARC_KEYS, ARC_MIN_WEIGHT, ARC_QUERIES, query_arcs


@pytest.fixture(scope="module")
def checkpoint():
    params, config, _ = load_checkpoint(experiments.RESULTS_DIR / "induction_rope_base10000_s0.npz")
    return params, config


@pytest.fixture(scope="module")
def explorer():
    return TrainedModelExplorer()


def _pairs(flat):
    return [(flat[j], flat[j + 1]) for j in range(0, len(flat), 2)]


@pytest.mark.parametrize("scheme", analysis.SCHEMES)
@pytest.mark.parametrize("length", [64, 256])
def test_arcs_are_each_queries_heaviest_keys(checkpoint, explorer, scheme, length):
    # Recomputed here from the model's attention weights, one query at a time.
    params, config = checkpoint
    row = analysis.probe_tokens(length, analysis.PROBE_PERIOD, rows=1, vocab=config.vocab)
    assert explorer.data["tokens"][str(length)] == row[0].tolist()
    scaling = analysis.scheme_scaling(scheme, length / 64, 64)
    weights = attention(params, config, row, scaling)[:, 0]
    arcs = explorer.data["arcs"][scheme][str(length)]
    for layer in range(config.n_layers):
        for head in range(config.n_heads):
            for i in range(ARC_QUERIES):
                query = weights[layer, head, length - ARC_QUERIES + i]
                heaviest = sorted(range(length), key=lambda s: -query[s])[:ARC_KEYS]
                wanted = [(s, round(100 * query[s])) for s in heaviest if query[s] >= ARC_MIN_WEIGHT]
                assert _pairs(arcs[layer][head][i]) == wanted, (layer, head, i)


def test_layer_1_looks_at_the_token_after_an_earlier_copy(explorer):
    # What the arcs show at the training length: a layer-1 head's heaviest key, from a query
    # drawn, is an induction target s = t - kp + 1 (the token after an earlier copy), for at
    # least 90 % of the (head, query) pairs (47 of 48 in the committed model).
    data, period = explorer.data, explorer.data["period"]
    tokens = data["tokens"]["64"]
    hits = []
    for head in range(data["n_heads"]):
        for i, flat in enumerate(data["arcs"]["none"]["64"][1][head]):
            t, s = 64 - ARC_QUERIES + i, flat[0]
            hits.append(s < t and (t - s + 1) % period == 0 and tokens[s - 1] == tokens[t])
    assert sum(hits) >= 0.9 * len(hits), hits


def test_the_fast_head_looks_mostly_at_the_previous_token(explorer):
    data = explorer.data
    arcs = data["arcs"]["none"]["64"][0][data["fast_head"]]
    on_previous = [flat[0] == 64 - ARC_QUERIES + i - 1 for i, flat in enumerate(arcs)]
    assert sum(on_previous) >= ARC_QUERIES // 2, on_previous


def test_arcs_keep_the_widget_small(explorer):
    assert explorer.data["arc_queries"] == ARC_QUERIES
    assert explorer.state_size() < 130_000, explorer.state_size()


def test_query_trait_opens_on_the_last_token_and_is_checked():
    widget = TrainedModelExplorer()
    assert widget.query == ARC_QUERIES - 1
    with pytest.raises(Exception, match="query"):
        TrainedModelExplorer(query=ARC_QUERIES)


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"period": 1}, "period"), ({"period": 64}, "period"), ({"period": True}, "period"),
    ({"queries": 0}, "queries"), ({"queries": 65}, "queries"), ({"queries": 2.0}, "queries"),
    ({"keys": 0}, "keys"), ({"min_weight": 0}, "min_weight"), ({"min_weight": 1.5}, "min_weight"),
    ({"lengths": []}, "lengths"), ({"lengths": [-1]}, "lengths"),
])
def test_query_arcs_names_its_bad_argument(checkpoint, kwargs, name):
    params, config = checkpoint
    arguments = {"period": 24, "lengths": [64]} | kwargs
    with pytest.raises(ValueError, match=name):
        query_arcs(params, config, **arguments)


def test_query_arcs_small_case_by_hand(checkpoint):
    params, config = checkpoint
    out = query_arcs(params, config, 3, [8], training_length=8, queries=2, keys=1, min_weight=0.01)
    row = analysis.probe_tokens(8, 3, rows=1, vocab=config.vocab)
    weights = attention(params, config, row, analysis.scheme_scaling("none", 1.0, 8))[:, 0]
    assert out["arc_queries"] == 2 and out["tokens"]["8"] == row[0].tolist()
    for layer in range(config.n_layers):
        for head in range(config.n_heads):
            for i, t in enumerate([6, 7]):
                best = int(np.argmax(weights[layer, head, t]))
                assert out["arcs"]["none"]["8"][layer][head][i] == [best, round(100 * weights[layer, head, t, best])]


def test_llama_3_pairs_are_llama_3_1_pairs_before_its_scaling():
    """Chapter 9 draws Llama 3 8B under Llama 3.1 8B as the same pairs before and after scaling."""
    import numpy as np

    from rope_core.widgets import ContextExtension

    menu = {entry["label"]: entry for entry in ContextExtension().data["models"]}
    assert np.allclose(menu["Llama 3 8B"]["log10_wavelength"], menu["Llama 3.1 8B"]["log10_wavelength_trained"])
    assert not np.allclose(menu["Llama 3.1 8B"]["log10_wavelength"], menu["Llama 3.1 8B"]["log10_wavelength_trained"])
