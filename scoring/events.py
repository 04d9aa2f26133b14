"""The event schema: the one contract between vision, the store, the rules and the web.

A game is an append-only list of events; everything else (rounds, tricks, Weis, Stöck,
totals, the Jasstafel) is a fold over that list (``scoring.game``). Each event is a
JSON object with ``"type"`` and ``"v"`` (schema version); ``parse_event`` validates one
and returns a frozen dataclass, or raises ``EventError`` naming the field, so a bad
event is rejected whole and never half-applied. Documented in docs/events.md.

Events refer to earlier events by their position in the game's list (``ref``, 0-based),
which never changes because the list is append-only.
"""

from __future__ import annotations

import json
import math
import numbers
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Final

from scoring.cards import CARD_INDEX, Card, UnknownCardError
from scoring.ending import TARGET_RULES, over_target

SCHEMA_VERSION: Final[int] = 1

CONTRACTS: Final[tuple[str, ...]] = ("eicheln", "schilten", "rosen", "schellen", "obenabe", "undenufe")
#: Contracts only Coiffeur rows play: Slalom (Obenabe and Undenufe trick by trick,
#: Obenabe first) and Misère (played as Obenabe, the team writes what it did not take).
ROW_ONLY_CONTRACTS: Final[tuple[str, ...]] = ("slalom", "misere")
#: Every contract a round may be played in (``CONTRACTS`` in every variant, the rest in Coiffeur).
ROUND_CONTRACTS: Final[tuple[str, ...]] = CONTRACTS + ROW_ONLY_CONTRACTS
VARIANTS: Final[tuple[str, ...]] = ("schieber", "speck", "coiffeur", "differenzler")
#: Variants where each of the four plays for themselves (scores per seat, not per team).
INDIVIDUAL_VARIANTS: Final[tuple[str, ...]] = ("speck", "differenzler")
#: Coiffeur's default rows, factor 1 up to 8 in this order.
DEFAULT_COIFFEUR_ROWS: Final[tuple[tuple[str, int], ...]] = (
    ("eicheln", 1),
    ("schellen", 2),
    ("rosen", 3),
    ("schilten", 4),
    ("obenabe", 5),
    ("undenufe", 6),
    ("slalom", 7),
    ("misere", 8),
)
#: The most points a forecast may name (Differenzler): every card and the last trick,
#: or with Weis and Stöck counted, a generous bound on what a hand can add.
MAX_FORECAST: Final[int] = 157
MAX_FORECAST_WITH_WEIS: Final[int] = 1000
BLOCKS: Final[tuple[str, ...]] = ("weis", "stoeck", "tricks")
MULTIPLIER_TABLES: Final[tuple[str, ...]] = ("default", "common", "ascending", "custom")
#: The camera image's edges, counter-clockwise as seen on screen.
IMAGE_EDGES: Final[tuple[str, ...]] = ("bottom", "right", "top", "left")


class EventError(ValueError):
    """An event that does not follow the schema; the message says which field and why."""


