"""The table's statistics: each game's events folded by the rules engine, then added up.

Why a fold and not a table of results: the event store is the one truth. A correction,
an undo or a round entered later changes a game's fold, and so its statistics, without
anything to keep in step. This module is pure like the rest of ``scoring``: the caller
hands in each game's events and the store's times of them (for the time played), and
gets plain data back.

What counts (docs/rules.md, «Statistics»):

- a *game* is a game with at least one round on the sheet; *finished* games are those the
  rules ended, and only they have a winner (a draw has none); *wins* count finished
  games;
- *Matches made / received*: rounds in which the player's team took every trick, or the
  other team did (team variants only);
- *average points per contract*: the card points of a round (with the last trick's 5 and
  a Match's 100, before the multiplier, so contracts compare), in team variants of the
  rounds the player's team announced (Schieben included: the team chose), in games of
  each for themselves of every round, their own points;
- *best Weis*: the highest Weis the player declared that their team wrote;
- *time played*: the time between a game's events, leaving out pauses longer than
  ``PAUSE_S`` (a break, a night between two evenings is not play);
- the *Bergpreis* (a table habit): the first team whose total is over half the target;
  within the round that brings it there, the blocks are added in the game's end order, as
  for the target itself (``scoring.ending.decide``). A game continued from paper with a
  team already over half has no Bergpreis here (it was won on paper).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from scoring.ending import decide, over_target
from scoring.events import CONTRACTS, Event, GameConfigured
from scoring.game import GameState, fold

#: A silence between two events longer than this is a pause, not play (seconds).
PAUSE_S: Final[float] = 20 * 60
#: Variants played in two teams of two (partners sit opposite: seats 0+2 and 1+3).
TEAM_VARIANTS: Final[frozenset[str]] = frozenset({"schieber", "coiffeur"})
#: Variants played to a target, where the first team over half of it wins the Bergpreis.
TARGET_VARIANTS: Final[frozenset[str]] = frozenset({"schieber"})


def name_key(name: str) -> str:
    """The same player however the name was typed: spaces collapsed, case ignored."""
    return " ".join(name.split()).casefold()


def _tidy(name: str) -> str:
    return " ".join(name.split())


def play_seconds(times: Sequence[float], pause: float = PAUSE_S) -> float:
    """Seconds played: the sum of the gaps between consecutive events, pauses left out."""
    return float(sum(b - a for a, b in zip(times, times[1:], strict=False) if 0 <= b - a <= pause))


def _half(target: int, rule: str) -> int:
    """The total that is «over half the target», as a whole-number target for ``decide``:
    with ``reached`` a total of at least target/2, with ``exceeded`` more than target/2."""
    return -(-target // 2) if rule == "reached" else target // 2


def bergpreis(state: GameState) -> int | None:
    """The team that first got over half the target (Bergpreis), or None (not yet, a tie
    that no block separates, a game of each for themselves, or passed on paper)."""
    cfg = state.config
    if cfg.variant not in TARGET_VARIANTS:
        return None
    half = _half(cfg.target, cfg.target_rule)
    prior = cfg.prior_totals or (0, 0)
    if any(over_target(p, half, cfg.target_rule) for p in prior):
        return None  # a team was over half on paper already
    before = (prior[0], prior[1])
    for row in state.sheet:
        decision = decide(before, row.written, half, cfg.end_order, cfg.target_rule)
        if decision is not None:
            return decision.winner
        before = (row.totals[0].total, row.totals[1].total)
    return None


@dataclass(frozen=True)
class BestWeis:
    """A player's best written Weis: its points (before the multiplier) and its name."""

    points: int
    label: str
    game: int


@dataclass
class SeatFigures:
    """What one seat did in one game."""

    matches_made: int = 0
    matches_received: int = 0
    #: contract -> card points of each round counted for it (see the module docstring)
    points: dict[str, list[int]] = field(default_factory=dict)
    best_weis: BestWeis | None = None


