"""The minimum-cost assignment the tracker uses to name a round's cards together."""

from __future__ import annotations

import itertools
import random

import pytest

from vision.tracker.assignment import assign


@pytest.mark.parametrize("seed", range(40))
def test_assignment_is_the_cheapest_of_all_distinct_choices(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 5)
    m = rng.randint(n, 6)
    cost = [[rng.random() for _ in range(m)] for _ in range(n)]
    got = assign(cost)
    assert len(set(got)) == n
    best = min(sum(cost[i][p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
    assert sum(cost[i][got[i]] for i in range(n)) == pytest.approx(best)


def test_more_rows_than_columns_is_refused() -> None:
    with pytest.raises(ValueError, match="distinct columns"):
        assign([[0.0], [1.0]])