def _seat(value: Any, name: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise EventError(f"{name} must be a seat number 0..3, got {value!r}")
    return value


def _card(value: Any, name: str = "card") -> str:
    try:
        card = Card.parse(value)
    except UnknownCardError as exc:
        raise EventError(f"{name}: {exc}") from None
    return card.id


def _time(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise EventError(f"t must be a non-negative number of seconds, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class GameConfigured:
    """Starts a game: who sits where and which table rules apply."""

    players: tuple[str, ...] = ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4")
    variant: str = "schieber"
    target: int = 1000
    multipliers: str = "default"
    custom_multipliers: dict[str, int] | None = None
    end_order: tuple[str, ...] = BLOCKS
    weis_one_per_player: bool = False
    weis_needs_trick: bool = False
    speck_games: int = 12
    #: Speck Jass: the seat of the scorer (Schreiber, 2.5.1) and of the dealer of the
    #: first game (2.6.1: the Schreiber deals first); the deal then moves one seat on.
    scorer: int | None = None
    dealer: int | None = None
    #: 003 «Eine Karte kann nicht für mehrere Weise verwendet werden»: a player's Weis that
    #: shares a card with a stronger one of theirs is dropped.
    weis_card_once: bool = False
    #: ``reached`` (total >= target, the default) or ``exceeded`` (001 «überschreitet»: >).
    target_rule: str = "reached"
    #: A game continued from paper (the Jasstafel, or the totals written before a power
    #: cut): the totals so far, per team (Schieber, team 0 first) or per seat (Speck).
    prior_totals: tuple[int, ...] | None = None
    #: Speck: how many of the ``speck_games`` were played on paper before (their points
    #: are ``prior_totals``); the series ends after the rest is played here.
    prior_games: int = 0
    #: Which edge of the camera image each seat sits at, seat 0 first (the table's
    #: layout; the camera's evidence on who laid a card and who took a trick is read
    #: against it). None: not recorded, seat 0 at the bottom and play counter-clockwise.
    seat_edges: tuple[str, str, str, str] | None = None
    #: Coiffeur: the rows each team plays once, as (contract, factor) pairs in the order
    #: of the Tafel; None means ``DEFAULT_COIFFEUR_ROWS``.
    coiffeur_rows: tuple[tuple[str, int], ...] | None = None
    #: Coiffeur: points a Match adds to the row before its factor (100: 157 becomes 257).
    coiffeur_match_bonus: int = 100
    #: Coiffeur and Differenzler: whether Weis and Stöck count. None is the variant's
    #: default (Coiffeur yes, as in the Schieber; Differenzler no).
    count_weis: bool | None = None
    #: Differenzler: the rounds the game runs.
    differenzler_rounds: int = 12
    t: float | None = None
    type: str = field(default="game_configured", init=False)

    @property
    def rows(self) -> tuple[tuple[str, int], ...]:
        """Coiffeur's rows as played: the set ones, else the default eight."""
        return self.coiffeur_rows if self.coiffeur_rows is not None else DEFAULT_COIFFEUR_ROWS

    @property
    def weis_counts(self) -> bool:
        """Whether Weis and Stöck count in this game (Schieber always, Speck never)."""
        if self.variant == "schieber":
            return True
        if self.variant == "speck":
            return False
        if self.count_weis is not None:
            return self.count_weis
        return self.variant == "coiffeur"


@dataclass(frozen=True)
class RoundStarted:
    """A new round (Speck: a new game) with its contract.

    ``forehand`` leads the first trick; ``declarer`` chose the contract (the partner of
    forehand after Schieben). In Speck Jass the contract comes from ``bodentrumpf``.
    """

    forehand: int
    contract: str
    declarer: int | None = None
    schoben: bool = False
    bodentrumpf: str | None = None
    #: Coiffeur: the row (index into ``GameConfigured.rows``) the declarer's team plays;
    #: ``contract`` is that row's contract.
    row: int | None = None
    t: float | None = None
    type: str = field(default="round_started", init=False)


@dataclass(frozen=True)
class CardPlayed:
    """A card laid into the current trick by ``seat``.

    ``alternatives`` lists other ids the camera found plausible, with confidence, so the
    table can be asked; ``source`` is ``camera`` or ``manual``.
    """

    seat: int
    card: str
    t: float | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[str, float], ...] = ()
    source: str = "camera"
    type: str = field(default="card_played", init=False)


@dataclass(frozen=True)
class TrickCollected:
    """The four cards left the table; ``seat`` is who the camera saw collect them.

    ``unseen``: the camera saw the trick swept with only three cards read; this seat's
    card was never seen. The rules engine keeps the trick open for that card (the table
    enters it, or it is the one card of the round nobody else played) instead of letting
    the next trick's lead fill the gap and shift every later trick.
    """

    seat: int | None = None
    t: float | None = None
    unseen: int | None = None
    type: str = field(default="trick_collected", init=False)


@dataclass(frozen=True)
class WeisDeclared:
    """Weis announced by ``seat`` during the first trick, with the cards they are made of.

    ``weis`` names each Weis on its own, a list of card lists, so one card may serve a
    sequence and a four of a kind at once (000 «Ein Kartenblatt darf gleichzeitig zu
    einer Sequenz und zu einem Vierling gehören»). The older form ``cards`` is one flat
    list that the engine splits into the Weis it contains; it is still read. An event
    has one of the two.
    """

    seat: int
    cards: tuple[str, ...] = ()
    weis: tuple[tuple[str, ...], ...] = ()
    t: float | None = None
    type: str = field(default="weis_declared", init=False)

    @property
    def all_cards(self) -> tuple[str, ...]:
        """Every card of the declaration once, in deck order."""
        found = set(self.cards) | {c for group in self.weis for c in group}
        return tuple(sorted(found, key=CARD_INDEX.__getitem__))


@dataclass(frozen=True)
class StoeckCalled:
    """``seat`` said «Stöck»; the engine judges whether it came in time."""

    seat: int
    t: float | None = None
    type: str = field(default="stoeck_called", init=False)


@dataclass(frozen=True)
class CardCorrected:
    """The card of the ``card_played`` event at position ``ref`` was really ``card``."""

    ref: int
    card: str
    seat: int | None = None
    t: float | None = None
    type: str = field(default="card_corrected", init=False)


@dataclass(frozen=True)
class EventVoided:
    """Undo: the event at position ``ref`` no longer counts."""

    ref: int
    t: float | None = None
    type: str = field(default="event_voided", init=False)


@dataclass(frozen=True)
class MisplayRuled:
    """Speck Jass 2.8: the table's ruling on a flagged misplay.

    ``ruling`` is ``penalty`` (the card loses its trick value, as section 2.8 says) or
    ``ignore`` (the table lets it stand).
    """

    ref: int
    ruling: str
    t: float | None = None
    type: str = field(default="misplay_ruled", init=False)


@dataclass(frozen=True)
class ForecastMade:
    """Differenzler: ``seat`` forecasts the points it will take this round.

    Secret until the round ends: ``GameState.to_dict`` shows only that a seat has
    forecast, and ``scoring.differenzler.hidden_positions`` names the events a screen
    must not show yet. Made before the round's first card (for the round about to be
    played: the one started with no card yet, else the next); a seat's later forecast
    before that card replaces its earlier one.
    """

    seat: int
    points: int
    t: float | None = None
    type: str = field(default="forecast_made", init=False)


@dataclass(frozen=True)
class RoundEntered:
    """A whole round written by hand (the camera was off or missed it).

    ``points`` are the card points (with the last trick) that ``team`` took; the other
    team took 157 - ``points``. ``match``: ``team`` took all nine tricks (``points`` is
    then 157 and the team writes 257). Speck and Differenzler give ``player_points``
    instead (per seat, adding up to 157). ``weis`` is what each team (per seat in
    Differenzler) writes for Weis, ``stoeck`` the team (seat) with Stöck. The engine
    writes it as it writes a round the camera saw: the factor, Misère's reversal, the
    Coiffeur row.
    """

    contract: str
    forehand: int | None = None
    declarer: int | None = None
    schoben: bool = False
    row: int | None = None
    team: int | None = None
    points: int | None = None
    match: bool = False
    player_points: tuple[int, int, int, int] | None = None
    weis: tuple[int, ...] = ()
    stoeck: int | None = None
    t: float | None = None
    type: str = field(default="round_entered", init=False)


Event = (
    GameConfigured
    | RoundStarted
    | CardPlayed
    | TrickCollected
    | WeisDeclared
    | StoeckCalled
    | CardCorrected
    | EventVoided
    | MisplayRuled
    | ForecastMade
    | RoundEntered
)

EVENT_TYPES: Final[dict[str, type]] = {
    cls.__dataclass_fields__["type"].default: cls  # type: ignore[misc]
    for cls in (
        GameConfigured,
        RoundStarted,
        CardPlayed,
        TrickCollected,
        WeisDeclared,
        StoeckCalled,
        CardCorrected,
        EventVoided,
        MisplayRuled,
        ForecastMade,
        RoundEntered,
    )
}


#: The longest player name, in characters (a name is shown on every phone and score sheet).
MAX_NAME: Final[int] = 60


def _check_clean(value: Any, where: str) -> None:
    """Refuse values JSON cannot carry: NaN and Infinity (``JSON.parse`` fails on them in
    every browser, so a stored game would break every phone) and lone surrogates (not
    encodable as UTF-8, so neither storable nor sendable)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise EventError(f"{where} must be a finite number, got {value!r}")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise EventError(f"{where} is not valid text (it holds a lone surrogate)") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_clean(key, where)
            _check_clean(item, f"{where}.{key}")
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_clean(item, where)


def _prior_totals(config: dict[str, Any]) -> tuple[int, ...]:
    """Prior totals: whole points >= 0, one per team (Schieber) or per seat (Speck), and
    in the Schieber below the target, checked as the target is: a game already won on
    paper is not continued."""
    speck = config.get("variant", "schieber") == "speck"
    want = 4 if speck else 2
    prior = config["prior_totals"]
    if (
        not isinstance(prior, (list, tuple))
        or len(prior) != want
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in prior)
    ):
        who = "four whole numbers >= 0, one per seat" if speck else "two whole numbers >= 0, team 1 first"
        raise EventError(f"prior_totals must be {who}, got {prior!r}")
    if not speck:
        target, rule = config.get("target", 1000), config.get("target_rule", "reached")
        done = [i + 1 for i, p in enumerate(prior) if over_target(p, target, rule)]
        if done:
            word = "reaches" if rule == "reached" else "exceeds"
            raise EventError(
                f"prior_totals: team {done[0]} already {word} the target {target} ({prior[done[0] - 1]}); "
                "that game is over, start a new one"
            )
    return tuple(prior)


def _prior_games(config: dict[str, Any]) -> int:
    """Speck games played on paper: fewer than the series, and their points add up to
    157 each (2.5.3, the check games x 157), or the sheet they come from has a mistake."""
    prior = config.get("prior_games", 0)
    if isinstance(prior, bool) or not isinstance(prior, int) or prior < 0:
        raise EventError(f"prior_games must be a whole number >= 0, got {prior!r}")
    if config.get("variant", "schieber") != "speck":
        if prior:
            raise EventError("prior_games belongs to Speck Jass (a Schieber game carries only prior_totals)")
        return 0
    games = config.get("speck_games", 12)
    if prior >= games:
        raise EventError(f"prior_games: {prior} of {games} games already played on paper; the series is over")
    points = sum(config.get("prior_totals") or ())
    if points != prior * 157:
        raise EventError(
            f"prior_totals add up to {points}, but {prior} games played on paper make {prior} x 157 = {prior * 157} "
            "(2.5.3); check the sheet" + ("" if prior else ", and give prior_games, the number of games on it")
        )
    return prior


def _card_list(value: Any, name: str) -> tuple[str, ...]:
    """A non-empty list of different card ids, returned in deck order."""
    if not isinstance(value, (list, tuple)) or not value:
        raise EventError(f"{name} must be a non-empty list of card ids")
    ids = tuple(_card(c, name) for c in value)
    if len(set(ids)) != len(ids):
        raise EventError(f"{name}: the cards of a Weis must be different cards")
    return tuple(sorted(ids, key=CARD_INDEX.__getitem__))


def _ref(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EventError(f"ref must be the position of an earlier event (int >= 0), got {value!r}")
    return value


def _validate(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """Check and normalise the fields of one event type; raise EventError on the first fault."""
    out: dict[str, Any] = dict(data)
    if "t" in out:
        out["t"] = _time(out["t"])
    if cls is GameConfigured:
        players = out.get("players", GameConfigured.players)
        if (
            not isinstance(players, (list, tuple))
            or len(players) != 4
            or not all(isinstance(p, str) and p.strip() for p in players)
        ):
            raise EventError("players must be a list of four non-empty names, seat 0 first")
        out["players"] = tuple(p.strip() for p in players)
        for seat, name in enumerate(out["players"]):
            if len(name) > MAX_NAME:
                raise EventError(f"the name of seat {seat} is longer than {MAX_NAME} characters")
        if out.get("variant", "schieber") not in VARIANTS:
            raise EventError(f"variant must be one of {', '.join(VARIANTS)}, got {out.get('variant')!r}")
        target = out.get("target", 1000)
        if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
            raise EventError(f"target must be a positive whole number of points, got {target!r}")
        if out.get("multipliers", "default") not in MULTIPLIER_TABLES:
            raise EventError(
                f"multipliers must be one of {', '.join(MULTIPLIER_TABLES)}, got {out.get('multipliers')!r}"
            )
        custom = out.get("custom_multipliers")
        if out.get("multipliers") == "custom":
            if (
                not isinstance(custom, dict)
                or set(custom) != set(CONTRACTS)
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in custom.values())
            ):
                raise EventError(
                    "custom_multipliers must give a positive whole factor for each of " + ", ".join(CONTRACTS)
                )
        elif custom is not None:
            raise EventError("custom_multipliers is only allowed with multipliers 'custom'")
        order = tuple(out.get("end_order", BLOCKS))
        if sorted(order) != sorted(BLOCKS):
            raise EventError(f"end_order must order the blocks {', '.join(BLOCKS)}, got {list(order)!r}")
        out["end_order"] = order
        if out.get("target_rule", "reached") not in TARGET_RULES:
            raise EventError(f"target_rule must be one of {', '.join(TARGET_RULES)}, got {out.get('target_rule')!r}")
        for flag in ("weis_one_per_player", "weis_needs_trick", "weis_card_once"):
            if flag in out and not isinstance(out[flag], bool):
                raise EventError(f"{flag} must be true or false")
        games = out.get("speck_games", 12)
        if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
            raise EventError(f"speck_games must be a positive whole number, got {games!r}")
        for key in ("scorer", "dealer"):
            if out.get(key) is not None:
                out[key] = _seat(out[key], key)
        _variant_settings(out)
        if out.get("prior_totals") is not None:
            if out.get("variant") in ("coiffeur", "differenzler"):
                raise EventError(f"prior_totals: a {out['variant']} game cannot be continued from paper")
            out["prior_totals"] = _prior_totals(out)
        if "prior_games" in out or out.get("variant") == "speck":
            out["prior_games"] = _prior_games(out)
        edges = out.get("seat_edges")
        if edges is not None:
            if not isinstance(edges, (list, tuple)) or sorted(edges) != sorted(IMAGE_EDGES):
                raise EventError(
                    f"seat_edges must name each image edge ({', '.join(IMAGE_EDGES)}) once, seat 0 first, got {edges!r}"
                )
            out["seat_edges"] = tuple(edges)
    elif cls is RoundStarted:
        out["forehand"] = _seat(out.get("forehand"), "forehand")
        _round_head(out)
        if out.get("bodentrumpf") is not None:
            out["bodentrumpf"] = _card(out["bodentrumpf"], "bodentrumpf")
    elif cls is ForecastMade:
        out["seat"] = _seat(out.get("seat"))
        out["points"] = _whole(out.get("points"), "points", MAX_FORECAST_WITH_WEIS)
    elif cls is RoundEntered:
        if out.get("forehand") is not None:
            out["forehand"] = _seat(out["forehand"], "forehand")
        _round_head(out)
        _entered_points(out)
    elif cls is CardPlayed:
        out["seat"] = _seat(out.get("seat"))
        out["card"] = _card(out.get("card"))
        conf = out.get("confidence")
        if conf is not None:
            if isinstance(conf, bool) or not isinstance(conf, numbers.Real) or not 0 <= float(conf) <= 1:
                raise EventError(f"confidence must be between 0 and 1, got {conf!r}")
            out["confidence"] = float(conf)
        alts = out.get("alternatives", ())
        try:
            out["alternatives"] = tuple((_card(a[0], "alternatives"), float(a[1])) for a in alts)
        except (TypeError, IndexError, ValueError) as exc:
            if isinstance(exc, EventError):
                raise
            raise EventError("alternatives must be a list of [card, confidence] pairs") from None
        if out.get("source", "camera") not in ("camera", "manual"):
            raise EventError(f"source must be 'camera' or 'manual', got {out.get('source')!r}")
    elif cls is TrickCollected:
        if out.get("seat") is not None:
            out["seat"] = _seat(out["seat"])
        if out.get("unseen") is not None:
            out["unseen"] = _seat(out["unseen"], "unseen")
    elif cls is WeisDeclared:
        out["seat"] = _seat(out.get("seat"))
        if ("cards" in out) == ("weis" in out):
            raise EventError(
                "weis_declared needs either weis (a list of Weis, each a list of card ids) or cards, not both"
            )
        if "cards" in out:
            out["cards"] = _card_list(out["cards"], "cards")
        else:
            groups = out["weis"]
            if not isinstance(groups, (list, tuple)) or not groups:
                raise EventError("weis must be a non-empty list of Weis, each a list of card ids")
            out["weis"] = tuple(_card_list(g, f"weis[{i}]") for i, g in enumerate(groups))
            if len(set(out["weis"])) != len(out["weis"]):
                raise EventError("weis lists the same Weis twice")
    elif cls is StoeckCalled:
        out["seat"] = _seat(out.get("seat"))
    elif cls is CardCorrected:
        out["ref"] = _ref(out.get("ref"))
        out["card"] = _card(out.get("card"))
        if out.get("seat") is not None:
            out["seat"] = _seat(out["seat"])
    elif cls is EventVoided:
        out["ref"] = _ref(out.get("ref"))
    elif cls is MisplayRuled:
        out["ref"] = _ref(out.get("ref"))
        if out.get("ruling") not in ("penalty", "ignore"):
            raise EventError(f"ruling must be 'penalty' or 'ignore', got {out.get('ruling')!r}")
    return out


def _whole(value: Any, name: str, most: int | None = None) -> int:
    """A whole number >= 0 (and at most ``most``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (most is not None and value > most):
        bound = f" and at most {most}" if most is not None else ""
        raise EventError(f"{name} must be a whole number >= 0{bound}, got {value!r}")
    return value


def _round_head(out: dict[str, Any]) -> None:
    """The fields a played and an entered round share: contract, declarer, Schieben, row."""
    if out.get("contract") not in ROUND_CONTRACTS:
        raise EventError(f"contract must be one of {', '.join(ROUND_CONTRACTS)}, got {out.get('contract')!r}")
    if out.get("declarer") is not None:
        out["declarer"] = _seat(out["declarer"], "declarer")
    if not isinstance(out.get("schoben", False), bool):
        raise EventError("schoben must be true or false")
    if out.get("row") is not None:
        out["row"] = _whole(out["row"], "row")


#: Weis a team can write in one round add up to one of these: every Weis is worth a
#: multiple of 10 from 20 on, so 10 and 30 cannot be made.
_NO_WEIS_SUM: Final[frozenset[int]] = frozenset({10, 30})


def _entered_points(out: dict[str, Any]) -> None:
    """A round entered by hand: one team's points (or every seat's), Weis and Stöck by value.

    Only the form is checked here; which of the two forms the variant takes, and the
    variant's own limits, the fold checks (``scoring.variants``).
    """
    team_form = out.get("team") is not None or out.get("points") is not None
    if team_form == (out.get("player_points") is not None):
        raise EventError(
            "round_entered needs team and points (a team game) or player_points (Speck, Differenzler), not both"
        )
    if team_form:
        out["team"] = _seat(out.get("team"), "team")
        if out["team"] > 1:
            raise EventError(f"team must be 0 or 1, got {out['team']!r}")
        out["points"] = _whole(out.get("points"), "points", 157)
        if not isinstance(out.get("match", False), bool):
            raise EventError("match must be true or false")
        if out.get("match") and out["points"] != 157:
            raise EventError(f"a Match is all nine tricks: its points are 157 (written 257), got {out['points']}")
    else:
        pp = out["player_points"]
        if not isinstance(pp, (list, tuple)) or len(pp) != 4:
            raise EventError("player_points must be four whole numbers, seat 0 first")
        out["player_points"] = tuple(_whole(v, "player_points", 157) for v in pp)
        if sum(out["player_points"]) != 157:
            raise EventError(f"player_points add up to {sum(out['player_points'])}; a round's points are 157")
        if out.get("match"):
            raise EventError("match belongs to a team's points (a player alone with all tricks still takes 157)")
    weis = out.get("weis", ())
    if not isinstance(weis, (list, tuple)) or len(weis) not in (0, 2, 4):
        raise EventError(
            "weis must list what each team writes for Weis (two numbers; four, one per seat, in Differenzler)"
        )
    out["weis"] = tuple(_whole(v, "weis") for v in weis)
    for v in out["weis"]:
        if v % 10 or v in _NO_WEIS_SUM:
            raise EventError(f"weis: {v} cannot be made of Weis (each is 20, 50, 100, 150, 200 or more)")
    if out.get("stoeck") is not None:
        out["stoeck"] = _seat(out["stoeck"], "stoeck")


def _variant_settings(out: dict[str, Any]) -> None:
    """The Coiffeur and Differenzler settings: each only in its own variant, in range."""
    variant = out.get("variant", "schieber")
    rows = out.get("coiffeur_rows")
    if rows is not None:
        if variant != "coiffeur":
            raise EventError("coiffeur_rows belongs to Coiffeur")
        if not isinstance(rows, (list, tuple)) or not rows:
            raise EventError("coiffeur_rows must be a non-empty list of [contract, factor] pairs")
        parsed: list[tuple[str, int]] = []
        for i, row in enumerate(rows):
            if not isinstance(row, (list, tuple)) or len(row) != 2 or row[0] not in ROUND_CONTRACTS:
                raise EventError(
                    f"coiffeur_rows[{i}] must be [contract, factor] with a contract of {', '.join(ROUND_CONTRACTS)}"
                )
            factor = row[1]
            if isinstance(factor, bool) or not isinstance(factor, int) or factor <= 0:
                raise EventError(f"coiffeur_rows[{i}]: the factor must be a positive whole number, got {factor!r}")
            parsed.append((row[0], factor))
        out["coiffeur_rows"] = tuple(parsed)
    if "coiffeur_match_bonus" in out:
        if variant != "coiffeur" and out["coiffeur_match_bonus"] != 100:
            raise EventError("coiffeur_match_bonus belongs to Coiffeur")
        out["coiffeur_match_bonus"] = _whole(out["coiffeur_match_bonus"], "coiffeur_match_bonus")
    if out.get("count_weis") is not None:
        if variant not in ("coiffeur", "differenzler"):
            raise EventError(
                "count_weis is a Coiffeur and Differenzler setting (the Schieber counts Weis, Speck never)"
            )
        if not isinstance(out["count_weis"], bool):
            raise EventError("count_weis must be true or false")
    if "differenzler_rounds" in out:
        rounds = out["differenzler_rounds"]
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds <= 0:
            raise EventError(f"differenzler_rounds must be a positive whole number, got {rounds!r}")
        if variant != "differenzler" and rounds != 12:
            raise EventError("differenzler_rounds belongs to Differenzler")


def parse_event(data: Any) -> Event:
    """Validate one event (a dict, as read from JSON) and return its dataclass."""
    if not isinstance(data, dict):
        raise EventError(f"an event must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r}; expected one of {', '.join(EVENT_TYPES)}")
    version = data.get("v", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise EventError(f"event schema version {version!r} is not supported (this build reads {SCHEMA_VERSION})")
    allowed = {f.name for f in fields(cls)}
    payload = {k: v for k, v in data.items() if k not in ("type", "v")}
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise EventError(f"{kind}: unknown field(s) {', '.join(unknown)}")
    for key, value in payload.items():
        _check_clean(value, key)
    payload = _validate(cls, payload)
    try:
        return cls(**payload)
    except TypeError as exc:
        raise EventError(f"{kind}: {exc}") from None


def _plain(value: Any) -> Any:
    """Plain JSON values: a producer may hand in numpy scalars (the recogniser does)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


#: Settings added after version 1 was first written, left out at their default so a log
#: that does not use them stays readable by a build that does not know them.
_LATER_DEFAULTS: Final[dict[str, Any]] = {
    "target_rule": "reached",
    "weis_card_once": False,
    "prior_games": 0,
    "coiffeur_match_bonus": 100,
    "differenzler_rounds": 12,
    "match": False,
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON form of an event (with ``type`` and ``v``), omitting unset optional fields."""
    raw = asdict(event)
    out: dict[str, Any] = {"type": raw.pop("type"), "v": SCHEMA_VERSION}
    for key, value in raw.items():
        if value is None or (isinstance(value, tuple) and not value):
            continue
        if key in _LATER_DEFAULTS and value == _LATER_DEFAULTS[key] and type(value) is type(_LATER_DEFAULTS[key]):
            continue
        out[key] = _plain(value)
    return out


def dumps(event: Event) -> str:
    return json.dumps(event_to_dict(event), ensure_ascii=False, sort_keys=True, allow_nan=False)


def loads(line: str) -> Event:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventError(f"not valid JSON: {exc}") from None
    return parse_event(data)