@dataclass(frozen=True)
class GameSummary:
    """One game as the statistics see it (everything from its fold and its event times)."""

    game: int
    created: str | None
    variant: str
    players: tuple[str, ...]
    #: the sides that play against each other: two teams of seats, or four single seats
    sides: tuple[tuple[int, ...], ...]
    rounds: int
    finished: bool
    abandoned: bool
    #: the winning side(s): one team, the seats sharing first place; empty on a draw or unfinished
    winners: tuple[int, ...]
    #: per side: the total (team variants) or the player's total
    totals: tuple[int, ...]
    seconds: float
    bergpreis: int | None
    seats: tuple[SeatFigures, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "created": self.created,
            "variant": self.variant,
            "players": list(self.players),
            "sides": [[self.players[s] for s in side] for side in self.sides],
            "rounds": self.rounds,
            "finished": self.finished,
            "abandoned": self.abandoned,
            "winners": [[self.players[s] for s in self.sides[w]] for w in self.winners],
            "totals": list(self.totals),
            "seconds": round(self.seconds),
            "bergpreis": None if self.bergpreis is None else [self.players[s] for s in self.sides[self.bergpreis]],
        }


def summarize(
    game: int,
    events: Sequence[Event],
    times: Sequence[float] = (),
    *,
    created: str | None = None,
    abandoned: bool = False,
) -> GameSummary:
    """Fold one game and say what it means for its players."""
    state = fold(events)
    cfg = state.config
    team_game = cfg.variant in TEAM_VARIANTS
    sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3)) if team_game else ((0,), (1,), (2,), (3,))
    seats = tuple(SeatFigures() for _ in range(4))
    by_index = {r.index: r for r in state.rounds}
    for row in state.sheet:
        played = by_index.get(row.round)
        for seat, figures in enumerate(seats):
            team = seat % 2
            if team_game and row.match_team is not None:
                if row.match_team == team:
                    figures.matches_made += 1
                else:
                    figures.matches_received += 1
            if played is None:
                continue
            if team_game:
                if played.declarer % 2 == team:
                    figures.points.setdefault(row.contract, []).append(played.score.raw[team].tricks)
            else:
                figures.points.setdefault(row.contract, []).append(played.score.player_points[seat])
        if played is not None:
            for weis in played.weis:
                mine = seats[weis.seat]
                if weis.status == "counts" and (mine.best_weis is None or weis.points > mine.best_weis.points):
                    mine.best_weis = BestWeis(weis.points, weis.label, game)
    return GameSummary(
        game=game,
        created=created,
        variant=cfg.variant,
        players=tuple(cfg.players),
        sides=sides,
        rounds=len(state.sheet),
        finished=state.game_over is not None,
        abandoned=abandoned,
        winners=_winners(state, sides),
        totals=_totals(state, team_game),
        seconds=play_seconds(times),
        bergpreis=bergpreis(state),
        seats=seats,
    )


