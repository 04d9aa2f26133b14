"""The end of a game when both teams pass the target with equal totals (rule text 001).

001: «Der Sieger steht fest, sobald der erste entscheidende Block einen Gleichlauf
auflöst.» Equal totals after the block in which both crossed are not yet a draw: the
remaining blocks are added in end order, and the first that separates the teams decides.
Each end order gets a case; the numbers are real rounds (157 points in the trick block,
Weis and Stöck for one team each).
"""

from __future__ import annotations

import pytest

from scoring.ending import decide, over_target
from scoring.game import Blocks


@pytest.mark.parametrize(
    ("order", "before", "written", "winner", "block"),
    [
        # Both reach 1000 in the trick block; A's Stöck come next and separate them.
        (("tricks", "stoeck", "weis"), (943, 900), (Blocks(0, 20, 57), Blocks(0, 0, 100)), 0, "stoeck"),
        # Both reach 1000 in the trick block; B's Weis come next.
        (("tricks", "weis", "stoeck"), (943, 900), (Blocks(0, 20, 57), Blocks(50, 0, 100)), 1, "weis"),
        # A's Stöck first (not enough), both 1020 after the tricks, B's Weis decide.
        (("stoeck", "tricks", "weis"), (943, 920), (Blocks(0, 20, 57), Blocks(20, 0, 100)), 1, "weis"),
        # A's Weis first (not enough), both 1000 after the tricks, B's Stöck decide.
        (("weis", "tricks", "stoeck"), (923, 900), (Blocks(20, 0, 57), Blocks(0, 20, 100)), 1, "stoeck"),
    ],
)
def test_001_equal_totals_after_the_crossing_block_go_on_to_the_next_block(
    order: tuple[str, ...], before: tuple[int, int], written: tuple[Blocks, Blocks], winner: int, block: str
) -> None:
    """001: «Der Sieger steht fest, sobald der erste entscheidende Block einen Gleichlauf auflöst.»"""
    decision = decide(before, written, 1000, order)
    assert decision is not None
    assert (decision.winner, decision.block, decision.tied_in) == (winner, block, "tricks")


@pytest.mark.parametrize(
    ("order", "before", "written"),
    [
        # Default order: the trick block is last, nothing is left to separate them.
        (("weis", "stoeck", "tricks"), (943, 900), (Blocks(0, 0, 57), Blocks(0, 0, 100))),
        (("stoeck", "weis", "tricks"), (923, 880), (Blocks(0, 20, 57), Blocks(20, 0, 100))),
        # Tricks first, but neither team has Stöck or Weis this round: still equal at the end.
        (("tricks", "stoeck", "weis"), (943, 900), (Blocks(0, 0, 57), Blocks(0, 0, 100))),
    ],
)
def test_001_a_draw_only_when_no_remaining_block_separates_the_teams(
    order: tuple[str, ...], before: tuple[int, int], written: tuple[Blocks, Blocks]
) -> None:
    """001: «Der Sieger steht fest, sobald der erste entscheidende Block einen Gleichlauf
    auflöst.» If none does, nobody has won."""
    decision = decide(before, written, 1000, order)
    assert decision is not None
    assert (decision.winner, decision.block, decision.tied_in) == (None, None, "tricks")
    assert "unentschieden" in decision.reason


def test_001_both_over_in_one_block_with_different_totals_the_higher_wins() -> None:
    decision = decide((950, 900), (Blocks(0, 0, 57), Blocks(0, 0, 100)), 1000, ("weis", "stoeck", "tricks"))
    assert decision is not None and (decision.winner, decision.block, decision.tied_in) == (0, "tricks", None)


def test_001_the_first_team_over_the_target_wins_in_its_block() -> None:
    # «Ein Team, das bereits im früheren Block über das Ziel kommt, gewinnt vor einem
    # Team, das erst in einem späteren Block darüber kommt.» (000)
    decision = decide((980, 990), (Blocks(20, 0, 30), Blocks(0, 0, 127)), 1000, ("weis", "stoeck", "tricks"))
    assert decision is not None and (decision.winner, decision.block) == (0, "weis")


def test_a_round_that_brings_nobody_over_the_target_decides_nothing() -> None:
    assert decide((100, 200), (Blocks(0, 0, 57), Blocks(0, 0, 100)), 1000, ("weis", "stoeck", "tricks")) is None


def test_001_ueberschreitet_the_target_itself_is_not_enough_with_target_rule_exceeded() -> None:
    # 001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»
    assert over_target(1000, 1000, "reached") and not over_target(1000, 1000, "exceeded")
    assert over_target(1001, 1000, "exceeded")
    written = (Blocks(0, 0, 57), Blocks(0, 0, 100))
    assert decide((943, 0), written, 1000, ("weis", "stoeck", "tricks"), "exceeded") is None
    reached = decide((943, 0), written, 1000, ("weis", "stoeck", "tricks"), "reached")
    assert reached is not None and reached.winner == 0


def test_an_unknown_target_rule_is_an_error() -> None:
    with pytest.raises(ValueError, match="target_rule"):
        over_target(1000, 1000, "touched")
