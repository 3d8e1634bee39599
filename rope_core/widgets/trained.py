"""The explorer of the trained tiny model (chapter "Train a tiny model and watch RoPE work")."""

from __future__ import annotations

import numpy as np
import traitlets

from ..tinymodel import analysis, experiments
from ..tinymodel.train import attention, load_checkpoint
from ._base import _HERE, RopeWidget, check_index, module

# Its own rules and those of the lesson line and the question (lesson.js).
_CSS = (_HERE / "trained_model.css").read_text() + (_HERE / "lesson.css").read_text()

#: The arcs of a query: from each of the row's last ARC_QUERIES tokens, at most ARC_KEYS keys
#: per head, each with at least ARC_MIN_WEIGHT of the query's attention. Half a period of
#: queries, three keys and weights in whole percent add about 22 kB to the widget's state.
ARC_QUERIES, ARC_KEYS, ARC_MIN_WEIGHT = 12, 3, 0.1


def query_arcs(params, config, period, lengths, training_length=64, queries=ARC_QUERIES,
               keys=ARC_KEYS, min_weight=ARC_MIN_WEIGHT):
    r"""Where each head's attention goes from each of the last ``queries`` tokens of one row.

    For the row :math:`x_0 \dots x_{T-1}` of period :math:`p` (the first row of
    :func:`rope_core.tinymodel.analysis.probe_tokens`) and a query :math:`t \ge T - Q`, the arcs
    of head :math:`h` in layer :math:`\ell` are the keys :math:`s` with the ``keys`` largest
    weights :math:`a^{\ell h}_{t,s}`, largest first, kept while
    :math:`a^{\ell h}_{t,s} \ge` ``min_weight``. A query at :math:`t \ge p` has earlier copies of
    its own token at :math:`t - p, t - 2p, \dots`; an induction head looks at the tokens after
    them, :math:`s = t - p + 1, t - 2p + 1, \dots`, and a previous-token head at :math:`s = t - 1`.

    Parameters
    ----------
    params, config
        A checkpoint, as :func:`rope_core.tinymodel.train.load_checkpoint` returns it.
    period : int
        :math:`p`, the period of the row: at least 2 and less than every length.
    lengths : sequence of int
        Row lengths :math:`T`; a length past ``training_length`` is extended by each scheme
        at factor :math:`T / L_0` (:func:`rope_core.tinymodel.analysis.scheme_scaling`).
    training_length : int
        :math:`L_0`, the length the model was trained at.
    queries : int
        :math:`Q`, how many of the last tokens are queries; at most every length.
    keys : int
        Most arcs per head and query.
    min_weight : float
        Smallest weight drawn as an arc, in (0, 1].

    Returns
    -------
    dict
        ``tokens[length]``: the row, ``T`` token ids; ``arc_queries``: :math:`Q`;
        ``arcs[scheme][length]``: nested lists of shape (n_layers, n_heads, Q), the last
        query last, each a flat list ``[s_1, w_1, s_2, w_2, ...]`` of at most ``keys`` key
        positions :math:`s_j` and their weights :math:`w_j` in whole percent.
    """
    lengths = [check_index(n, 1 << 16, "lengths") for n in lengths]
    if not lengths:
        raise ValueError("lengths must name at least one row length")
    if isinstance(period, bool) or not isinstance(period, (int, np.integer)) or not 2 <= period < min(lengths):
        raise ValueError(f"period must be an integer in [2, {min(lengths) - 1}], got {period!r}")
    if isinstance(queries, bool) or not isinstance(queries, (int, np.integer)) or not 1 <= queries <= min(lengths):
        raise ValueError(f"queries must be an integer in [1, {min(lengths)}], got {queries!r}")
    if isinstance(keys, bool) or not isinstance(keys, (int, np.integer)) or keys < 1:
        raise ValueError(f"keys must be a positive integer, got {keys!r}")
    if not 0 < min_weight <= 1:
        raise ValueError(f"min_weight must be in (0, 1], got {min_weight!r}")
    tokens, arcs = {}, {}
    for length in lengths:
        row = analysis.probe_tokens(length, period, rows=1, vocab=config.vocab)
        tokens[str(length)] = [int(x) for x in row[0]]
        for scheme in analysis.SCHEMES:
            scaling = analysis.scheme_scaling(scheme, length / training_length, training_length)
            # (n_layers, n_heads, Q, T): the last Q queries of the one row.
            weights = attention(params, config, row, scaling)[:, 0, :, -queries:, :]
            best = np.argsort(-weights, axis=-1, kind="stable")[..., :keys]
            arcs.setdefault(scheme, {})[str(length)] = [
                [[[value for s in order if query[s] >= min_weight
                   for value in (int(s), int(round(100 * query[s])))]
                  for query, order in zip(head, head_best)]
                 for head, head_best in zip(layer, layer_best)]
                for layer, layer_best in zip(weights, best)]
    return {"tokens": tokens, "arc_queries": int(queries), "arcs": arcs}


class TrainedModelExplorer(RopeWidget):
    r"""Look inside the committed RoPE model: where each head looks from a chosen query of a
    repeating row, each head's attention by distance under an extension scheme at 1x, 2x or
    4x its training length, and its accuracy with pairs switched off.

    It opens at the training length, where layer 0's previous-token heads look at distance 1
    and layer 1's induction heads at the induction targets (distances :math:`p-1, 2p-1, \dots`),
    and asks which scheme takes the previous token away from the head built on pair 0 at 4x.

    Parameters
    ----------
    period : int
        Period of the row whose attention is shown (the induction target is
        :math:`p - 1` tokens back).

    Notes
    -----
    Every number comes from the committed checkpoint (``induction_rope_base10000_s0.npz``)
    and its run in ``results.json``: the attention by distance is evaluated when the widget is
    built (:func:`rope_core.tinymodel.analysis.attention_by_distance`, one forward pass of 8
    rows per scheme and length), the arcs from the last queries of one row by
    ``rope_core.widgets.trained.query_arcs``, and the accuracies with pairs switched off are
    the table ``make experiments`` computed for every subset of pairs, layer by layer
    (:func:`rope_core.tinymodel.analysis.ablation_table`).
    """

    _esm = module("trained_model")
    _css = _CSS
    # off0 and off1 are bit masks of the pairs switched off in layer 0 and 1 (8 pairs: 256 masks).
    _sliders = {"scheme": lambda w: len(analysis.SCHEMES), "length": lambda w: 3,
                "off0": lambda w: 256, "off1": lambda w: 256, "query": lambda w: ARC_QUERIES}
    scheme = traitlets.Int(0).tag(sync=True)
    length = traitlets.Int(0).tag(sync=True)  # the training length: the lesson's frame
    off0 = traitlets.Int(0).tag(sync=True)
    off1 = traitlets.Int(0).tag(sync=True)
    # query i is token T - ARC_QUERIES + i of a row of T; it opens on the row's last token.
    query = traitlets.Int(ARC_QUERIES - 1).tag(sync=True)

    def __init__(self, period=analysis.PROBE_PERIOD, **kwargs):
        self._period = check_index(period, 57, "period")
        if self._period < 2:
            raise ValueError(f"period must be an integer in [2, 56], got {period!r}")
        super().__init__(**kwargs)
        self.data = self._compute()

    def _compute(self):
        params, config, meta = load_checkpoint(
            experiments.RESULTS_DIR / "induction_rope_base10000_s0.npz")
        run = experiments.load_results()["runs"][meta["run"]]
        tables = analysis.explorer_tables(params, config, run, self._period)
        tables.update(query_arcs(params, config, self._period, tables["lengths"],
                                 tables["training_length"]))
        return tables
