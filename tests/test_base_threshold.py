"""rope_core.bounds.base_from_which_all_pass: the 'every larger base passes' threshold."""

import numpy as np
import pytest

from rope_core.bounds import base_from_which_all_pass, min_base_for_context, min_cosine_sum


def test_every_grid_base_above_passes_and_the_one_below_fails():
    first = min_base_for_context(1024, 64)
    top = 20 * first
    threshold = base_from_which_all_pass(1024, 64, start=first, high=top)
    grid = first * 1.005 ** np.arange(int(np.log(top / first) / np.log(1.005)) + 1)
    above = grid[grid >= threshold * (1 - 1e-12)]
    assert np.all(min_cosine_sum(above, 1024, 64) >= 0)
    if threshold > first:
        assert min_cosine_sum([threshold / 1.005], 1024, 64)[0] < 0


def test_matches_the_scan_at_1k_for_d128():
    first = min_base_for_context(1024, 128)
    assert 5.9e3 < base_from_which_all_pass(1024, 128, start=first, high=2e4) < 6.1e3


@pytest.mark.parametrize("kwargs, words", [
    ({"start": 5e3, "high": 4e3}, "start and high"),
    ({"start": 5e3, "high": 6e3, "rtol": 0.0}, "rtol"),
    ({"start": 10.0, "high": 20.0}, "high=20 itself fails"),
])
def test_bad_arguments_are_named(kwargs, words):
    with pytest.raises(ValueError, match=words):
        base_from_which_all_pass(1024, 128, **kwargs)


@pytest.mark.parametrize("base, length", [(1e4, 1024), (2.87e4, 4096), (3e5, 20000), (2.4e6, 32768)])
def test_blocked_sum_matches_the_direct_sum(base, length):
    from rope_core.bounds import _min_cosine_sum_blocked
    from rope_core.frequencies import default_inverse_frequencies

    blocked = _min_cosine_sum_blocked(default_inverse_frequencies(128, base), length)
    assert abs(blocked - min_cosine_sum([base], length, 128)[0]) < 1e-9
