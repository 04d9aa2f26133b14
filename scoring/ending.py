"""The end of a Schieber game: has a team reached the target, and which block decided.

Rule text 001: the game ends at the count of a round («bei der Abrechnung einer Runde»)
once a team is over the target. When a round brings a team there, its blocks are added
in the agreed end order (default Weis, Stöck, Stiche) to the totals from before the
round; the first team over the target after a block wins, and that block decided. Both
teams over in the same block: the higher total wins. Equal totals there do not end the
comparison: the remaining blocks are added in end order, and the first block that
separates the two decides («Der Sieger steht fest, sobald der erste entscheidende Block
einen Gleichlauf auflöst»). Only when no block separates them is it a draw.

Whether a total equal to the target is enough is a setting (``target_rule``): 001 says
«überschreitet» (``exceeded``: more than the target); the default ``reached`` lets the
target itself win, as most tables count.

Pure: totals and blocks in, a :class:`Decision` out, so the fold and the tests share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

#: ``target_rule`` of ``game_configured``: the total needed to win, as a comparison.
TARGET_RULES: Final[tuple[str, ...]] = ("reached", "exceeded")


class BlockPoints(Protocol):
    """A team's points in one round, by block (``scoring.game.Blocks``)."""

    def get(self, block: str) -> int: ...


def over_target(total: int, target: int, rule: str = "reached") -> bool:
    """Whether ``total`` wins: ``reached`` means total >= target, ``exceeded`` total > target."""
    if rule == "reached":
        return total >= target
    if rule == "exceeded":
        return total > target
    raise ValueError(f"target_rule must be one of {', '.join(TARGET_RULES)}, got {rule!r}")


@dataclass(frozen=True)
class Decision:
    """``winner`` team (None: a draw), the ``block`` that decided (None on a draw), the
    block where both teams first stood equal over the target (``tied_in``, if any) and a
    German ``reason`` for the sheet."""

    winner: int | None
    block: str | None
    reason: str
    tied_in: str | None = None


BLOCK_NAMES: Final[dict[str, str]] = {"weis": "Weis", "stoeck": "Stöck", "tricks": "Stiche"}


def decide(
    before: Sequence[int],
    written: Sequence[BlockPoints],
    target: int,
    end_order: Sequence[str],
    rule: str = "reached",
) -> Decision | None:
    """Whether this round ends the game: ``before`` are both teams' totals before the
    round, ``written`` the round's blocks per team (after the multiplier). None when
    neither team is over the target after the whole round."""
    running = [before[0], before[1]]
    tied_in: str | None = None
    for block in end_order:
        running = [running[t] + written[t].get(block) for t in (0, 1)]
        over = [t for t in (0, 1) if over_target(running[t], target, rule)]
        name = BLOCK_NAMES.get(block, block)
        if len(over) == 1:
            return Decision(over[0], block, f"Team {over[0] + 1} über dem Ziel {target} im Block {name}")
        if len(over) == 2:
            if running[0] != running[1]:
                win = 0 if running[0] > running[1] else 1
                if tied_in is None:
                    return Decision(win, block, f"beide Teams im Block {name} über dem Ziel; Team {win + 1} höher")
                return Decision(
                    win,
                    block,
                    f"beide Teams im Block {BLOCK_NAMES.get(tied_in, tied_in)} gleichauf über dem Ziel; "
                    f"der Block {name} entscheidet für Team {win + 1}",
                    tied_in,
                )
            tied_in = tied_in or block
    if tied_in is not None:
        return Decision(
            None, None, "beide Teams gleichauf über dem Ziel, kein Block entscheidet: unentschieden", tied_in
        )
    return None
