"""The fold's event handlers: each resolved event applied to the rounds played so far.

``scoring.resolution`` has already taken out voids and applied corrections, so each
handler sees the list as it counts and either raises ``RuleError`` (the event cannot
apply, the store rejects it) or records it, adding ``Flag`` s for the table to decide.
A trick with a card the camera never saw is closed with its three cards here and kept
as a ``Gap``; ``scoring.deduction`` later puts the card back and folds again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scoring.errors import RuleError
from scoring.events import (
    CardPlayed,
    Event,
    EventError,
    ForecastMade,
    GameConfigured,
    RoundEntered,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
    event_to_dict,
    parse_event,
)
from scoring.legality import ILLEGAL, check_legality, check_weis_cards
from scoring.round_play import Declaration, Gap, RoundRecord
from scoring.rules import (
    next_seat,
    partner_of,
    play_contract,
    trump_suit,
    turn_order,
)
from scoring.score import declarer_of, round_score
from scoring.state import WEIS_LATE_AFTER_TRICKS, Flag, GameOver, PlayedCard
from scoring.stoeck import StoeckTracker
from scoring.variants import Schieber, Variant, VariantRuleError, variant_for
from scoring.variants.base import DoneRound
from scoring.weis import Declared, WeisError, evaluate, evaluate_each

#: How the ``card_unseen`` flag names the cards a trick counts with until the rest are known.
SEEN_WORDS: dict[int, str] = {
    1: "der einen gesehenen Karte",
    2: "den zwei gesehenen Karten",
    3: "den drei gesehenen Karten",
}


class Folder:
    """Applies one resolved event at a time to the game so far; ``scoring.game.fold`` drives it.

    The rounds, the flags and the tricks with an unseen card are all it keeps. What
    differs between variants it asks ``self.variant``; what a round's play gave it asks
    ``scoring.score``; how a card or a Weis is judged, ``scoring.legality``.
    """

    def __init__(self, rulings: dict[int, str]) -> None:
        self.rulings = rulings
        self.config: GameConfigured | None = None
        self.variant: Variant = Schieber(GameConfigured())
        self.rounds: list[RoundRecord] = []
        self.flags: list[Flag] = []
        self.gaps: list[Gap] = []
        #: Differenzler forecasts made before the round they are for has started.
        self.pending: dict[int, tuple[int, int]] = {}

    # -- helpers
    def flag(self, code: str, message: str, ref: int | None, seat: int | None = None, **kw: Any) -> None:
        rnd = self.rounds[-1].index if self.rounds else None
        if kw.get("rule") is None:
            kw["rule"] = self.variant.rule_of(code, leading=True)
        self.flags.append(Flag(code, message, ref, rnd, seat, **kw))

    def current(self, ref: int, what: str) -> RoundRecord:
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
            RoundRecord(
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
                lead=True if leading else None,
            )
        if ev.card in {p.card for p in r.plays}:
            self.flag(
                "card_already_played", f"{ev.card} wurde in dieser Runde schon gespielt", pos, ev.seat, cards=(ev.card,)
            )
        card = PlayedCard(ev.seat, ev.card, pos, self.rulings.get(pos) == "penalty")
        if ev.seat_seen:
            r.seat_seen.add(pos)
        if ev.source == "deduced":
            r.deduced.add(pos)
        if not r.table:
            r.starts.append(len(r.plays))
        refused = r.stoeck.on_card(ev.seat, ev.card, pos)
        if refused is not None:
            self.flag(refused[2], refused[3], refused[0], refused[1])
        r.plays.append(card)
        r.table.append(card)
        check_legality(r, ev.seat, self.flag)
        check_weis_cards(r, self.flag)
        if len(r.table) == 4:
            self.lay_in_turn(r)
            self.close_trick(r)
        if r.complete:
            r.ended = pos
            self.round_complete(r)

    def forecasts_closed(self, r: RoundRecord, pos: int) -> None:
        """The first card closes the forecasts: a seat without one is flagged (it counts 0)."""
        for seat in range(4):
            if seat not in r.forecasts:
                self.flag(
                    "forecast_missing",
                    f"Platz {seat} hat vor der ersten Karte keine Prognose abgegeben (zählt als 0)",
                    pos,
                    seat,
                )

    def lay_in_turn(self, r: RoundRecord) -> None:
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

        It stands too when the camera saw another seat lead (``CardPlayed.seat_seen``) and
        the other three followed round from it: the table played the trick from that lead.
        Either nobody called the wrong lead back (2.8.3), or the last trick's winner was
        misread and that seat won it. Put back in turn, a trick the table played from
        another lead gets another lead suit and perhaps another winner, and every later
        trick is led by the wrong seat; as played, the flag on the lead tells the table
        which of the two it was.
        """
        if r.leader_unknown:
            return
        lead = r.table[0]
        if lead.ref in r.seat_seen and [c.seat for c in r.table] == turn_order(lead.seat):
            return
        order = turn_order(r.leader)
        in_turn = sorted(r.table, key=lambda c: order.index(c.seat))
        if in_turn == r.table:
            return
        start = r.starts[-1]
        r.plays[start : start + 4] = in_turn
        r.table = in_turn
        refs = {c.ref for c in in_turn}
        self.flags = [f for f in self.flags if not (f.code in ILLEGAL and f.ref in refs)]
        r.checked -= refs
        for seat in order:
            check_legality(r, seat, self.flag)

    def close_trick(self, r: RoundRecord) -> None:
        cards = tuple(r.table)
        r.tricks.append(r.next_trick(cards, cards[0].seat))

    def trick_collected(self, pos: int, ev: TrickCollected) -> None:
        r = self.current(pos, "trick_collected")
        if len(r.table) < 4:
            if not r.table:
                raise RuleError("no trick on the table to collect", pos)
            # Cards filled in for unseen seats lie on the table too, put back before this
            # event with its position or a later one; the rest are still missing.
            on_table = {p.seat: p.ref for p in r.table}
            seen = [s for s in ev.unseen if on_table.get(s, pos) < pos]
            if seen:
                raise RuleError(f"seat {seen[0]}'s card of this trick was seen: it cannot be unseen", pos)
            missing = tuple(s for s in ev.unseen if s not in on_table)
            if not missing or len(r.table) + len(missing) != 4:
                raise RuleError(f"trick collected with only {len(r.table)} cards on the table", pos)
            self.collect_with_gap(r, pos, ev, missing)
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
        for seat in ev.unseen:
            filled = next((p for p in trick.cards if p.seat == seat), None)
            if filled is not None and filled.ref in r.deduced:
                self.flag(
                    "card_deduced",
                    f"Stich {trick.index + 1}: die Karte von Platz {seat} wurde nicht gesehen; "
                    f"aus den übrigen Karten der Runde ergibt sich {filled.card} (bitte prüfen)",
                    pos,
                    seat,
                    cards=(filled.card,),
                    trick=trick.index,
                )

    def collect_with_gap(self, r: RoundRecord, pos: int, ev: TrickCollected, missing: tuple[int, ...]) -> None:
        """Close a trick whose ``missing`` seats' cards (unseen, not filled in yet) are not known."""
        cards = tuple(r.table)
        leader = r.leader
        trick = r.next_trick(cards, leader, unseen=missing)
        r.tricks.append(trick)
        r.stoeck.on_collect()
        self.stoeck_flush(r)
        r.table = []
        order = turn_order(leader)
        refs = {c.ref for c in cards}
        if [c.seat for c in cards] == [seat for seat in order if seat not in missing]:
            # In turn once the unseen cards are counted: the skipped turns were those cards.
            self.flags = [f for f in self.flags if not (f.code == "out_of_turn" and f.ref in refs)]
        # Cards laid after an unseen one followed a lead (or a trump) nobody saw: their
        # legality cannot be judged until it is known (the fold runs again then).
        first = min(order.index(s) for s in missing)
        after = {c.ref for c in cards if c.seat in order and order.index(c.seat) > first}
        r.checked |= after
        self.flags = [f for f in self.flags if not (f.code in ILLEGAL and f.ref in after)]
        seen = tuple((c.seat, c.ref) for c in cards)
        for seat in missing:
            self.gaps.append(Gap(r.index, pos, leader, seen, ev, seat))
            self.flag(
                "card_unseen",
                f"Stich {trick.index + 1}: die Karte von Platz {seat} wurde nicht erkannt; bitte eintragen "
                f"(bis dahin zählt der Stich nur mit {SEEN_WORDS[len(cards)]})",
                pos,
                seat,
                trick=trick.index,
            )

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
        decl = Declaration(ev.seat, ev.all_cards, pos, late, [Declared(ev.seat, w, pos) for w in parts], dups=dups)
        r.decls.append(decl)
        check_weis_cards(r, self.flag)

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

    def stoeck_flush(self, r: RoundRecord) -> None:
        refused = r.stoeck.flush()
        if refused is not None:
            self.flag(refused[2], refused[3], refused[0], refused[1])

    def round_complete(self, r: RoundRecord) -> None:
        r.stoeck.on_round_counted()
        check_weis_cards(r, self.flag)
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
            score = round_score(r, self.variant)
            out.append(DoneRound(r.index, r.contract, declarer_of(r.start), r.start.row, score[1], score[2]))
        return out

    def game_over(self) -> GameOver | None:
        return self.variant.game_over(self.done_rounds())


__all__ = ["Folder"]
