"""The controls of the tiny-model chapter: the YaRN ramps, the BOS task and the committed file.

The ramps are checked against their formulas written out here (not against the module's own
helpers), and against transformers' index ramp where the two must agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rope_core import attention_factor, inverse_frequencies
from rope_core.tinymodel import analysis, controls, experiments, summary
from rope_core.tinymodel.model import ModelConfig, init_params
from rope_core.tinymodel.tasks import induction_eval_set
from rope_core.tinymodel.train import TrainConfig


@pytest.fixture(scope="module")
def committed():
    return controls.load_controls()


@pytest.mark.parametrize("base", [10000.0, 270.0, 500000.0])
@pytest.mark.parametrize("alpha, beta", [(1.0, 32.0), (1.0, 3.46), (0.5, 8.0)])
def test_turn_ramp_is_the_papers_formula(base, alpha, beta):
    theta = base ** (-np.arange(0, 64, 2) / 64)
    turns = 4096 * theta / (2 * math.pi)
    expected = []
    for t, r in zip(theta, turns):
        if r < alpha:
            gamma = 0.0
        elif r > beta:
            gamma = 1.0
        else:
            gamma = (r - alpha) / (beta - alpha)
        expected.append((1 - gamma) * t / 8 + gamma * t)
    got = controls.yarn_turn_ramp(theta, 4096, 8.0, alpha, beta)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # Pairs past beta keep their frequency, pairs under alpha are divided by the factor.
    np.testing.assert_array_equal(got[turns > beta], theta[turns > beta])
    np.testing.assert_allclose(got[turns < alpha], theta[turns < alpha] / 8, rtol=1e-12)


def test_the_two_ramps_part_on_the_chapters_head_and_agree_at_both_ends_on_llama2():
    # This chapter's head: transformers keeps pair 0 (clamped index), the paper slows it 2.1x.
    theta = inverse_frequencies(16, 10000.0)
    index = inverse_frequencies(16, 10000.0, rope_scaling=analysis.scheme_scaling("YaRN", 4))
    paper = controls.yarn_turn_ramp(theta, 64, 4.0)
    assert index[0] == theta[0]
    assert theta[0] / paper[0] == pytest.approx(2.12, abs=0.01)
    # Llama 2 (d = 128, L = 4096): both keep the pairs with over 32 turns and interpolate
    # those under 1 turn fully; they differ only inside the ramp.
    theta = inverse_frequencies(128, 10000.0)
    turns = 4096 * theta / (2 * math.pi)
    index = inverse_frequencies(128, 10000.0, rope_scaling={
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096})
    paper = controls.yarn_turn_ramp(theta, 4096, 4.0)
    for ramp in (index, paper):
        np.testing.assert_array_equal(ramp[turns > 32 * 1.5], theta[turns > 32 * 1.5])
        np.testing.assert_allclose(ramp[turns < 1 / 1.5], theta[turns < 1 / 1.5] / 4)


def test_rescaled_beta_keeps_the_log_ratio_and_refuses_bad_turns():
    for fastest in (10.19, 100.0, 651.9):
        beta = controls.rescaled_beta(fastest)
        assert math.log(beta) / math.log(fastest) == pytest.approx(
            math.log(32) / math.log(4096 / (2 * math.pi)))
    with pytest.raises(ValueError, match="fastest_turns"):
        controls.rescaled_beta(0.5)
    with pytest.raises(ValueError, match="alpha and beta"):
        controls.yarn_turn_ramp([1.0], 64, 4.0, alpha=2.0, beta=1.0)
    with pytest.raises(ValueError, match="factor"):
        controls.yarn_turn_ramp([1.0], 64, 0.5)
    with pytest.raises(ValueError, match="training_length"):
        controls.turns([1.0], 0)


@pytest.mark.parametrize("base", experiments.BASES)
def test_variant_blocks_give_the_frequencies_and_temperature_they_name(base):
    theta = inverse_frequencies(16, base)
    blocks = controls.yarn_variant_scalings(16, base, 4.0)
    assert blocks["index ramp"] == analysis.scheme_scaling("YaRN", 4)
    temperature = 0.1 * math.log(4) + 1
    for name, block in blocks.items():
        for seq_len in (64, 256):  # the per-pair blocks use one set of factors at every length
            frequencies = inverse_frequencies(16, base, rope_scaling=block, seq_len=seq_len)
            if name.startswith("index"):
                np.testing.assert_allclose(frequencies, inverse_frequencies(
                    16, base, rope_scaling=analysis.scheme_scaling("YaRN", 4)))
            elif name == "paper's turn ramp":
                np.testing.assert_allclose(frequencies, controls.yarn_turn_ramp(theta, 64, 4.0))
            else:
                np.testing.assert_allclose(frequencies, controls.yarn_turn_ramp(
                    theta, 64, 4.0, 1.0, controls.rescaled_beta(64 / (2 * math.pi))))
        expected = 1.0 if name.endswith("no temperature") else temperature
        assert attention_factor(16, base, rope_scaling=block) == pytest.approx(expected)


def test_bos_rows_shift_the_task_by_one_and_never_score_the_first_token():
    rng = np.random.default_rng(0)
    train = TrainConfig(batch=4, seq_len=20, periods=(3, 5))
    task = controls.BosInductionTask(50)
    tokens, targets, mask = task.batch(rng, train)
    assert tokens.shape == targets.shape == mask.shape == (4, 20)
    assert np.all(tokens[:, 0] == 50) and np.all(tokens[:, 1:] < 50)
    # The target at t is the token at t + 1, and the BOS position is never scored.
    np.testing.assert_array_equal(targets[:, :-1], tokens[:, 1:])
    assert np.all(mask[:, :2] == 0)
    scored = mask.astype(bool)
    for row in range(4):
        period = np.flatnonzero(mask[row])[0] - 1  # first scored: task position p
        t = np.flatnonzero(scored[row])
        np.testing.assert_array_equal(targets[row, t], tokens[row, t + 1 - period])
    # The evaluation reads the chapter's fixed rows, one shorter, after the BOS.
    config = ModelConfig(vocab=51, encoding="nope", d_model=16, n_heads=2)
    accuracy = controls.bos_accuracy(init_params(config, 0), config, 12, 3, vocab=50, rows=2)
    assert 0.0 <= accuracy <= 1.0
    rows = induction_eval_set(11, 3, 2, 50)[0]
    shifted = controls.with_bos(*induction_eval_set(11, 3, 2, 50), 50)[0]
    np.testing.assert_array_equal(shifted[:, 1:], rows)


def test_committed_controls_hold_what_the_chapter_reads(committed):
    meta = committed["meta"]
    for key in ("numpy", "blas", "cpu", "started"):
        assert meta[key], key
    assert meta["complete"] is True and meta["wall_seconds"] > 0 and meta["workers"] >= 1
    assert set(meta["parts"]) == set(controls.PARTS)
    for part, timing in meta["parts"].items():
        assert timing["cpu_seconds"] > 0, part
    # Every job the default plan makes is in the file, under its part and key.
    for part, key, _, _ in controls.jobs():
        assert (committed[part] if key is None else committed[part][key]), (part, key)
    # Every encoding was trained with a BOS token; NoPE and RoPE at three learning rates.
    assert {k.split("/")[0] for k in committed["beginning_token"]} == set(experiments.ENCODINGS)
    assert {k.split("/")[0] for k in committed["learning_rates"]} == {"nope", "rope"}
    assert len(committed["partial_rope"]) == len(experiments.SEEDS)
    yarn = committed["yarn_and_heads"]
    assert {"base10000/s0", "base270/s0"} <= set(yarn)
    for run in yarn.values():
        assert set(run["accuracy_256"]) == {"none", *controls.YARN_VARIANTS}
        for table in run["accuracy_256"].values():
            assert set(map(int, table)) == set(experiments.EVAL_PERIODS[256])
    assert committed["bit_for_bit"]["identical"] is True


def test_committed_yarn_variants_reproduce_from_the_checkpoint(committed):
    # Seed 0 reads the committed checkpoint, so its numbers are an evaluation, not training.
    from rope_core.tinymodel.train import induction_accuracy, load_checkpoint

    params, config, _ = load_checkpoint(experiments.RESULTS_DIR / "induction_rope_base270_s0.npz")
    blocks = controls.yarn_variant_scalings(config.d_head, config.base, 4.0)
    table = committed["yarn_and_heads"]["base270/s0"]["accuracy_256"]
    for name in ("paper's turn ramp", "turn ramp, rescaled"):
        for period in (16, 96):
            live = induction_accuracy(params, config, 256, period, blocks[name])
            assert live == pytest.approx(table[name][str(period)], abs=0.02), (name, period)


def test_chance_floor_is_one_over_the_period():
    assert summary.chance_by_period([4, 8]) == {4: 0.25, 8: 0.125}
    with pytest.raises(ValueError, match="periods"):
        summary.chance_by_period([0])


def test_jobs_cover_every_encoding_with_bos_and_name_bad_parts():
    listed = controls.jobs(("beginning_token",), {"beginning_token": (0, 1)})
    keys = [key for _, key, _, _ in listed]
    assert {k.split("/")[0] for k in keys} == set(experiments.ENCODINGS)
    # NoPE, whose reading the part tests, on both seeds; the others on seed 0.
    assert {"nope/s0", "nope/s1"} <= set(keys) and "rope/s1" not in keys
    assert all(kwargs["bos"] for _, _, _, kwargs in listed)
    with pytest.raises(ValueError, match="parts"):
        controls.jobs(("no such part",))


def test_assembled_document_does_not_depend_on_the_finishing_order():
    listed = controls.jobs(("bit_for_bit", "partial_rope"), {"partial_rope": (0, 1)})
    results = {i: {"value": i, "cpu_seconds": 1.0} for i in range(len(listed))}
    forward_order = controls._assemble(listed, dict(sorted(results.items())))
    backward_order = controls._assemble(listed, dict(sorted(results.items(), reverse=True)))
    assert forward_order == backward_order
    assert forward_order["bit_for_bit"] == results[0]
    assert set(forward_order["partial_rope"]) == {"p0.5/s0", "p0.5/s1"}


def test_partial_rope_freezes_the_slow_pairs_only():
    theta = inverse_frequencies(16, 10000.0)
    partial = inverse_frequencies(16, 10000.0, rope_scaling=controls.partial_rope_scaling(0.5))
    np.testing.assert_allclose(partial[:4], theta[:4])
    assert np.all(partial[4:] == 0)
    with pytest.raises(ValueError, match="factor"):
        controls.partial_rope_scaling(0.0)


def test_pretrain_record_scores_each_length_and_reports_divergence(monkeypatch):
    full = experiments.settings

    def short():
        s = full()
        s["induction"]["train"].update(steps=4, eval_every=2)
        s["induction"]["model"].update(d_model=16, n_heads=2)
        return s

    monkeypatch.setattr(experiments, "settings", short)
    record = controls.pretrain_record("rope", 0, rope_scaling=controls.partial_rope_scaling(),
                                      lengths=(64, 128))
    assert record["history"]["steps"] == [1, 3, 4]
    for length in (64, 128):
        assert set(map(int, record[f"at{length}"])) == set(experiments.EVAL_PERIODS[length])
    bos = controls.pretrain_record("alibi", 0, bos=True)
    assert set(bos) == {"history", "at64", "cpu_seconds"}
    diverged = controls.pretrain_record("rope", 0, lr=1e30)
    assert "diverged" in diverged and "at64" not in diverged


def test_partial_rope_figure_draws_the_committed_means(committed):
    import matplotlib

    matplotlib.use("Agg")
    from rope_core.tinymodel import figures

    results = experiments.load_results()
    fig = figures.partial_rope(results, committed)
    assert len(fig.axes) == 3
    for ax, length in zip(fig.axes, experiments.EVAL_LENGTHS):
        full, partial = ax.lines[0], ax.lines[1]  # the dotted line at 64 is drawn after them
        for line, table in (
                (full, summary.accuracy_by_period(results, "rope", "none", length)),
                (partial, summary.control_by_period(committed, "partial_rope", "p0.5/", length))):
            periods = sorted(next(iter(table.values())))
            assert list(line.get_xdata()) == periods
            expected = [np.mean([t[p] for t in table.values()]) for p in periods]
            assert list(line.get_ydata()) == pytest.approx(expected), (length, line.get_label())
