"""Speck Jass rules around the games: the deal's rotation, the ranking, the Punkteblatt.

The fold (``scoring.game.fold``) scores every game per player; this module adds who
deals and leads each game (2.6.1: the Schreiber deals first, then the deal moves one
seat on) and arranges the scores into the sheet the Schreiber hands to the organisers
(2.5.4): every game per player with its 157 check (2.5.2), the totals with the check
games x 157 (2.5.3; a series continued from paper adds its ``prior_games`` and their
``prior_totals``, which add up to 157 each), each player's best game (of the games
played here: the paper sheet's single games are not known) and the ranking, ties broken by
the best single game (2.9.2), still equal sharing the place (``scoring.ranking``).

Pure (no Flask, no I/O), so the dashboard, the tournament publisher
(jasscam.tournament) and the printout show the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.events import RoundStarted
from scoring.game import MISPLAY_CODES, SPECK_GAME_POINTS, Flag, GameState, PlayedCard, RoundState, prior_players
from scoring.ranking import rank
from scoring.rules import card_suit


class NotSpeckError(ValueError):
    """A Punkteblatt was asked for a game that is not a Speck Jass game."""


def dealer_of(forehand: int) -> int:
    """The dealer sits before forehand in playing order (forehand = the player after the dealer)."""
    return (forehand + 3) % 4


def first_dealer(state: GameState) -> int:
    """The dealer of game 1: the set-up's choice, else the Schreiber (2.6.1), else seat 0."""
    cfg = state.config
    if cfg.dealer is not None:
        return cfg.dealer
    return cfg.scorer if cfg.scorer is not None else 0


def next_forehand(state: GameState) -> int:
    """Forehand of the next game: the seat after the first dealer for game 1, then the
    engine's rotation (``GameState.next_forehand``: one seat on per game, counter-clockwise
    like play; a game left unfinished is dealt again by the same dealer)."""
    if state.next_forehand is None:
        return (first_dealer(state) + 1) % 4
    return state.next_forehand


def next_game(state: GameState, bodentrumpf: str) -> RoundStarted:
    """The ``round_started`` of the next game: the Bodentrumpf's suit is trump, and
    forehand is the seat after this game's dealer (:func:`next_forehand`)."""
    return RoundStarted(forehand=next_forehand(state), contract=card_suit(bodentrumpf), bodentrumpf=bodentrumpf)


def ranking(names: list[str], totals: list[int], best: list[int]) -> list[dict[str, Any]]:
    """Rows ``{place, index, name, total, best}`` best first: by total, then best game (2.9).

    Works for any number of players (a table of four or a whole tournament); ``index``
    is the player's position in ``names``. Equal total and equal best game share a place
    (competition ranking 1, 1, 3, 4).
    """
    if not len(names) == len(totals) == len(best):
        raise ValueError("names, totals and best must have the same length")
    return [
        {"place": r.place, "index": r.index, "name": names[r.index], "total": r.total, "best": r.best}
        for r in rank(totals, best)
    ]


def _round_by_index(state: GameState) -> dict[int, RoundState]:
    return {r.index: r for r in state.rounds}


def punkteblatt(state: GameState) -> dict[str, Any]:
    """The Punkteblatt as JSON data; raises NotSpeckError for a Schieber game."""
    cfg = state.config
    if cfg.variant != "speck":
        raise NotSpeckError(f"a Punkteblatt is kept for Speck Jass, this game is {cfg.variant}")
    rounds = _round_by_index(state)
    games: list[dict[str, Any]] = []
    for n, row in enumerate(state.sheet):
        rnd = rounds[row.round]
        points = list(row.player_points)
        games.append(
            {
                "game": cfg.prior_games + n + 1,
                "round": row.round,
                "dealer": dealer_of(rnd.forehand),
                "forehand": rnd.forehand,
                "bodentrumpf": rnd.bodentrumpf,
                "trump": rnd.contract,
                "points": points,
                "sum": sum(points),
                "ok": sum(points) == SPECK_GAME_POINTS,
                "last_trick_seat": rnd.score.last_trick_seat,
            }
        )
    prior = list(prior_players(cfg))
    totals = [prior[s] + sum(g["points"][s] for g in games) for s in range(4)]
    best = [max((g["points"][s] for g in games), default=0) for s in range(4)]
    played = cfg.prior_games + len(games)
    names = list(cfg.players)
    running = None
    cur = state.round
    if cur is not None and not cur.complete and not cur.abandoned:
        pts = list(cur.score.player_points)
        running = {
            "game": played + 1,
            "points": pts,
            "sum": sum(pts),
            "cards": len(cur.played),
            "tricks": len(cur.tricks),
        }
    return {
        "players": names,
        "scorer": cfg.scorer,
        "first_dealer": first_dealer(state),
        "games_planned": cfg.speck_games,
        "games_played": played,
        "complete": played >= cfg.speck_games,
        "games": games,
        "prior_games": cfg.prior_games,
        "prior_totals": None if cfg.prior_totals is None else prior,
        "totals": totals,
        "best": best,
        "check": {
            "games": played,
            "expected": played * SPECK_GAME_POINTS,
            "actual": sum(totals),
            "ok": sum(totals) == played * SPECK_GAME_POINTS,
            "full": cfg.speck_games * SPECK_GAME_POINTS,
        },
        "ranking": ranking(names, totals, best),
        "running": running,
    }


@dataclass(frozen=True)
class MisplayCard:
    """A card a 2.8 ruling covers: ``role`` ``played`` (the misplayed card), ``kept``
    (the kept-back card that proved it) or ``trump`` (another trump of a trump revoke)."""

    role: str
    ref: int
    card: str


def misplay_cards(state: GameState, flag: Flag) -> tuple[MisplayCard, ...]:
    """The cards the table rules on for one misplay flag (``MISPLAY_CODES``).

    2.8.4/2.8.5: the misplayed card (``flag.ref``) and the kept-back card that proved it
    (``flag.evidence_ref``) both lose their trick value. A trump revoke (not following
    trump) adds every other trump the player has laid in that game except the Puur (the
    trump Under): 2.8.4 takes the trick value of all of them. Order: played, kept, then
    the other trumps in the order they were laid. Cards are as the fold has them, after
    corrections.
    """
    if flag.code not in MISPLAY_CODES:
        return ()
    laid: dict[int, PlayedCard] = {}
    rnd = state.rounds[flag.round] if flag.round is not None and 0 <= flag.round < len(state.rounds) else None
    if rnd is not None:
        laid = {c.ref: c for t in rnd.tricks for c in t.cards} | {c.ref: c for c in rnd.trick}
    out: list[MisplayCard] = []
    for role, ref in (("played", flag.ref), ("kept", flag.evidence_ref)):
        if ref is not None and ref in laid:
            out.append(MisplayCard(role, ref, laid[ref].card))
    if flag.code == "not_following_trump" and rnd is not None and rnd.trump is not None and flag.seat is not None:
        skip = {flag.ref, flag.evidence_ref}
        puur = f"{rnd.trump}-under"
        for ref in sorted(laid):
            c = laid[ref]
            if c.seat == flag.seat and ref not in skip and card_suit(c.card) == rnd.trump and c.card != puur:
                out.append(MisplayCard("trump", ref, c.card))
    return tuple(out)
