"""Contract multipliers (the factor on the whole written round of both teams).

Tables (setting ``multipliers`` of ``game_configured``):

- ``default``: Eicheln 1, Rosen 1, Schellen 2, Schilten 2, Obenabe 3, Undenufe 4
- ``common``: as default, but Obenabe and Undenufe both 3
- ``ascending``: Eicheln 1, Rosen 2, Schellen 3, Schilten 4, Obenabe 5, Undenufe 6
- ``custom``: ``custom_multipliers`` gives a factor per contract
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

TABLES: Final[dict[str, dict[str, int]]] = {
    "default": {"eicheln": 1, "rosen": 1, "schellen": 2, "schilten": 2, "obenabe": 3, "undenufe": 4},
    "common": {"eicheln": 1, "rosen": 1, "schellen": 2, "schilten": 2, "obenabe": 3, "undenufe": 3},
    "ascending": {"eicheln": 1, "rosen": 2, "schellen": 3, "schilten": 4, "obenabe": 5, "undenufe": 6},
}


def multiplier(contract: str, table: str = "default", custom: Mapping[str, int] | None = None) -> int:
    """The factor for ``contract`` under the named table (``custom`` needs ``custom``)."""
    if table == "custom":
        if not custom or contract not in custom:
            raise ValueError(f"custom multipliers give no factor for {contract!r}")
        return int(custom[contract])
    try:
        return TABLES[table][contract]
    except KeyError:
        raise ValueError(f"unknown multiplier table {table!r} or contract {contract!r}") from None
