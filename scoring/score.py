"""What a round gave and how its variant writes it: tricks, Weis, Stöck, the Tafel.

The fold only records what happened in a round (``scoring.round_play``); here it is
counted: the card points and the last trick per team and seat, which team's Weis
count (``scoring.weis.judge``), whether Stöck was called in time, and then the
variant's ``write`` (``scoring.variants``) and, in the Differenzler, the penalties.
While the round runs the count is provisional, so the phones show it as it grows.
"""

from __future__ import annotations

from scoring.events import GameConfigured, RoundStarted
from scoring.round_play import RoundRecord
from scoring.rules import LAST_TRICK_BONUS
from scoring.state import RoundScore, WeisEntry
from scoring.variants import Taken, Variant, Written, variant_for
from scoring.variants.base import declarer_of as _declarer_of
from scoring.variants.base import entered_taken
from scoring.variants.differenzler import penalties
from scoring.weis import judge


def weis_entries(
    r: RoundRecord, cfg: GameConfigured, *, individual: bool = False
) -> tuple[tuple[WeisEntry, ...], int | None]:
    """Judge the round's Weis: which team writes, and the status of every declared Weis.

    With ``weis_needs_trick`` a team that took no trick is left out of the comparison once
    the round is complete (while it runs, every team may still take one). ``individual``
    (Differenzler): each plays for themselves, so only the player holding the best Weis
    writes (all of theirs), the partner's Weis lose.
    """
    valid = [w for d in r.decls if not (d.late or d.not_in_hand) for i, w in enumerate(d.weis) if i not in d.dups]
    trickless = (
        [t for t in (0, 1) if not any(tr.winner % 2 == t for tr in r.tricks)]
        if cfg.weis_needs_trick and r.complete
        else []
    )
    result = judge(
        valid,
        r.trump,
        r.start.forehand,
        one_per_player=cfg.weis_one_per_player,
        card_once=cfg.weis_card_once,
        without_teams=trickless,
    )
    counted = {id(w) for w in result.counted if not individual or result.best is None or w.seat == result.best.seat}
    shared = {id(w) for w in result.shares_card}
    left_out = {id(w) for w in result.left_out}
    team = result.team
    entries: list[WeisEntry] = []
    for d in r.decls:
        for i, w in enumerate(d.weis):
            if d.late:
                status = "late"
            elif i in d.dups:
                status = "duplicate"
            elif d.not_in_hand:
                status = "not_in_hand"
            elif id(w) in shared:
                status = "shares_card"
            elif id(w) in left_out:
                status = "no_trick"
            elif id(w) in counted:
                status = "counts"
            elif team is not None and (d.seat % 2 != team or individual):
                status = "loses"
            else:
                status = "not_best_of_player"
            entries.append(
                WeisEntry(
                    d.seat,
                    d.seat % 2,
                    w.weis.kind,
                    w.weis.label,
                    w.weis.cards,
                    w.weis.points,
                    d.ref,
                    status,
                    best=result.best is w,
                )
            )
    return tuple(entries), team


def taken(r: RoundRecord, variant: Variant) -> Taken:
    """What the round's tricks, Weis and Stöck gave (or what the table entered by hand)."""
    if r.entered is not None:
        return entered_taken(r.entered, declarer_of(r.start), r.trump)
    cp = [0, 0]
    won = [0, 0]
    pp = [0, 0, 0, 0]
    for t in r.tricks:
        cp[t.winner % 2] += t.points - (LAST_TRICK_BONUS if t.last else 0)
        won[t.winner % 2] += 1
        pp[t.winner] += t.points
    last_seat = r.tricks[-1].winner if r.complete else None
    last_team = None if last_seat is None else last_seat % 2
    weis = [0, 0]
    seat_weis = [0, 0, 0, 0]
    stoeck_seat = None
    if variant.weis_counts:
        entries, _team = weis_entries(r, variant.config, individual=variant.individual)
        for e in entries:
            if e.status == "counts":
                weis[e.team] += e.points
                seat_weis[e.seat] += e.points
        st = r.stoeck.state()
        if st.status == "called" and st.team is not None:
            stoeck_seat = st.holder
    stoeck_team = None if stoeck_seat is None else stoeck_seat % 2
    return Taken(
        contract=r.contract,
        declarer=declarer_of(r.start),
        row=r.start.row,
        card_points=(cp[0], cp[1]),
        tricks_won=(won[0], won[1]),
        tricks=(
            cp[0] + (LAST_TRICK_BONUS if last_team == 0 else 0),
            cp[1] + (LAST_TRICK_BONUS if last_team == 1 else 0),
        ),
        seat_points=(pp[0], pp[1], pp[2], pp[3]),
        all_tricks=next((t for t in (0, 1) if won[t] == 9), None) if r.complete else None,
        last_trick_team=last_team,
        last_trick_seat=last_seat,
        weis=(weis[0], weis[1]),
        seat_weis=(seat_weis[0], seat_weis[1], seat_weis[2], seat_weis[3]),
        stoeck_team=stoeck_team,
        stoeck_seat=stoeck_seat,
    )


def score_of(r: RoundRecord, variant: Variant) -> tuple[RoundScore, Written]:
    """The round's score for the state, and the variant's written form (for the game's end)."""
    took = taken(r, variant)
    w = variant.write(took, r.multiplier)
    score = RoundScore(
        took.card_points,
        took.tricks_won,
        w.raw,
        w.written,
        w.match_team,
        took.last_trick_team,
        took.last_trick_seat,
        w.player_points,
    )
    return score, w


def score_round(r: RoundRecord, cfg: GameConfigured) -> RoundScore:
    """Card points, last trick, Match, Weis and Stöck of a round (provisional while running),
    written as the game's variant writes them."""
    return score_of(r, variant_for(cfg))[0]


def declarer_of(start: RoundStarted) -> int:
    """Who chose the contract: forehand, or after Schieben forehand's partner (the event
    may leave it out; when it names one, the fold has checked it against this)."""
    return _declarer_of(start, start.forehand)


def round_score(r: RoundRecord, variant: Variant) -> tuple[RoundScore, Written, tuple[int, int, int, int] | None]:
    """The round's score, as the variant writes it, and its Differenzler penalties (once over)."""
    score, written = score_of(r, variant)
    pen = None
    if variant.forecasts and r.complete and not r.abandoned:
        pen = penalties([f[0] if f else None for f in (r.forecasts.get(s) for s in range(4))], written.player_points)
    return score, written, pen


__all__ = ["declarer_of", "round_score", "score_of", "score_round", "taken", "weis_entries"]