def _winners(state: GameState, sides: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    over = state.game_over
    if over is None:
        return ()
    if len(sides) == 2:
        return () if over.winner is None else (over.winner,)
    return tuple(sorted(seat for seat, place in zip(over.ranking, over.places, strict=True) if place == 1))


def _totals(state: GameState, team_game: bool) -> tuple[int, ...]:
    if team_game:
        return (state.totals[0].total, state.totals[1].total)
    return tuple(state.player_totals)


# -- adding up ---------------------------------------------------------------------------


@dataclass
class Figures:
    """One player's or one pair's statistics over the games counted."""

    names: tuple[str, ...]
    games: int = 0
    finished: int = 0
    wins: int = 0
    #: games in which this player's (pair's) team got the Bergpreis
    bergpreise: int = 0
    matches_made: int = 0
    matches_received: int = 0
    seconds: float = 0.0
    points: dict[str, list[int]] = field(default_factory=dict)
    best_weis: BestWeis | None = None
    last_game: int = 0

    def add(self, summary: GameSummary, side: int, seats: Sequence[int]) -> None:
        self.games += 1
        self.finished += int(summary.finished)
        self.wins += int(side in summary.winners)
        self.bergpreise += int(summary.bergpreis == side)
        self.seconds += summary.seconds
        self.last_game = max(self.last_game, summary.game)
        # a pair's team figures are the same for both seats: count them once
        team_figures = summary.seats[seats[0]]
        self.matches_made += team_figures.matches_made
        self.matches_received += team_figures.matches_received
        for contract, values in team_figures.points.items():
            self.points.setdefault(contract, []).extend(values)
        for seat in seats:
            best = summary.seats[seat].best_weis
            if best is not None and (self.best_weis is None or best.points > self.best_weis.points):
                self.best_weis = best

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "bergpreise": self.bergpreise,
            "matches_made": self.matches_made,
            "matches_received": self.matches_received,
            "seconds": round(self.seconds),
            "average_points": {
                c: round(sum(v) / len(v), 1)
                for c in (*CONTRACTS, *sorted(set(self.points) - set(CONTRACTS)))
                if (v := self.points.get(c))
            },
            "rounds_counted": {c: len(v) for c, v in self.points.items()},
            "best_weis": None
            if self.best_weis is None
            else {"points": self.best_weis.points, "label": self.best_weis.label, "game": self.best_weis.game},
        }


@dataclass(frozen=True)
class TableStatistics:
    """Per player, per pair (partners in a team game) and per game; players by most games."""

    players: tuple[Figures, ...]
    pairs: tuple[Figures, ...]
    games: tuple[GameSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": [p.to_dict() for p in self.players],
            "pairs": [p.to_dict() for p in self.pairs],
            "games": [g.to_dict() for g in self.games],
        }


def table_statistics(
    summaries: Iterable[GameSummary], anonymous: Callable[[str], bool] = lambda name: False
) -> TableStatistics:
    """Add the games up per player (by ``name_key``) and per pair of partners.

    Games without a written round count for nobody. ``anonymous(name)``: a seat left at
    its placeholder name («Spieler 3»), which is nobody in particular and left out.
    """
    players: dict[str, Figures] = {}
    pairs: dict[tuple[str, str], Figures] = {}
    counted: list[GameSummary] = []
    for summary in sorted(summaries, key=lambda s: s.game):
        if summary.rounds == 0:
            continue
        counted.append(summary)
        names = summary.players
        for index, side in enumerate(summary.sides):
            for seat in side:
                if anonymous(names[seat]):
                    continue
                key = name_key(names[seat])
                figures = players.setdefault(key, Figures(()))
                figures.names = (_tidy(names[seat]),)  # the latest spelling
                figures.add(summary, index, (seat,))
            if len(side) == 2 and not any(anonymous(names[s]) for s in side):
                ordered = sorted(side, key=lambda s: name_key(names[s]))
                pair_key = (name_key(names[ordered[0]]), name_key(names[ordered[1]]))
                if pair_key[0] == pair_key[1]:
                    continue
                pair = pairs.setdefault(pair_key, Figures(()))
                pair.names = tuple(_tidy(names[s]) for s in ordered)
                pair.add(summary, index, tuple(ordered))
    order = sorted(players.values(), key=lambda f: (-f.games, -f.last_game, name_key(f.names[0])))
    pair_order = sorted(pairs.values(), key=lambda f: (-f.games, -f.last_game, [name_key(n) for n in f.names]))
    return TableStatistics(tuple(order), tuple(pair_order), tuple(counted))


def known_players(
    configs: Iterable[tuple[int, GameConfigured]], anonymous: Callable[[str], bool] = lambda name: False
) -> list[str]:
    """Every player's name once (latest spelling), the most recent game's players first."""
    latest: dict[str, tuple[int, str]] = {}
    for game, cfg in configs:
        for name in cfg.players:
            if anonymous(name):
                continue
            key = name_key(name)
            if key not in latest or latest[key][0] <= game:
                latest[key] = (game, _tidy(name))
    return [name for _game, name in sorted(latest.values(), key=lambda item: (-item[0], name_key(item[1])))]
