"""The tiny training library: gradients, RoPE's backward pass, a short training run, and the
committed results and checkpoint the chapter reads.

Training outcomes differ in their last bits across CPUs and BLAS builds, so the training test
asserts qualitative outcomes with margins; exact numbers are only compared through a
deterministic evaluation of the committed weights, with a tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from rope_core import apply_rope
from rope_core.tinymodel import analysis, experiments
from rope_core.tinymodel.model import (
    ModelConfig,
    _Rotation,
    cross_entropy,
    forward,
    init_params,
    loss_and_grads,
)
from rope_core.tinymodel.tasks import CharCorpus, induction_batch
from rope_core.tinymodel.train import (
    InductionTask,
    TrainConfig,
    induction_accuracy,
    load_checkpoint,
    train,
)

GRADIENT_CASES = {
    "rope": {"encoding": "rope"},
    "nope": {"encoding": "nope"},
    "learned": {"encoding": "learned"},
    "sinusoidal": {"encoding": "sinusoidal"},
    "alibi": {"encoding": "alibi"},
    "rope-half-rotary-4": {"encoding": "rope", "layout": "half", "rotary_dim": 4, "base": 50.0},
    "rope-yarn": {"encoding": "rope", "rope_scaling": {
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4}},
    "rope-dynamic": {"encoding": "rope", "rope_scaling": {
        "rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4}},
    "rope-proportional": {"encoding": "rope", "rope_scaling": {
        "rope_type": "proportional", "partial_rotary_factor": 0.5}},
    "rope-mlp-no-bias": {"encoding": "rope", "mlp": True, "qkv_bias": False},
}


@pytest.mark.parametrize("case", sorted(GRADIENT_CASES))
def test_backward_pass_matches_finite_differences(case):
    config = ModelConfig(vocab=11, d_model=16, n_heads=2, max_len=8, **GRADIENT_CASES[case])
    rng = np.random.default_rng(0)
    params = {k: v + 0.3 * rng.standard_normal(v.shape)
              for k, v in init_params(config, 1, np.float64).items()}
    tokens, targets = rng.integers(0, 11, (2, 7)), rng.integers(0, 11, (2, 7))
    mask = (rng.random((2, 7)) > 0.3).astype(np.float64)
    _, grads = loss_and_grads(params, tokens, targets, mask, config)

    def loss():
        return cross_entropy(forward(params, tokens, config), targets, mask)[0]

    for name, value in params.items():
        picks = rng.choice(value.size, size=min(value.size, 6), replace=False)
        numeric, analytic = [], []
        for i in picks:
            old = value.flat[i]
            value.flat[i] = old + 1e-6
            up = loss()
            value.flat[i] = old - 1e-6
            down = loss()
            value.flat[i] = old
            numeric.append((up - down) / 2e-6)
            analytic.append(grads[name].flat[i])
        numeric, analytic = np.array(numeric), np.array(analytic)
        # An absolute floor above the finite differences' round-off (~1e-9): the key bias, for
        # one, has an exact gradient of 0 (it shifts a whole row of scores).
        off = np.abs(numeric - analytic) - (1e-7 + 1e-5 * np.abs(numeric))
        assert np.all(off <= 0), f"{case}: d loss / d {name}: {analytic} vs {numeric}"


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("scaling", [None, {"rope_type": "yarn", "factor": 4.0,
                                            "original_max_position_embeddings": 8}])
def test_rope_backward_is_rope_at_minus_m(layout, scaling):
    # <R(m) x, g> = <x, R(-m) g> (times YaRN's attention factor on both sides)
    rng = np.random.default_rng(3)
    x, g = rng.standard_normal((2, 3, 16, 8)), rng.standard_normal((2, 3, 16, 8))
    m = np.arange(16.0)
    left = np.sum(apply_rope(x, m, layout=layout, rope_scaling=scaling) * g)
    right = np.sum(x * apply_rope(g, -m, layout=layout, rope_scaling=scaling))
    assert left == pytest.approx(right, rel=1e-12)


@pytest.mark.parametrize("scaling", [
    {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 8},
    {"rope_type": "longrope", "short_factor": [1.0, 1.5, 2.0, 3.0], "long_factor": [1.0, 2.0, 4.0, 6.0],
     "original_max_position_embeddings": 8, "factor": 2.0},
])
def test_backward_rotation_sees_the_forward_frequencies(scaling):
    # Schemes that read the sequence length must not change frequencies at -m.
    config = ModelConfig(vocab=5, d_model=16, n_heads=2, rope_scaling=scaling)
    rotation = _Rotation(config, 16, scaling)
    rng = np.random.default_rng(4)
    x, g = rng.standard_normal((1, 2, 16, 8)), rng.standard_normal((1, 2, 16, 8))
    assert np.sum(rotation.forward(x) * g) == pytest.approx(np.sum(x * rotation.backward(g)), rel=1e-12)
    assert np.allclose(rotation.forward(x), apply_rope(x, np.arange(16.0), rope_scaling=scaling))


def test_bad_configs_are_refused_with_their_name():
    with pytest.raises(ValueError, match="encoding"):
        ModelConfig(vocab=8, encoding="t5")
    with pytest.raises(ValueError, match="n_heads"):
        ModelConfig(vocab=8, d_model=10, n_heads=3)
    learned = ModelConfig(vocab=8, encoding="learned", max_len=4)
    with pytest.raises(ValueError, match="learned absolute table has 4 positions"):
        forward(init_params(learned), np.zeros((1, 5), int), learned)
    with pytest.raises(ValueError, match="periods"):
        induction_batch(np.random.default_rng(0), 2, 8, 9, vocab=8)


@pytest.mark.slow
def test_tiny_training_rope_learns_the_induction_task_and_nope_does_not():
    # About 10 s of one core per run; measured on seeds 0 and 1: RoPE 0.68 / 0.64, NoPE 0.22 / 0.28
    # (RoPE needs a previous-token head, which NoPE cannot build robustly).
    small = dict(vocab=32, d_model=32, n_heads=2, n_layers=2, max_len=32)
    schedule = TrainConfig(steps=1000, batch=32, seq_len=32, lr=1e-2, warmup=20, periods=(2, 12),
                           eval_every=0)
    scores = {}
    for encoding in ("rope", "nope"):
        config = ModelConfig(encoding=encoding, **small)
        params, _ = train(config, InductionTask(32, eval_periods=[12]), schedule)
        scores[encoding] = np.mean([induction_accuracy(params, config, 32, p) for p in (4, 8, 12)])
    assert scores["rope"] > 0.5, scores
    assert scores["nope"] < 0.35, scores
    assert scores["rope"] - scores["nope"] > 0.25, scores


def test_corpus_ships_with_the_package():
    corpus = CharCorpus()
    assert corpus.vocab == 73 and len(corpus.train) + len(corpus.valid) == 841_791
    assert corpus.decode(corpus.train[:6]) == "HAMLET"


# --- the committed results and checkpoint -----------------------------------------------------

@pytest.fixture(scope="module")
def results():
    return experiments.load_results()


def test_results_schema(results):
    assert results["schema"] == experiments.SCHEMA_VERSION
    meta = results["meta"]
    for key in ("numpy", "blas", "cpu", "python", "wall_seconds", "cpu_seconds", "workers"):
        assert meta[key] not in (None, ""), key
    planned = experiments.plan(meta["seeds"], results["settings"])
    assert set(results["runs"]) <= {r["id"] for r in planned}
    # A run cut short keeps whole seeds of the main experiments (the plan's order).
    complete = experiments.complete_seeds(results)
    assert complete == sorted(complete) and complete == list(meta["seeds"][:len(complete)])
    assert meta["complete"] == (set(results["runs"]) == {r["id"] for r in planned})
    # The chapter reads the RoPE model of seed 0 and its checkpoint.
    assert "induction/rope/base10000/s0" in results["runs"]
    assert (experiments.RESULTS_DIR / experiments._checkpoint_name(10000.0)).exists()
    for run_id, run in results["runs"].items():
        assert run["cpu_seconds"] > 0, run_id
        history = run["history"]
        metric = history.get("accuracy", history.get("loss"))
        assert len(history["steps"]) == len(metric) >= 2, run_id
        assert np.all(np.isfinite(metric)), run_id


@pytest.mark.slow
def test_committed_checkpoint_reproduces_the_committed_numbers(results):
    # Every committed checkpoint whose run is committed (the base-10 000 one always is).
    for base in experiments.BASES:
        path = experiments.RESULTS_DIR / experiments._checkpoint_name(base)
        run_id = f"induction/rope/base{base:g}/s0"
        if base == 10000.0 or (path.exists() and run_id in results["runs"]):
            _check_checkpoint(results, path, base)


def _check_checkpoint(results, path, base):
    params, config, meta = load_checkpoint(path)
    committed = results["runs"][meta["run"]]["accuracy"]
    means = {}
    for scheme in analysis.SCHEMES:
        scaling = analysis.scheme_scaling(scheme, 4)
        table = committed[scheme]["256"]
        live = {p: induction_accuracy(params, config, 256, int(p), scaling) for p in table}
        assert max(abs(live[p] - table[p]) for p in table) <= 0.02, (scheme, live, table)
        means[scheme] = np.mean(list(live.values()))
    if base == 10000.0:
        assert means["YaRN"] > means["NTK"] > means["none"] > means["PI"], means
    assert induction_accuracy(params, config, 64, 24) == pytest.approx(
        committed["none"]["64"]["24"], abs=0.02)


# --- opt-in: rerun one seed of every experiment (about 13 CPU-minutes) ------------------------

@pytest.fixture(autouse=True)
def _training_is_opt_in(request):
    expression = request.config.getoption("markexpr") or ""
    if request.node.get_closest_marker("training") and (
            "training" not in expression or "not training" in expression):
        pytest.skip("retrains the chapter's models: run with -m training")


@pytest.mark.training
def test_one_seed_of_every_experiment_reproduces_the_chapter(tmp_path):
    document = experiments.run_all(tmp_path, seeds=(0,), workers=2, echo=lambda line: None)
    runs = document["runs"]

    def final(run_id):
        history = runs[run_id]["history"]
        return history.get("accuracy", history.get("loss"))[-1]

    rope, nope = final("induction/rope/base10000/s0"), final("induction/nope/base10000/s0")
    assert rope > 0.95 and nope < 0.6
    accuracy = runs["induction/rope/base10000/s0"]["accuracy"]
    mean = {s: np.mean(list(accuracy[s]["256"].values())) for s in analysis.SCHEMES}
    assert mean["YaRN"] > mean["NTK"] > mean["none"] > mean["PI"]
    ablation = runs["induction/rope/base10000/s0"]["ablation"]
    assert ablation["layer0_fast"] < 0.4 and ablation["layer0_fast"] < ablation["layer0_slow"] - 0.3
    assert ablation["layer1_slow"] < 0.4 < 0.9 < ablation["layer1_fast"]
    chars = {e: runs[f"characters/{e}/s0"]["loss"]["none"]["64"] for e in experiments.ENCODINGS}
    assert min(chars, key=chars.get) == "rope" and max(chars, key=chars.get) == "nope"

    def tuned(scheme, base):
        table = runs[f"finetune/{scheme}/base{base:g}/s0"]["accuracy"]["after"]["256"]
        return np.mean(list(table.values()))

    assert tuned("none", 10000.0) > tuned("PI", 10000.0)
    assert tuned("PI", 270.0) > tuned("none", 270.0)
    assert min(tuned("NTK", b) - tuned("PI", b) for b in experiments.BASES) > 0


def test_trained_model_explorer_shows_the_checkpoint(results):
    from rope_core.widgets import TrainedModelExplorer

    data = TrainedModelExplorer().data
    run = results["runs"]["induction/rope/base10000/s0"]
    for scheme in analysis.SCHEMES:
        for length in data["lengths"]:
            rows = np.array(data["attention"][scheme][str(length)])
            assert rows.shape == (2, 4, length)
            # each row is a softmax, rounded to 3 decimals per entry
            np.testing.assert_allclose(rows.sum(-1), 1.0, atol=5e-4 * length)
            table = run["accuracy"]["none" if length == 64 else scheme][str(length)]
            assert data["accuracy"][scheme][str(length)] == pytest.approx(np.mean(list(table.values())), abs=1e-4)
    # the ablation table: nothing off is the intact model, the group ablations are entries of it
    assert data["ablation"][0][0] == pytest.approx(run["ablation"]["intact"], abs=1e-4)
    assert data["ablation"][0][0b1111] == pytest.approx(run["ablation"]["layer0_fast"], abs=1e-4)
    assert data["ablation"][1][0b11110000] == pytest.approx(run["ablation"]["layer1_slow"], abs=1e-4)
    assert data["wavelengths"][0] == pytest.approx(2 * np.pi, abs=0.1)
    # the question's head looks at t - 1 at the training length and leans most on pair 0
    fast = data["fast_head"]
    assert data["attention"]["none"]["64"][0][fast][1] > 0.3
    usage = np.asarray(run["pair_usage"])[0]
    assert data["fast_head_pair0"] == pytest.approx(usage[fast][0], abs=0.02)


def test_attention_by_distance_averages_the_last_queries():
    config = ModelConfig(vocab=32, d_model=16, n_heads=2, max_len=16)
    params = init_params(config, 0)
    by_distance = analysis.attention_by_distance(params, config, "none", 24, 6, training_length=16,
                                                 rows=3)
    from rope_core.tinymodel.train import attention

    weights = attention(params, config, analysis.probe_tokens(24, 6, 3, 32), None)
    queries = np.arange(8, 24)  # the last 16 queries
    direct = np.mean([weights[:, :, :, t, t - 5] for t in queries], axis=0).mean(1)
    np.testing.assert_allclose(by_distance[..., 5], direct, atol=1e-12)
    np.testing.assert_allclose(by_distance.sum(-1), 1.0, atol=1e-9)


@pytest.mark.usefixtures("render_and_close_figures")
def test_chapter_summary_draws_the_committed_numbers(results):
    import matplotlib

    matplotlib.use("Agg")
    from rope_core.tinymodel import figures, summary

    fig = figures.chapter_summary(results)
    a, b, c, d = fig.axes
    expected = [
        (a, [summary.final_accuracy(results, e) for e in figures.ENCODING_STYLE]),
        (b, [summary.ablations(results, k) for k in
             ("intact", "layer0_fast", "layer0_slow", "layer1_fast", "layer1_slow")]),
        (c, [summary.mean_accuracy(results, s, 256) for s in analysis.SCHEMES]),
        (d, [summary.finetuned_accuracy(results, s, 256, base)
             for base in (10000.0, 270.0) for s in ("none", "PI")]),
    ]
    heights = {ax: [bar.get_height() for bar in ax.patches] for ax in (a, b, c, d)}
    for ax, per_seed in expected:
        assert heights[ax] == pytest.approx([np.mean(list(v.values())) for v in per_seed]), ax.get_title()
        dots = [sorted(line.get_ydata()) for line in ax.lines]
        assert dots == [pytest.approx(sorted(v.values())) for v in per_seed], ax.get_title()
    # What the caption and alt text say the bars show.
    assert heights[a][-1] < 0.5 < min(heights[a][:-1])                      # NoPE only fails
    assert max(heights[b][1], heights[b][4]) < 0.2 < 0.8 < min(heights[b][2:4])
    assert heights[c][3] > heights[c][2] > heights[c][0] > heights[c][1]    # YaRN > NTK > none > PI
    assert heights[d][0] > heights[d][1] and heights[d][3] > heights[d][2]  # the base decides


def test_workers_are_spawned_with_one_blas_thread_and_a_reusing_allocator(monkeypatch):
    import multiprocessing

    for variable in ("OMP_NUM_THREADS", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"):
        monkeypatch.delenv(variable, raising=False)
    experiments.worker_environment()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        seen = pool.apply(_environment)
    assert seen["OMP_NUM_THREADS"] == "1" and seen["OPENBLAS_NUM_THREADS"] == "1"
    assert int(seen["MALLOC_MMAP_THRESHOLD_"]) >= 2**30  # big arrays stay on the heap
    assert int(seen["MALLOC_TRIM_THRESHOLD_"]) >= 2**30


def _environment():
    import os

    return dict(os.environ)
