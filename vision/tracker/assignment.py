"""Minimum-cost assignment of rows to distinct columns (Hungarian method), pure Python.

Why here: each card is played once per round, so naming the round's cards is a matching
of tracks to card ids, not a string of independent guesses. At most 37 tracks x 36 cards,
a few milliseconds; numpy-free so the tracker stays plain Python.
"""

from __future__ import annotations

from collections.abc import Sequence

INF = float("inf")


def assign(cost: Sequence[Sequence[float]]) -> list[int]:
    """For each row the column it gets, every column used at most once, total cost minimal.

    Needs at least as many columns as rows; every cost finite.
    """
    n = len(cost)
    if n == 0:
        return []
    m = len(cost[0])
    if m < n:
        raise ValueError(f"{n} rows cannot take distinct columns among {m}")
    # Potentials u (rows) and v (columns); p[j] = row matched to column j (1-based, 0 = none).
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [INF] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INF
            j1 = 0
            row = cost[i0 - 1]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out
