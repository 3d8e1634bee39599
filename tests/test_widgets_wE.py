"""DecayExplorer's one pair, from aligned to random content, and its random pairs: the tables of
rope_core.demos.decay against closed forms written here, and the widget's data against them."""

import numpy as np
import pytest

import rope_core.widgets as W
from rope_core.demos import decay


def closed_form_pair(q, k, distances, base):
    """Score Re sum_i q_i conj(k_i) e^{i r theta_i} and bound max_i |h_{i+1} - h_i| sum_j |S_j(r)|
    (h_{d/2} = 0, S_j = sum_{i<j} e^{i r theta_i}), both divided by |q| |k|."""
    d = q.size
    theta = base ** (-np.arange(0, d, 2) / d)
    h = (q[0::2] + 1j * q[1::2]) * np.conj(k[0::2] + 1j * k[1::2])
    phase = np.exp(1j * np.outer(distances, theta))                 # (R, d/2)
    score = (phase @ h).real
    content = np.abs(np.diff(np.append(h, 0.0))).max()
    bound = content * np.abs(np.cumsum(phase, axis=1)).sum(axis=1)
    norm = np.linalg.norm(q) * np.linalg.norm(k)
    return score / norm, bound / norm


def test_content_pair_table_at_random_settings_equals_the_closed_form(rng):
    for _ in range(4):
        dim = int(rng.choice([8, 16, 32, 64]))
        bases = sorted(float(b) for b in rng.choice([50.0, 1e3, 1e4, 5e5], size=2, replace=False))
        step = int(rng.integers(1, 5))
        max_distance = step * int(rng.integers(3, 40))
        seed = int(rng.integers(0, 100))
        mixes = [0.0, *sorted(rng.uniform(0, 1, size=3).tolist()), 1.0]
        t = decay.content_pair_table(dim, bases, max_distance, step, seed, mixes)
        distances = np.arange(0, max_distance + 1, step)
        np.testing.assert_array_equal(t["distances"], distances)
        q, noise = np.ones(dim), np.random.default_rng(seed).standard_normal(dim)
        late = distances >= max_distance / 2
        for w, mix in enumerate(mixes):
            k = np.sqrt(1 - mix) * q + np.sqrt(mix) * noise
            for b, base in enumerate(bases):
                score, bound = closed_form_pair(q, k, distances, base)
                np.testing.assert_allclose(t["score"][w, b], score, atol=1e-12)
                np.testing.assert_allclose(t["bound"][w, b], bound, rtol=1e-12)
                assert np.all(t["bound"][w, b] >= np.abs(t["score"][w, b]) - 1e-12)
                assert np.isclose(t["early"][w, b], np.abs(score[~late]).mean())
                assert np.isclose(t["late"][w, b], np.abs(score[late]).mean())
        # w = 0 is the aligned pair of decay_table.
        table = decay.decay_table(dim, bases, max_distance, step, seed, 4, 0.5)
        np.testing.assert_allclose(t["score"][0], table["aligned"], atol=1e-12)
        np.testing.assert_allclose(t["bound"][0], table["bound"], rtol=1e-12)


def test_random_pairs_magnitude_equals_percentiles_of_each_pairs_closed_form(rng):
    dim, bases, max_distance, step, seed, samples = 16, (100.0, 1e4), 40, 4, int(rng.integers(0, 50)), 30
    t = decay.random_pairs_magnitude(dim, bases, max_distance, step, seed, samples)
    distances = np.arange(0, max_distance + 1, step)
    q, k = decay.draw_pairs(dim, 0.0, samples, seed)
    for b, base in enumerate(bases):
        forms = [closed_form_pair(qq, kk, distances, base) for qq, kk in zip(q, k)]
        scores = np.abs(np.array([f[0] for f in forms]))
        bounds = np.array([f[1] for f in forms])
        for key, pct in (("low", 10), ("median", 50), ("high", 90)):
            np.testing.assert_allclose(t[key][b], np.percentile(scores, pct, axis=0), atol=1e-12)
        np.testing.assert_allclose(t["bound"][b], np.median(bounds, axis=0), rtol=1e-12)
        assert np.all(t["bound"][b] >= t["median"][b])


def test_a_random_key_does_not_decay_and_the_aligned_pair_does():
    # What the widget's question turns on, at its defaults: 1000 random pairs' median |score|
    # averages the same (within 5 %) over the second half of the distances as over the first
    # at every base, and stays within 20 % of its r = 0 value (sampling noise, not a trend); the
    # aligned pair's mean |score| is lower over the second half than over the first.
    crowd = decay.random_pairs_magnitude()
    half = crowd["distances"] >= crowd["distances"][-1] / 2
    early, late = crowd["median"][:, ~half].mean(axis=1), crowd["median"][:, half].mean(axis=1)
    assert np.all(np.abs(late / early - 1) < 0.05), late / early
    ratio = crowd["median"] / crowd["median"][:, :1]
    assert np.all(np.abs(ratio - 1) < 0.2), (ratio.min(), ratio.max())
    pair = decay.content_pair_table()
    assert np.all(pair["late"][0] < pair["early"][0])


def test_the_widget_sends_the_demos_tables():
    widget = W.DecayExplorer()
    data = widget.data
    pair, crowd, table = decay.content_pair_table(), decay.random_pairs_magnitude(), decay.decay_table()
    assert data["mixes"] == list(decay.CONTENT_MIXES) and data["distances"] == pair["distances"].tolist()
    assert (widget.content_index, widget.distance_index) == (0, 0)          # aligned, r = 0
    for b in range(len(data["bases"])):
        series = data["series"][b]
        np.testing.assert_allclose(series["pair"]["score"], pair["score"][:, b], atol=5e-4)
        np.testing.assert_allclose(series["pair"]["bound"], pair["bound"][:, b], atol=5e-3)
        for key in ("early", "late"):
            np.testing.assert_allclose(series["pair"][key], pair[key][:, b], atol=5e-5)
        for key in ("low", "median", "high"):
            np.testing.assert_allclose(series["random"][key], crowd[key][b], atol=5e-4)
        np.testing.assert_allclose(series["random"]["bound"], crowd["bound"][b], atol=5e-3)
        np.testing.assert_allclose(series["bound"], table["bound"][b], atol=5e-5)
        np.testing.assert_allclose(series["bound_average"], table["bound_average"][b][data["stops"]], atol=5e-5)


@pytest.mark.parametrize("call, name", [
    (lambda: decay.content_pair_table(dim=5), "dim"),
    (lambda: decay.content_pair_table(bases=[]), "bases"),
    (lambda: decay.content_pair_table(step=0), "step"),
    (lambda: decay.content_pair_table(seed=-1), "seed"),
    (lambda: decay.content_pair_table(mixes=[0.0, 1.5]), "mixes"),
    (lambda: decay.content_pair_table(mixes=[]), "mixes"),
    (lambda: decay.random_pairs_magnitude(samples=1), "samples"),
    (lambda: decay.random_pairs_magnitude(bases=[]), "bases"),
    (lambda: W.DecayExplorer(content_index=9), "content_index"),
])
def test_bad_arguments_name_themselves(call, name):
    with pytest.raises(ValueError, match=name):
        call()
