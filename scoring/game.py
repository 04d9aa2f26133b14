"""The game as a fold over its event list: ``fold(events) -> GameState``.

Replay, undo and crash recovery are one path: :func:`fold` first *resolves* the list
(``event_voided`` removes an event, ``card_corrected`` replaces a card, ``misplay_ruled``
attaches a ruling to a card), then folds the remaining events in order. The result is a
frozen :class:`GameState` with a JSON form (:meth:`GameState.to_dict`) for the dashboard.

Two kinds of problems, kept strictly apart:

**Errors** (:class:`RuleError`, a ``ValueError``): the event cannot apply at all, so the
store must reject it whole: anything before ``game_configured`` or a second one; a
``card_played``/``weis_declared``/``trick_collected`` with no round running; a 37th card
in a round (a trick closes by itself after four cards, so a "fifth card" is the next
trick's lead; only the 37th card has nowhere to go); a seat laying a second card in the
same trick; collecting a trick that is not complete (unless the camera names the one seat
whose card it never saw); a new round after the game is over;
a ``ref`` that points forward or at an event of the wrong type; declared Weis cards that
form no Weis; a Speck round whose contract is not its Bodentrumpf's suit.

**Flags** (:class:`Flag` in ``GameState.flags``): the event is recorded, the game goes
on, and the table decides (usually with a ``card_corrected``, ``event_voided`` or
``misplay_ruled`` event): card out of turn, card already played this round, illegal card
(not following suit, not following trump, undertrumping; detected as soon as the same
hand later shows the card it kept back), Stöck too early/late/by the wrong seat/without
trump, Weis late or not in the hand, trick collected by someone other than the winner,
an unfinished round abandoned by a new ``round_started``, a Speck game not summing to 157,
a trick collected with a card the camera never saw (and, when the rest of the round
showed which card it was, that it was filled in).

**A card the camera never saw.** A ``trick_collected`` with ``unseen`` closes a trick of
three cards: the trick waits for its fourth card while the round goes on, counted
provisionally from the three (winner, points) and flagged ``card_unseen``. The card comes
from the table (a ``card_corrected`` whose ``ref`` is that ``trick_collected``) or, once
the round's other 35 cards are known, it is the one card nobody else played
(``card_deduced``); with two or three missing, the one way of handing out the unplayed
cards under which everybody followed suit (``_deduce_several``). Either way it is put
back where its seat's turn was, and the fold runs again, so the lead suit, the winner,
the next trick's lead, Stöck and the legality checks all see the card where it was laid.

Seats play 0, 1, 2, 3 (counter-clockwise); teams are 0+2 and 1+3.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.cards import CARD_INDEX
from scoring.events import (
    BLOCKS,
    CardCorrected,
    CardPlayed,
    Event,
    EventError,
    EventVoided,
    ForecastMade,
    GameConfigured,
    MisplayRuled,
    RoundEntered,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
    event_to_dict,
    parse_event,
)
from scoring.rules import (
    LAST_TRICK_BONUS,
    card_points,
    card_suit,
    legal_cards,
    next_seat,
    partner_of,
    play_contract,
    trick_winner,
    trump_suit,
    turn_order,
)
from scoring.state import (
    WEIS_LATE_AFTER_TRICKS,
    Blocks,
    Flag,
    GameOver,
    GameState,
    PlayedCard,
    RoundScore,
    RoundState,
    SheetRow,
    Trick,
    WeisEntry,
)
from scoring.stoeck import StoeckTracker
from scoring.variants import Schieber, Taken, Variant, VariantRuleError, Written, variant_for
from scoring.variants.base import DoneRound, entered_taken
from scoring.variants.base import declarer_of as _declarer_of
from scoring.variants.differenzler import penalties
from scoring.variants.speck import SPECK_RULE, speck_standings
from scoring.weis import Declared, WeisError, evaluate, evaluate_each, judge

SPECK_GAME_POINTS = 157


class RuleError(ValueError):
    """An event that cannot apply; ``ref`` is its position in the list (if known)."""

    def __init__(self, message: str, ref: int | None = None) -> None:
        super().__init__(message if ref is None else f"event {ref}: {message}")
        self.ref = ref


# --------------------------------------------------------------------------- resolution


@dataclass(frozen=True)
class Resolved:
    """The list after voids and corrections: (position, event) pairs and the rulings.

    ``fills``: the table's card for a trick collected with an unseen card, by the
    position of that ``trick_collected``: (position of the correction, the card).
    """

    events: tuple[tuple[int, Event], ...]
    rulings: dict[int, str]
    fills: dict[int, tuple[int, CardPlayed]] = field(default_factory=dict)


def voided_positions(events: Sequence[Event]) -> set[int]:
    """Positions that an ``event_voided`` takes out.

    Read from the end backwards, so a void that is itself voided takes nothing out:
    voiding a void restores its target (redo). The one place this is decided; the
    dashboard's history crosses out what this returns.
    """
    voided: set[int] = set()
    for pos in range(len(events) - 1, -1, -1):
        ev = events[pos]
        if pos not in voided and isinstance(ev, EventVoided):
            voided.add(ev.ref)
    return voided


def resolve(events: Sequence[Event]) -> Resolved:
    """Apply ``event_voided``, ``card_corrected`` and ``misplay_ruled`` by position.

    Voids are taken from the end backwards, so voiding a void restores its target (redo).
    A correction replaces the card (and seat, if given) of a ``card_played``; the latest
    correction wins. Voided corrections and rulings have no effect. A correction of a
    ``trick_collected`` with an ``unseen`` card supplies that card (``Resolved.fills``).
    """
    for pos, ev in enumerate(events):
        if isinstance(ev, (EventVoided, CardCorrected, MisplayRuled)):
            if ev.ref >= pos:
                raise RuleError(f"ref {ev.ref} must point to an earlier event", pos)
            target = events[ev.ref]
            fills_gap = (
                isinstance(ev, CardCorrected) and isinstance(target, TrickCollected) and target.unseen is not None
            )
            if isinstance(ev, (CardCorrected, MisplayRuled)) and not isinstance(target, CardPlayed) and not fills_gap:
                what = (
                    "a card_played or a trick_collected with an unseen card"
                    if isinstance(ev, CardCorrected)
                    else "a card_played"
                )
                raise RuleError(f"ref {ev.ref} is a {target.type}, not {what}", pos)
            if (
                isinstance(ev, CardCorrected)
                and isinstance(target, TrickCollected)
                and ev.seat not in (None, target.unseen)
            ):
                raise RuleError(
                    f"the card never seen in that trick is seat {target.unseen}'s, not seat {ev.seat}'s", pos
                )
    voided = voided_positions(events)
    corrected: dict[int, CardPlayed] = {}
    rulings: dict[int, str] = {}
    fills: dict[int, tuple[int, CardPlayed]] = {}
    for pos, ev in enumerate(events):
        if pos in voided:
            continue
        gap = events[ev.ref] if isinstance(ev, CardCorrected) else None
        if isinstance(ev, CardCorrected) and isinstance(gap, TrickCollected) and gap.unseen is not None:
            fills[ev.ref] = (pos, CardPlayed(seat=gap.unseen, card=ev.card, t=gap.t, source="manual"))
        elif isinstance(ev, CardCorrected):
            target = corrected.get(ev.ref, events[ev.ref])
            assert isinstance(target, CardPlayed)
            corrected[ev.ref] = replace(target, card=ev.card, seat=target.seat if ev.seat is None else ev.seat)
        elif isinstance(ev, MisplayRuled):
            rulings[ev.ref] = ev.ruling
    out = tuple(
        (pos, corrected.get(pos, ev))
        for pos, ev in enumerate(events)
        if pos not in voided and not isinstance(ev, (EventVoided, CardCorrected, MisplayRuled))
    )
    return Resolved(out, rulings, fills)


def card_position(events: Sequence[Event], card: str) -> int | None:
    """Position of the ``card_played`` that shows ``card`` in the round under way, after
    undo and corrections; None when this round has no such card.

    Why: the camera may reconsider a card it reported (a later, clearer read shows it was
    another card). It names the card it reported; a ``card_corrected`` must point at that
    event's position in this log, whatever else (contracts, Weis, phones) was stored
    between. Each card is played once per round, so the card names the event; should it
    appear twice (a misread the table has not fixed yet), the latest one is meant.
    """
    found: int | None = None
    for pos, ev in resolve(events).events:
        if isinstance(ev, RoundStarted):
            found = None
        elif isinstance(ev, CardPlayed) and ev.card == card:
            found = pos
    return found


# --------------------------------------------------------------------------- the fold


@dataclass
class _Decl:
    seat: int
    cards: tuple[str, ...]
    ref: int
    late: bool
    weis: list[Declared]
    not_in_hand: bool = False
    #: Indexes into ``weis`` of Weis the seat had declared before (not counted again).
    dups: set[int] = field(default_factory=set)


@dataclass
class _Round:
    index: int
    ref: int
    start: RoundStarted
    multiplier: int
    trump: str | None
    stoeck: StoeckTracker
    plays: list[PlayedCard] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    table: list[PlayedCard] = field(default_factory=list)
    decls: list[_Decl] = field(default_factory=list)
    checked: set[int] = field(default_factory=set)  # refs already flagged as illegal
    abandoned: bool = False
    #: Index into ``plays`` where each trick began (a trick with an unseen card has three).
    starts: list[int] = field(default_factory=list)
    #: Positions of cards the fold filled in as the one card nobody else played.
    deduced: set[int] = field(default_factory=set)
    #: The round was entered by hand (``round_entered``): no cards, its points as entered.
    entered: RoundEntered | None = None
    #: Differenzler: each seat's forecast (the latest before the first card) and its position.
    forecasts: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Position of the event that ended the round (its last card, its entry, or the next
    #: round's start when it was abandoned); None while it runs.
    ended: int | None = None

    @property
    def contract(self) -> str:
        return self.start.contract

    @property
    def complete(self) -> bool:
        return self.entered is not None or len(self.plays) == 36

    @property
    def trick_contract(self) -> str:
        """The contract the next trick to close is played in (Slalom changes trick by trick)."""
        return play_contract(self.contract, len(self.tricks))

    @property
    def open_trick(self) -> list[PlayedCard]:
        return self.table if len(self.table) < 4 else []

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.start.forehand

    def expected_seat(self) -> int | None:
        if self.complete:
            return None
        trick = self.open_trick
        if not trick:
            if self.tricks and self.tricks[-1].unseen is not None and len(self.tricks[-1].cards) < 4:
                return None  # the last trick's winner is not known yet: anyone may lead
            return self.leader
        seen = {p.seat for p in trick}
        seat = next_seat(trick[-1].seat)
        while seat in seen:
            seat = next_seat(seat)
        return seat

    def in_turn(self, seat: int) -> bool:
        """May ``seat`` lay the trick's next card without playing out of turn?

        The seat the play has come round to (``expected_seat``), or the seat whose turn
        it was from the trick's leader, which an early card left where it was (Speck
        2.8.6: «Eine zu früh gespielte Karte muss liegen bleiben»; 2.8.3: «Der Spieler,
        welcher an der Reihe gewesen wäre, muss ausspielen»). Without the second, the
        card of the player whose turn it was, laid after a card laid too early, would be
        flagged too; without the first, each card of a table playing on round from a
        wrong lead would be.
        """
        expected = self.expected_seat()
        if expected is None or seat == expected:
            return True
        trick = self.open_trick
        if not trick or (self.tricks and self.tricks[-1].unseen is not None and len(self.tricks[-1].cards) < 4):
            return False  # a lead, or the leader is not known: only the seat the play came round to
        seen = {p.seat for p in trick}
        return seat == next(s for s in turn_order(self.leader) if s not in seen)


#: Where a card goes back into the event list (position of a seen card, after it), the
#: position it carries, and the card.
Fill = tuple[tuple[int, bool], int, CardPlayed]


@dataclass(frozen=True)
class _Gap:
    """A trick collected with one card unseen, as the fold met it."""

    round: int
    ref: int  # position of its trick_collected
    leader: int
    seen: tuple[tuple[int, int], ...]  # (seat, position) of the three seen cards, in play order
    event: TrickCollected

    def anchor(self) -> tuple[int, bool]:
        """Where the unseen card was laid, as (position of a seen card, after it): right
        after the seen card of the turn before it, or before the first seen card when it
        led. Right after, so that what was said while it lay there (a Stöck call, a Weis)
        stays after it."""
        assert self.event.unseen is not None
        order = turn_order(self.leader)
        k = order.index(self.event.unseen)
        earlier = [ref for seat, ref in self.seen if order.index(seat) < k]
        return (earlier[-1], True) if earlier else (self.seen[0][1], False)


class _Folder:
    def __init__(self, rulings: dict[int, str]) -> None:
        self.rulings = rulings
        self.config: GameConfigured | None = None
        self.variant: Variant = Schieber(GameConfigured())
        self.rounds: list[_Round] = []
        self.flags: list[Flag] = []
        self.gaps: list[_Gap] = []
        #: Differenzler forecasts made before the round they are for has started.
        self.pending: dict[int, tuple[int, int]] = {}

    # -- helpers
    def flag(self, code: str, message: str, ref: int | None, seat: int | None = None, **kw: Any) -> None:
        rnd = self.rounds[-1].index if self.rounds else None
        if kw.get("rule") is None:
            kw["rule"] = self.variant.rule_of(code, leading=True)
        self.flags.append(Flag(code, message, ref, rnd, seat, **kw))

    def current(self, ref: int, what: str) -> _Round:
        if not self.rounds or self.rounds[-1].abandoned:
            raise RuleError(f"{what} before any round_started", ref)
        return self.rounds[-1]

    # -- events
    def apply(self, pos: int, ev: Event) -> None:
        if isinstance(ev, GameConfigured):
            if self.config is not None:
                raise RuleError("the game is already configured (one game_configured per game)", pos)
            try:  # built in code rather than parsed: check it as its JSON would be checked
                parse_event(event_to_dict(ev))
            except EventError as exc:
                raise RuleError(str(exc), pos) from None
            self.config = ev
            self.variant = variant_for(ev)
            return
        if self.config is None:
            raise RuleError(f"{ev.type} before game_configured; a game starts with game_configured", pos)
        if isinstance(ev, RoundStarted):
            self.round_started(pos, ev)
        elif isinstance(ev, CardPlayed):
            self.card_played(pos, ev)
        elif isinstance(ev, TrickCollected):
            self.trick_collected(pos, ev)
        elif isinstance(ev, WeisDeclared):
            self.weis_declared(pos, ev)
        elif isinstance(ev, StoeckCalled):
            self.stoeck_called(pos, ev)
        elif isinstance(ev, ForecastMade):
            self.forecast_made(pos, ev)
        elif isinstance(ev, RoundEntered):
            self.round_entered(pos, ev)
        else:  # pragma: no cover - resolve() removed the rest
            raise RuleError(f"unexpected event type {ev.type}", pos)

    def round_started(self, pos: int, ev: RoundStarted) -> None:
        self.open_round(pos, ev)

    def round_entered(self, pos: int, ev: RoundEntered) -> None:
        """A whole round entered by hand: opened and finished at once.

        A round started with no card yet is the one the table now enters (the camera saw
        the contract, then nothing): it is replaced, and its forecasts carry over.
        """
        prev = self.rounds[-1] if self.rounds else None
        replaces = prev is not None and not prev.plays and not prev.complete and not prev.abandoned
        forehand = ev.forehand
        if forehand is None:
            forehand = prev.start.forehand if replaces and prev is not None else self.next_forehand()
        if forehand is None:
            raise RuleError("round_entered: name the forehand of the game's first round", pos)
        start = RoundStarted(
            forehand=forehand, contract=ev.contract, declarer=ev.declarer, schoben=ev.schoben, row=ev.row, t=ev.t
        )
        self.open_round(pos, start, ev)

    def open_round(self, pos: int, ev: RoundStarted, entered: RoundEntered | None = None) -> None:
        over = self.game_over()
        if over is not None:
            raise RuleError(f"the game is over ({over.reason}); no new round", pos)
        try:
            self.variant.check_start(ev, ev.forehand, self.done_rounds())
            if entered is not None:
                self.variant.check_entry(entered)
        except VariantRuleError as exc:
            raise RuleError(str(exc), pos) from None
        if ev.declarer is not None:
            expected = partner_of(ev.forehand) if ev.schoben else ev.forehand
            if ev.declarer != expected:
                how = "after Schieben the partner of forehand" if ev.schoben else "without Schieben forehand"
                raise RuleError(f"declarer must be seat {expected}: {how} chooses the contract", pos)
        forecasts, self.pending = self.pending, {}
        prev = self.rounds[-1] if self.rounds else None
        if entered is not None and prev is not None and not prev.plays and not prev.complete and not prev.abandoned:
            self.rounds.pop()
            forecasts = {**prev.forecasts, **forecasts}
        elif prev is not None:
            prev.stoeck.on_round_end()
            self.stoeck_flush(prev)
            if prev.ended is None:
                prev.ended = pos
            if not prev.complete and not prev.abandoned:
                prev.abandoned = True
                self.flag(
                    "round_abandoned",
                    f"Runde {prev.index + 1} nach {len(prev.plays)} Karten abgebrochen (nicht gewertet)",
                    prev.ref,
                )
        if self.rounds:
            want = self.next_forehand()
            if want is not None and ev.forehand != want:
                self.flag(
                    "forehand_order", f"Vorhand wäre Platz {want}, nicht {ev.forehand}", pos, ev.forehand, other=want
                )
        mult = self.variant.multiplier(ev.contract, ev.row)
        trump = trump_suit(play_contract(ev.contract))
        stoeck = StoeckTracker(trump, enabled=self.variant.weis_counts and entered is None)
        self.rounds.append(
            _Round(
                len(self.rounds),
                pos,
                ev,
                mult,
                trump,
                stoeck,
                entered=entered,
                forecasts=forecasts,
                ended=pos if entered is not None else None,
            )
        )

    def forecast_made(self, pos: int, ev: ForecastMade) -> None:
        """A Differenzler forecast: for the round started with no card yet, else the next one."""
        if not self.variant.forecasts:
            raise RuleError(f"forecast_made belongs to Differenzler, this game is {self.variant.name}", pos)
        most = self.variant.max_forecast()
        if ev.points > most:
            raise RuleError(f"a forecast is at most {most} points, got {ev.points}", pos)
        r = self.rounds[-1] if self.rounds else None
        if r is not None and not r.complete and not r.abandoned:
            if r.plays:
                raise RuleError(f"the forecasts of round {r.index + 1} closed with its first card", pos)
            r.forecasts[ev.seat] = (ev.points, pos)
            return
        over = self.game_over()
        if over is not None:
            raise RuleError(f"the game is over ({over.reason}); no more forecasts", pos)
        self.pending[ev.seat] = (ev.points, pos)

    def card_played(self, pos: int, ev: CardPlayed) -> None:
        r = self.current(pos, "card_played")
        if r.entered is not None:
            raise RuleError(f"round {r.index + 1} was entered by hand; start a new round first", pos)
        if r.complete:
            raise RuleError(f"round {r.index + 1} already has all 36 cards; start a new round first", pos)
        if not r.plays and self.variant.forecasts:
            self.forecasts_closed(r, pos)
        if len(r.table) == 4:
            r.table = []
        if any(p.seat == ev.seat for p in r.table):
            raise RuleError(f"seat {ev.seat} already laid a card in this trick", pos)
        expected = r.expected_seat()
        if expected is not None and not r.in_turn(ev.seat):
            leading = not r.table
            lead = "ausgespielt" if leading else "gespielt"
            rule = self.variant.rule_of("out_of_turn", leading)
            self.flag(
                "out_of_turn",
                f"Platz {ev.seat} hat {lead}, an der Reihe war Platz {expected}",
                pos,
                ev.seat,
                rule=rule,
                cards=(ev.card,),
                other=expected,
            )
        if ev.card in {p.card for p in r.plays}:
            self.flag(
                "card_already_played", f"{ev.card} wurde in dieser Runde schon gespielt", pos, ev.seat, cards=(ev.card,)
            )
        card = PlayedCard(ev.seat, ev.card, pos, self.rulings.get(pos) == "penalty")
        if ev.source == "deduced":
            r.deduced.add(pos)
        if not r.table:
            r.starts.append(len(r.plays))
        refused = r.stoeck.on_card(ev.seat, ev.card, pos)
        if refused is not None:
            self.flag(refused[2], refused[3], refused[0], refused[1])
        r.plays.append(card)
        r.table.append(card)
        self.check_legality(r, ev.seat)
        self.check_weis_cards(r)
        if len(r.table) == 4:
            self.lay_in_turn(r)
            self.close_trick(r)
        if r.complete:
            r.ended = pos
            self.round_complete(r)

    def forecasts_closed(self, r: _Round, pos: int) -> None:
        """The first card closes the forecasts: a seat without one is flagged (it counts 0)."""
        for seat in range(4):
            if seat not in r.forecasts:
                self.flag(
                    "forecast_missing",
                    f"Platz {seat} hat vor der ersten Karte keine Prognose abgegeben (zählt als 0)",
                    pos,
                    seat,
                )

    def lay_in_turn(self, r: _Round) -> None:
        """Keep a full trick in turn order from its rightful leader, whatever order its cards were seen in.

        Why: a trick is played in turn from the last trick's winner; a wrong lead is taken
        back and the rightful leader leads (Speck 2.8.3), a card played too early stays
        (2.8.6). The order the cards arrive in is the order the camera saw them, and it
        sees a card late when a hand lies over it or when it lies almost on another card.
        Taken as played, a lead seen late would give the trick the second card's suit (and
        perhaps the wrong winner). The ``out_of_turn`` flag raised when the card came stays
        for the table to check; legality is judged again against the rightful lead. When
        nobody knows who leads (the last trick's unseen card is not filled in yet), the
        order seen stands.
        """
        if r.tricks and r.tricks[-1].unseen is not None and len(r.tricks[-1].cards) < 4:
            return
        order = turn_order(r.leader)
        in_turn = sorted(r.table, key=lambda c: order.index(c.seat))
        if in_turn == r.table:
            return
        start = r.starts[-1]
        r.plays[start : start + 4] = in_turn
        r.table = in_turn
        refs = {c.ref for c in in_turn}
        self.flags = [f for f in self.flags if not (f.code in _ILLEGAL and f.ref in refs)]
        r.checked -= refs
        for seat in order:
            self.check_legality(r, seat)

    def close_trick(self, r: _Round) -> None:
        cards = tuple(r.table)
        idx = trick_winner([c.card for c in cards], r.contract, void=[c.void for c in cards], trick=len(r.tricks))
        last = len(r.tricks) == 8
        points = sum(card_points(c.card, r.contract) for c in cards) + (LAST_TRICK_BONUS if last else 0)
        r.tricks.append(Trick(len(r.tricks), cards, cards[0].seat, cards[idx].seat, points, last))

    def trick_collected(self, pos: int, ev: TrickCollected) -> None:
        r = self.current(pos, "trick_collected")
        if len(r.table) < 4:
            if not r.table:
                raise RuleError("no trick on the table to collect", pos)
            if ev.unseen is None or len(r.table) != 3 or ev.unseen in {p.seat for p in r.table}:
                raise RuleError(f"trick collected with only {len(r.table)} cards on the table", pos)
            self.collect_with_gap(r, pos, ev)
            return
        trick = r.tricks[-1]
        if trick.collected:
            raise RuleError("this trick was already collected", pos)
        r.tricks[-1] = replace(trick, collected=True)
        r.stoeck.on_collect()
        self.stoeck_flush(r)
        if ev.seat is not None and ev.seat % 2 != trick.winner % 2:
            self.flag(
                "wrong_collector",
                f"Platz {ev.seat} hat den Stich eingezogen, gewonnen hat Platz {trick.winner} (Karte richtig erkannt?)",
                pos,
                ev.seat,
                other=trick.winner,
                trick=trick.index,
            )
        r.table = []
        if ev.unseen is not None:
            filled = next((p for p in trick.cards if p.seat == ev.unseen), None)
            if filled is not None and filled.ref in r.deduced:
                self.flag(
                    "card_deduced",
                    f"Stich {trick.index + 1}: die Karte von Platz {ev.unseen} wurde nicht gesehen; "
                    f"aus den übrigen Karten der Runde ergibt sich {filled.card} (bitte prüfen)",
                    pos,
                    ev.unseen,
                    cards=(filled.card,),
                    trick=trick.index,
                )

    def collect_with_gap(self, r: _Round, pos: int, ev: TrickCollected) -> None:
        """Close a trick of three seen cards whose fourth (``ev.unseen``'s) is not known yet."""
        assert ev.unseen is not None
        cards = tuple(r.table)
        leader = r.leader
        idx = trick_winner([c.card for c in cards], r.contract, void=[c.void for c in cards], trick=len(r.tricks))
        last = len(r.tricks) == 8
        points = sum(card_points(c.card, r.contract) for c in cards) + (LAST_TRICK_BONUS if last else 0)
        trick = Trick(len(r.tricks), cards, leader, cards[idx].seat, points, last, collected=True, unseen=ev.unseen)
        r.tricks.append(trick)
        r.stoeck.on_collect()
        self.stoeck_flush(r)
        r.table = []
        order = turn_order(leader)
        refs = {c.ref for c in cards}
        if [c.seat for c in cards] == [seat for seat in order if seat != ev.unseen]:
            # In turn once the unseen card is counted: the skipped turn was that card.
            self.flags = [f for f in self.flags if not (f.code == "out_of_turn" and f.ref in refs)]
        # Cards laid after the unseen one followed a lead (or a trump) nobody saw: their
        # legality cannot be judged until it is known (the fold runs again then).
        after = {c.ref for c in cards if c.seat in order and order.index(c.seat) > order.index(ev.unseen)}
        r.checked |= after
        self.flags = [f for f in self.flags if not (f.code in _ILLEGAL and f.ref in after)]
        self.gaps.append(_Gap(r.index, pos, leader, tuple((c.seat, c.ref) for c in cards), ev))
        self.flag(
            "card_unseen",
            f"Stich {trick.index + 1}: die Karte von Platz {ev.unseen} wurde nicht erkannt; bitte eintragen "
            "(bis dahin zählt der Stich nur mit den drei gesehenen Karten)",
            pos,
            ev.unseen,
            trick=trick.index,
        )

    def next_fill(self, fills: dict[int, tuple[int, CardPlayed]]) -> Fill | None:
        """The first trick with an unseen card whose card is now known: where it goes
        (``_Gap.anchor``), its position and the card.

        Known from the table (``fills``), or as the one card of 36 nobody else played,
        once the round's nine tricks are collected and this is its only gap.
        """
        for gap in self.gaps:
            r = self.rounds[gap.round]
            card: tuple[int, CardPlayed] | None = fills.get(gap.ref)
            if card is None:
                others = [g for g in self.gaps if g.round == gap.round]
                left = set(CARD_INDEX) - {p.card for p in r.plays}
                if len(others) != 1 or len(r.tricks) < 9 or len(r.plays) != 35 or len(left) != 1:
                    continue
                unseen = gap.event.unseen
                assert unseen is not None
                card = (gap.ref, CardPlayed(seat=unseen, card=left.pop(), t=gap.event.t, source="deduced"))
            return gap.anchor(), card[0], card[1]
        return None

    def weis_declared(self, pos: int, ev: WeisDeclared) -> None:
        r = self.current(pos, "weis_declared")
        if not self.variant.weis_counts:
            self.flag("weis_not_in_variant", self.variant.no_weis_reason(), pos, ev.seat)
            return
        try:
            parts = evaluate_each(ev.weis) if ev.weis else evaluate(ev.cards)
        except WeisError as exc:
            raise RuleError(f"not a Weis: {exc}", pos) from None
        late = len(r.tricks) >= WEIS_LATE_AFTER_TRICKS
        if late:
            self.flag("weis_late", "Weis nach dem zweiten Stich angesagt: zählt nicht", pos, ev.seat)
        # A Weis this seat has already declared (in time) is not counted twice; the rest
        # of the event still counts.
        before = {
            w.weis.cards
            for d in r.decls
            if d.seat == ev.seat and not d.late
            for i, w in enumerate(d.weis)
            if i not in d.dups
        }
        dups = {i for i, w in enumerate(parts) if w.cards in before}
        if dups:
            self.flag("weis_duplicate", "dieser Weis wurde schon angesagt", pos, ev.seat)
        decl = _Decl(ev.seat, ev.all_cards, pos, late, [Declared(ev.seat, w, pos) for w in parts], dups=dups)
        r.decls.append(decl)
        self.check_weis_cards(r)

    def stoeck_called(self, pos: int, ev: StoeckCalled) -> None:
        if not self.variant.weis_counts:
            self.flag("stoeck_no_trump", self.variant.no_stoeck_reason(), pos, ev.seat)
            return
        r = self.current(pos, "stoeck_called")
        verdict = r.stoeck.on_call(ev.seat)
        if verdict is None:
            r.stoeck.accept(pos)
        elif not r.stoeck.defer(ev.seat, pos, verdict):
            self.flag(verdict[0], verdict[1], pos, ev.seat)

    def stoeck_flush(self, r: _Round) -> None:
        refused = r.stoeck.flush()
        if refused is not None:
            self.flag(refused[2], refused[3], refused[0], refused[1])

    # -- checks
    def check_legality(self, r: _Round, seat: int) -> None:
        """Re-judge this seat's earlier cards now that more of its hand is known.

        The hand a seat held when laying a card is that card plus everything it lays later
        in the round, so a revoke shows up as soon as the kept-back card appears.
        """
        mine = [i for i, p in enumerate(r.plays) if p.seat == seat]
        for n, i in enumerate(mine):
            play = r.plays[i]
            if play.ref in r.checked:
                continue
            hand = [r.plays[j].card for j in mine[n:]]
            start = max(k for k in r.starts if k <= i)
            before = [p.card for p in r.plays[start:i]]
            if play.card in legal_cards(hand, before, r.contract):
                continue
            code, message, evidence = _illegal_reason(play.card, hand, before, r.contract)
            ev_ref = next((r.plays[j].ref for j in mine[n + 1 :] if r.plays[j].card == evidence), None)
            r.checked.add(play.ref)
            self.flag(
                code,
                message,
                play.ref,
                seat,
                evidence_ref=ev_ref,
                cards=(play.card,) + ((evidence,) if evidence else ()),
            )

    def check_weis_cards(self, r: _Round) -> None:
        owner = {p.card: p.seat for p in r.plays}
        for d in r.decls:
            if d.not_in_hand:
                continue
            wrong = [c for c in d.cards if c in owner and owner[c] != d.seat]
            missing = r.complete and any(c not in owner or owner[c] != d.seat for c in d.cards)
            if wrong or missing:
                d.not_in_hand = True
                concerned = tuple(wrong) if wrong else tuple(c for c in d.cards if owner.get(c) != d.seat)
                what = ", ".join(concerned)
                self.flag(
                    "weis_not_in_hand",
                    f"Weis von Platz {d.seat}: {what} nicht in dieser Hand",
                    d.ref,
                    d.seat,
                    cards=concerned,
                )

    def round_complete(self, r: _Round) -> None:
        r.stoeck.on_round_counted()
        self.check_weis_cards(r)
        wrong_sum = self.variant.round_sum_flag(r.index, sum(t.points for t in r.tricks))
        if wrong_sum is not None:
            self.flag(wrong_sum[0], wrong_sum[1], r.ref)

    # -- derived
    def next_forehand(self) -> int | None:
        """Forehand of the next round: the seat after the last round's forehand (the deal
        moves one seat on, counter-clockwise like play); after a round left unfinished,
        the same forehand again (it is dealt anew). None before the first round."""
        if not self.rounds:
            return None
        last = self.rounds[-1]
        return next_seat(last.start.forehand) if last.complete and not last.abandoned else last.start.forehand

    def done_rounds(self) -> list[DoneRound]:
        """The finished rounds (complete, not abandoned), as the variant judges the game's end."""
        out: list[DoneRound] = []
        for r in self.rounds:
            if not r.complete or r.abandoned:
                continue
            score = self.score(r)
            out.append(DoneRound(r.index, r.contract, declarer_of(r.start), r.start.row, score[1], score[2]))
        return out

    def game_over(self) -> GameOver | None:
        return self.variant.game_over(self.done_rounds())

    def score(self, r: _Round) -> tuple[RoundScore, Written, tuple[int, int, int, int] | None]:
        """The round's score, as the variant writes it, and its Differenzler penalties (once over)."""
        score, written = _score(r, self.variant)
        pen = None
        if self.variant.forecasts and r.complete and not r.abandoned:
            pen = penalties(
                [f[0] if f else None for f in (r.forecasts.get(s) for s in range(4))], written.player_points
            )
        return score, written, pen

    def state(self, total: int, applied: int) -> GameState:
        cfg = self.config
        if cfg is None:
            raise RuleError("no game_configured event: an empty game has no state")
        rounds = tuple(self.round_state(r) for r in self.rounds)
        sheet: list[SheetRow] = []
        totals = self.variant.prior_blocks()
        ptot = self.variant.prior_players()
        over = self.game_over()
        for r in rounds:
            if not r.complete or r.abandoned:
                continue
            w = r.score.written
            totals = (totals[0] + w[0], totals[1] + w[1])
            ptot = _add4(ptot, r.score.player_points)
            sheet.append(
                SheetRow(
                    r.index,
                    r.contract,
                    r.multiplier,
                    w,
                    totals,
                    r.score.match_team,
                    r.score.last_trick_team,
                    r.score.player_points,
                    ptot,
                    r.by_hand,
                    r.row,
                    r.forecasts,
                    r.penalties,
                )
            )
        return GameState(
            config=cfg,
            variant=cfg.variant,
            events_total=total,
            events_applied=applied,
            round_index=rounds[-1].index if rounds else -1,
            round=rounds[-1] if rounds else None,
            rounds=rounds,
            sheet=tuple(sheet),
            totals=totals,
            player_totals=ptot,
            flags=tuple(self.flags),
            game_over=over,
            next_forehand=self.next_forehand(),
            pending_forecasts=(0 in self.pending, 1 in self.pending, 2 in self.pending, 3 in self.pending),
        )

    def round_state(self, r: _Round) -> RoundState:
        cfg = self.config
        assert cfg is not None
        score, _written, pen = self.score(r)
        entries, team = weis_entries(r, cfg, individual=self.variant.individual)
        over = r.complete or r.abandoned
        forecasts = given = None
        if self.variant.forecasts:
            # Secret until the round is over: the state never holds an open forecast.
            given = (0 in r.forecasts, 1 in r.forecasts, 2 in r.forecasts, 3 in r.forecasts)
            shown = [r.forecasts[s][0] if over and s in r.forecasts else None for s in range(4)]
            forecasts = (shown[0], shown[1], shown[2], shown[3])
        return RoundState(
            index=r.index,
            ref=r.ref,
            contract=r.contract,
            trump=r.trump,
            multiplier=r.multiplier,
            forehand=r.start.forehand,
            declarer=declarer_of(r.start),
            schoben=r.start.schoben,
            bodentrumpf=r.start.bodentrumpf,
            leader=None if r.complete else (r.open_trick[0].seat if r.open_trick else r.expected_seat()),
            to_play=None if r.abandoned else r.expected_seat(),
            trick=tuple(r.table),
            tricks=tuple(r.tricks),
            played=tuple(p.card for p in r.plays),
            complete=r.complete,
            abandoned=r.abandoned,
            weis=entries,
            weis_team=team,
            stoeck=r.stoeck.state(),
            score=score,
            by_hand=r.entered is not None,
            row=r.start.row,
            forecasts=forecasts,
            forecast_given=given,
            penalties=pen,
        )


#: Flags of a card that broke the follow rules (``_illegal_reason``).
_ILLEGAL = frozenset({"not_following_suit", "not_following_trump", "undertrump"})

#: Flag codes that are misplays under Speck Jass section 2.8: the table rules on each
#: (``misplay_ruled``); see ``scoring.speck.misplay_cards`` for the cards a ruling covers.
MISPLAY_CODES: frozenset[str] = frozenset(SPECK_RULE)


def _add4(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _illegal_reason(
    card: str, hand: Sequence[str], before: Sequence[str], contract: str
) -> tuple[str, str, str | None]:
    """Why ``card`` was not allowed: (flag code, German message, the kept-back card)."""
    trump = trump_suit(play_contract(contract))
    lead = card_suit(before[0])
    suit = card_suit(card)
    if trump is not None and lead != trump and suit == trump:
        other = next((c for c in hand if card_suit(c) != trump), None)
        return "undertrump", f"{card} untertrumpft, obwohl die Hand noch {other} hatte", other
    if trump is not None and lead == trump:
        kept = next((c for c in hand if card_suit(c) == trump and c != f"{trump}-under"), None)
        return "not_following_trump", f"{card} statt Trumpf gespielt, obwohl die Hand {kept} hatte", kept
    kept = next((c for c in hand if card_suit(c) == lead), None)
    return "not_following_suit", f"{card} gespielt, ohne Farbe zu bekennen ({kept} war in der Hand)", kept


def weis_entries(
    r: _Round, cfg: GameConfigured, *, individual: bool = False
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


def _taken(r: _Round, variant: Variant) -> Taken:
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


def _score(r: _Round, variant: Variant) -> tuple[RoundScore, Written]:
    taken = _taken(r, variant)
    w = variant.write(taken, r.multiplier)
    score = RoundScore(
        taken.card_points,
        taken.tricks_won,
        w.raw,
        w.written,
        w.match_team,
        taken.last_trick_team,
        taken.last_trick_seat,
        w.player_points,
    )
    return score, w


def score_round(r: _Round, cfg: GameConfigured) -> RoundScore:
    """Card points, last trick, Match, Weis and Stöck of a round (provisional while running),
    written as the game's variant writes them."""
    return _score(r, variant_for(cfg))[0]


def declarer_of(start: RoundStarted) -> int:
    """Who chose the contract: forehand, or after Schieben forehand's partner (the event
    may leave it out; when it names one, the fold has checked it against this)."""
    return _declarer_of(start, start.forehand)


def prior_blocks(cfg: GameConfigured) -> tuple[Blocks, Blocks]:
    """The Schieber totals the game starts from: the teams' ``prior_totals``, else 0."""
    return variant_for(cfg).prior_blocks()


def prior_players(cfg: GameConfigured) -> tuple[int, int, int, int]:
    """The Speck totals per seat the game starts from: ``prior_totals``, else 0."""
    return variant_for(cfg).prior_players()


def speck_ranking(games: Sequence[Sequence[int]], prior: Sequence[int] = (0, 0, 0, 0)) -> tuple[int, ...]:
    """The seats of :func:`speck_standings`, best first (equal seats in seat order)."""
    return tuple(r.index for r in speck_standings(games, prior))


def fold(events: Sequence[Event]) -> GameState:
    """Fold the whole event list into the game state; raises RuleError/EventError on a bad event.

    Each call starts from scratch (no hidden state), so replay, undo (``event_voided``),
    correction and crash recovery are all the same call.
    """
    res = resolve(events)
    return _folded(res).state(len(events), len(res.events))


def _folded(res: Resolved) -> _Folder:
    seq = list(res.events)
    while True:
        folder = _fold_seq(seq, res.rulings)
        fill = folder.next_fill(res.fills) or _deduce_several(folder, seq, res.rulings)
        if fill is None:
            return folder
        seq = _insert(seq, fill)


def hidden_forecasts(events: Sequence[Event]) -> set[int]:
    """Positions of ``forecast_made`` events whose round is not over: shown without points.

    A forecast belongs to the first round that ends after it (it is refused once its
    round's first card is down), so it stays hidden until that round is complete,
    entered by hand or abandoned. Voided forecasts count too: undoing a forecast must
    not reveal the number it took back.
    """
    forecasts = [i for i, ev in enumerate(events) if isinstance(ev, ForecastMade)]
    if not forecasts:
        return set()
    ends = sorted(r.ended for r in _folded(resolve(events)).rounds if r.ended is not None)
    return {i for i in forecasts if not any(end > i for end in ends)}


#: Rounds with this many tricks whose card was never seen (or fewer, but more than one)
#: are filled in by trying every way to hand the unplayed cards to those seats.
MAX_DEDUCED_GAPS = 3


def _fold_seq(seq: Sequence[tuple[int, Event]], rulings: dict[int, str]) -> _Folder:
    folder = _Folder(rulings)
    for pos, ev in seq:
        folder.apply(pos, ev)
    return folder


def _insert(seq: list[tuple[int, Event]], fill: Fill) -> list[tuple[int, Event]]:
    (anchor, after), pos, card = fill
    at = next(i for i, (p, ev) in enumerate(seq) if p == anchor and isinstance(ev, CardPlayed))
    return [*seq[: at + after], (pos, card), *seq[at + after :]]


def _deduce_several(folder: _Folder, seq: list[tuple[int, Event]], rulings: dict[int, str]) -> Fill | None:
    """A round over with two or three cards never seen: the one way of handing the unplayed
    cards to those seats under which every seat followed suit, if there is exactly one.

    Each way is tried by putting its cards back one trick at a time (each at its seat's
    turn, as the winner of the trick before says) and counting the follow-rule flags the
    round then raises; a way with fewer than every other is taken. Players do revoke now
    and then, so a tie (or one way as bad as another) is left to the table.
    """
    for r in folder.rounds:
        gaps = [g for g in folder.gaps if g.round == r.index]
        left = sorted(set(CARD_INDEX) - {p.card for p in r.plays}, key=CARD_INDEX.__getitem__)
        if not 2 <= len(gaps) <= MAX_DEDUCED_GAPS or len(r.tricks) < 9 or len(left) != len(gaps):
            continue
        counts: list[tuple[int, tuple[str, ...]]] = []
        for way in itertools.permutations(left):
            trial = seq
            try:
                for gap, card in zip(gaps, way, strict=True):
                    now = next(g for g in _fold_seq(trial, rulings).gaps if g.ref == gap.ref)
                    assert now.event.unseen is not None
                    trial = _insert(
                        trial,
                        (
                            now.anchor(),
                            gap.ref,
                            CardPlayed(seat=now.event.unseen, card=card, t=gap.event.t, source="deduced"),
                        ),
                    )
                flags = _fold_seq(trial, rulings).flags
            except RuleError:
                continue
            counts.append((sum(1 for f in flags if f.code in _ILLEGAL and f.round == r.index), way))
        counts.sort()
        if not counts or (len(counts) > 1 and counts[0][0] == counts[1][0]):
            continue
        first = gaps[0]
        assert first.event.unseen is not None
        return (
            first.anchor(),
            first.ref,
            CardPlayed(seat=first.event.unseen, card=counts[0][1][0], t=first.event.t, source="deduced"),
        )
    return None


def check_append(events: Sequence[Event], new: Event) -> GameState:
    """The state after appending ``new``; raises RuleError if it cannot apply (for the store)."""
    return fold([*events, new])


def parse_events(records: Iterable[dict[str, Any]]) -> list[Event]:
    """Parse JSON objects into events; an EventError names the position of the bad one."""
    out: list[Event] = []
    for i, rec in enumerate(records):
        try:
            out.append(parse_event(rec))
        except EventError as exc:
            raise EventError(f"event {i}: {exc}") from None
    return out


__all__ = [
    "BLOCKS",
    "Blocks",
    "Flag",
    "GameOver",
    "GameState",
    "MISPLAY_CODES",
    "PlayedCard",
    "RoundScore",
    "RoundState",
    "RuleError",
    "SheetRow",
    "Trick",
    "WeisEntry",
    "check_append",
    "fold",
    "parse_events",
    "resolve",
    "score_round",
    "voided_positions",
    "speck_ranking",
    "speck_standings",
]
