"""The explorer of the trained tiny model (chapter "Train a tiny model and watch RoPE work")."""

from __future__ import annotations

import traitlets

from ..tinymodel import analysis, experiments
from ..tinymodel.train import load_checkpoint
from ._base import _HERE, RopeWidget, check_index, module

# Its own rules and those of the lesson line and the question (lesson.js).
_CSS = (_HERE / "trained_model.css").read_text() + (_HERE / "lesson.css").read_text()


class TrainedModelExplorer(RopeWidget):
    r"""Look inside the committed RoPE model: each head's attention by distance under an
    extension scheme at 1x, 2x or 4x its training length, and its accuracy with groups of pairs
    switched off.

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
    rows per scheme and length), the accuracies with pairs switched off are
    the table ``make experiments`` computed for every subset of pairs, layer by layer
    (:func:`rope_core.tinymodel.analysis.ablation_table`).
    """

    _esm = module("trained_model")
    _css = _CSS
    # off0 and off1 are bit masks of the pairs switched off in layer 0 and 1 (8 pairs: 256 masks).
    _sliders = {"scheme": lambda w: len(analysis.SCHEMES), "length": lambda w: 3,
                "off0": lambda w: 256, "off1": lambda w: 256}
    scheme = traitlets.Int(0).tag(sync=True)
    length = traitlets.Int(0).tag(sync=True)  # the training length: the lesson's frame
    off0 = traitlets.Int(0).tag(sync=True)
    off1 = traitlets.Int(0).tag(sync=True)

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
        return analysis.explorer_tables(params, config, run, self._period)
