"""The Punkteblatt of a Speck Jass table: pure data from the folded game.

The rules engine (``scoring.game.fold``) already scores every game per player; this
module arranges that into the sheet the Schreiber hands to the organisers (2.5.4): every
game per player with its 157 check (2.5.2), the totals with the check games x 157
(2.5.3), each player's best game and the ranking, ties broken by the best single game
(2.9.2). Players who are still equal after that share the place, as on a paper sheet.

Pure (no Flask, no I/O), so the tournament publisher (jasscam.tournament) sends the
same numbers the table sees.
"""

from __future__ import annotations

from typing import Any

from scoring.game import SPECK_GAME_POINTS, GameState, RoundState


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
    """Forehand of the next game: one seat on from the last scored game (the deal rotates
    counter-clockwise, like play); an abandoned game is dealt again by the same dealer."""
    scored = [r for r in state.rounds if not r.abandoned]
    if not scored:
        return (first_dealer(state) + 1) % 4
    last = scored[-1]
    return (last.forehand + 1) % 4 if last.complete else last.forehand


def _rank_places(totals: list[int], best: list[int], order: tuple[int, ...]) -> list[int]:
    places: list[int] = []
    for i, seat in enumerate(order):
        if i and (totals[seat], best[seat]) == (totals[order[i - 1]], best[order[i - 1]]):
            places.append(places[-1])
        else:
            places.append(i + 1)
    return places


def ranking(names: list[str], totals: list[int], best: list[int]) -> list[dict[str, Any]]:
    """Rows ``{place, index, name, total, best}`` best first: by total, then best game (2.9).

    Works for any number of players (a table of four or a whole tournament); ``index``
    is the player's position in ``names``. Equal total and equal best game share a place.
    """
    if not len(names) == len(totals) == len(best):
        raise ValueError("names, totals and best must have the same length")
    order = tuple(sorted(range(len(names)), key=lambda s: (-totals[s], -best[s], s)))
    places = _rank_places(totals, best, order)
    return [
        {"place": places[i], "index": s, "name": names[s], "total": totals[s], "best": best[s]}
        for i, s in enumerate(order)
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
                "game": n + 1,
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
    totals = [sum(g["points"][s] for g in games) for s in range(4)]
    best = [max((g["points"][s] for g in games), default=0) for s in range(4)]
    played = len(games)
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
