"""Comparing what the tracker saw with a recording's ground truth, the way the table would.

The camera only sees cards and tricks; a recording's ground truth also holds what it
cannot see (the round's contract, Weis, Stöck). :func:`merge` puts those truth-only events
into the camera's event list at the same logical place (after the same number of camera
events), then both lists are folded by the rules engine and compared trick by trick and
round by round. Events the rules engine refuses are dropped and counted, exactly as the
store would refuse them.

Pure: events in, numbers out (used by ``jasscam replay --compare`` and the benchmark).
"""

from __future__ import annotations

import bisect
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scoring.events import CardCorrected, CardPlayed, Event, EventVoided, MisplayRuled, RoundStarted, TrickCollected
from scoring.game import GameState, RoundState, RuleError, fold
from vision.detection import FrameDetections

CAMERA_EVENTS = (CardPlayed, TrickCollected)
#: Seconds before a trick's first card came to rest and after it was collected in which a
#: read of one of its cards still counts as the camera having read it (``never_read``).
READ_MARGIN_S = 0.5


def camera_cards(event: Event) -> int:
    """How many of the truth's cards and collections the camera's ``event`` stands for.

    A trick swept with a seat's card never read (``unseen``) stands for that card too:
    the truth counted it, and an entry placed after it by the count alone would wait for
    a card that never comes (a Stöck call after a missed card would land one card late).
    """
    if isinstance(event, TrickCollected):
        return 1 + len(event.unseen)
    return 1 if isinstance(event, CardPlayed) else 0


@dataclass(frozen=True)
class TrickCheck:
    round: int
    index: int
    truth: tuple[tuple[int, str], ...]
    seen: tuple[tuple[int, str], ...]
    truth_winner: int
    seen_winner: int | None

    @property
    def ok(self) -> bool:
        """Four cards, their seats and the winner all right."""
        return self.truth == self.seen and self.truth_winner == self.seen_winner


@dataclass(frozen=True)
class RoundCheck:
    round: int
    contract: str
    truth_points: tuple[int, int]
    seen_points: tuple[int, int] | None
    truth_written: tuple[int, int]
    seen_written: tuple[int, int] | None

    @property
    def exact(self) -> bool:
        return self.truth_points == self.seen_points and self.truth_written == self.seen_written


@dataclass
class Comparison:
    tricks: list[TrickCheck] = field(default_factory=list)
    rounds: list[RoundCheck] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    #: (position in the merged list, reason) for events the rules engine refused.
    rejected: list[tuple[int, str]] = field(default_factory=list)
    cards_truth: int = 0
    cards_seen: int = 0
    cards_unmatched: int = 0
    asked: int = 0  # cards emitted with alternatives (the dashboard would ask)
    corrected: int = 0  # card_corrected events the camera sent (the tracker's rereads)
    collections: int = 0  # trick_collected events the camera reported
    collectors_named: int = 0  # ... naming a seat
    collectors_right: int = 0  # ... naming the truth's collector
    #: Flags the rules engine raised on the camera's game that it did not raise on the truth.
    extra_flags: dict[str, int] = field(default_factory=dict)

    @property
    def tricks_right(self) -> int:
        return sum(1 for t in self.tricks if t.ok)

    @property
    def rounds_exact(self) -> int:
        return sum(1 for r in self.rounds if r.exact)

    def latency(self, q: float) -> float | None:
        """The q-quantile (0.5 = median) of card latencies in seconds, None without cards."""
        if not self.latencies:
            return None
        data = sorted(self.latencies)
        if q == 0.5:
            return float(statistics.median(data))
        k = min(len(data) - 1, max(0, round(q * (len(data) - 1))))
        return data[k]

    def summary(self) -> dict[str, object]:
        med, p95 = self.latency(0.5), self.latency(0.95)
        return {
            "tricks": len(self.tricks),
            "tricks_right": self.tricks_right,
            "rounds": len(self.rounds),
            "rounds_exact": self.rounds_exact,
            "cards_truth": self.cards_truth,
            "cards_seen": self.cards_seen,
            "cards_unmatched": self.cards_unmatched,
            "asked": self.asked,
            "corrected": self.corrected,
            "rejected_events": len(self.rejected),
            "collections": self.collections,
            "collectors_named": self.collectors_named,
            "collectors_right": self.collectors_right,
            "extra_flags": dict(self.extra_flags),
            "latency_median_s": None if med is None else round(med, 3),
            "latency_p95_s": None if p95 is None else round(p95, 3),
        }


def merge(truth: Sequence[Event], camera: Sequence[Event]) -> list[Event]:
    """The camera's events with the truth's camera-blind events at the same logical place.

    A truth event that is not a card or a collection goes after as many camera cards and
    collections as preceded it in the truth (so a Weis stays in its seat's first trick
    however late the camera reported the card; a collection with ``unseen`` seats counts
    for their cards as well, so a Stöck call after a missed card still follows its own
    card), and a round's start before any camera
    event after its time too (a card of the round before that the camera missed must not
    move it); camera events beyond the truth's come last. A camera ``card_corrected`` (the
    tracker's reread) points into the camera's list; its ``ref`` is renumbered to where
    that event lands.
    """
    out: list[Event] = []
    cam = list(camera)
    # A card the camera withdrew (taken back) is no card of the truth's.
    withdrawn = {ev.ref for ev in cam if isinstance(ev, EventVoided)}
    landed: dict[int, int] = {}  # camera position -> merged position
    used = taken = seen_in_truth = 0

    def take() -> None:
        nonlocal used, taken
        ev = cam[used]
        if isinstance(ev, (CardCorrected, EventVoided, MisplayRuled)):
            ev = replace(ev, ref=landed[ev.ref])
        landed[used] = len(out)
        out.append(ev)
        if used not in withdrawn:
            taken += camera_cards(ev)
        used += 1

    for ev in truth:
        if isinstance(ev, CAMERA_EVENTS):
            seen_in_truth += 1
            continue
        # A round's start also waits for no camera event after its time: the table enters it
        # between the rounds, so the store has it before every card seen after it, however
        # many cards of the round before the camera missed (by the count alone it would land
        # late and put this round's lead into the round before). Nor does it go after the
        # count: a lead laid before the contract was entered is timed before it.
        until = ev.t if isinstance(ev, RoundStarted) else None
        while (
            used < len(cam)
            and (taken < seen_in_truth or not isinstance(cam[used], CAMERA_EVENTS))
            and (until is None or (at := getattr(cam[used], "t", None)) is None or at <= until)
        ):
            take()
        out.append(ev)
    while used < len(cam):
        take()
    return out


def fold_accepting(events: Sequence[Event]) -> tuple[GameState, list[tuple[int, str]], list[Event]]:
    """Fold, dropping each event the rules engine refuses (as the store would).

    Returns the state, the refused (position, reason) pairs and the accepted list.
    """
    kept = list(events)
    positions = list(range(len(events)))
    rejected: list[tuple[int, str]] = []
    while True:
        try:
            return fold(kept), rejected, kept
        except RuleError as exc:
            if exc.ref is None or not 0 <= exc.ref < len(kept):
                raise
            rejected.append((positions[exc.ref], str(exc)))
            del kept[exc.ref]
            del positions[exc.ref]


def compare(truth: Sequence[Event], camera: Sequence[Event]) -> Comparison:
    """Compare the camera's events (merged with the truth's blind events) with the truth."""
    result = Comparison()
    truth_state = fold(truth)
    merged = merge(truth, camera)
    seen_state, rejected, accepted = fold_accepting(merged)
    result.rejected = rejected
    for r_truth in _all_rounds(truth_state):
        r_seen = _round_at(seen_state, r_truth.index)
        for trick in r_truth.tricks:
            seen_trick = r_seen.tricks[trick.index] if r_seen and trick.index < len(r_seen.tricks) else None
            result.tricks.append(
                TrickCheck(
                    round=r_truth.index,
                    index=trick.index,
                    truth=tuple((c.seat, c.card) for c in trick.cards),
                    seen=tuple((c.seat, c.card) for c in seen_trick.cards) if seen_trick else (),
                    truth_winner=trick.winner,
                    seen_winner=seen_trick.winner if seen_trick else None,
                )
            )
        if r_truth.complete:
            ok_seen = r_seen is not None and r_seen.complete
            result.rounds.append(
                RoundCheck(
                    round=r_truth.index,
                    contract=r_truth.contract,
                    truth_points=r_truth.score.card_points,
                    seen_points=r_seen.score.card_points if ok_seen and r_seen is not None else None,
                    truth_written=_written(r_truth),
                    seen_written=_written(r_seen) if ok_seen and r_seen is not None else None,
                )
            )
    result.latencies, result.cards_unmatched = _latencies(truth, merged)
    result.cards_truth = sum(1 for e in truth if isinstance(e, CardPlayed))
    result.cards_seen = sum(1 for e in camera if isinstance(e, CardPlayed))
    result.asked = sum(1 for e in camera if isinstance(e, CardPlayed) and e.alternatives)
    result.corrected = sum(1 for e in camera if isinstance(e, CardCorrected))
    seen_collects = [e for e in camera if isinstance(e, TrickCollected)]
    truth_collects = [e for e in truth if isinstance(e, TrickCollected)]
    result.collections = len(seen_collects)
    result.collectors_named = sum(1 for e in seen_collects if e.seat is not None)
    result.collectors_right = sum(
        1 for s, t in zip(seen_collects, truth_collects, strict=False) if s.seat is not None and s.seat == t.seat
    )
    truth_flags = Counter(f.code for f in truth_state.flags)
    seen_flags = Counter(f.code for f in seen_state.flags)
    result.extra_flags = {k: v for k, v in sorted((seen_flags - truth_flags).items())}
    return result


def never_read(truth: Sequence[Event], frames: Sequence[FrameDetections]) -> set[tuple[int, int]]:
    """The tricks, as (round, trick) in :class:`TrickCheck`'s numbering, with a card that no
    detection read as itself while the trick was on the table (from its first card coming
    to rest until it was collected, ``READ_MARGIN_S`` either side).

    Why: a tracker can only name such a card by deduction, so a trick lost with one is a
    loss of the reads (a card hidden under the next one, or always misread), not of the
    tracker's rules. The benchmark reports the two apart, so that neither hides the other.
    """
    tricks: list[tuple[int, int, list[CardPlayed], float]] = []
    round_no, trick_no = -1, 0
    cards: list[CardPlayed] = []
    for ev in truth:
        if isinstance(ev, RoundStarted):
            round_no, trick_no, cards = round_no + 1, 0, []
        elif isinstance(ev, CardPlayed):
            cards.append(ev)
        elif isinstance(ev, TrickCollected) and cards:
            tricks.append((max(round_no, 0), trick_no, cards, ev.t if ev.t is not None else cards[-1].t or 0.0))
            trick_no, cards = trick_no + 1, []
    times = [f.t for f in frames]
    out: set[tuple[int, int]] = set()
    for rnd, index, laid, collected in tricks:
        start = min(c.t if c.t is not None else collected for c in laid) - READ_MARGIN_S
        lo, hi = bisect.bisect_left(times, start), bisect.bisect_right(times, collected + READ_MARGIN_S)
        read = {d.card for f in frames[lo:hi] for d in f.detections}
        if any(c.card not in read for c in laid):
            out.add((rnd, index))
    return out


def _all_rounds(state: GameState) -> list[RoundState]:
    rounds = list(state.rounds)
    if state.round is not None and all(r.index != state.round.index for r in rounds):
        rounds.append(state.round)
    return rounds


def _round_at(state: GameState, index: int) -> RoundState | None:
    for r in _all_rounds(state):
        if r.index == index:
            return r
    return None


def _written(r: RoundState) -> tuple[int, int]:
    return (r.score.written[0].total, r.score.written[1].total)


#: A camera event further than this from the truth card's time is a different card that
#: was misread as this one, not a late or early report of it.
MATCH_WINDOW_S = (-3.0, 5.0)


def _latencies(truth: Sequence[Event], seen: Sequence[Event]) -> tuple[list[float], int]:
    """Seconds from each truth card (its ``t``) to the camera's event for the same card.

    Cards are matched per round by id, and only within ``MATCH_WINDOW_S`` of the truth
    card's time; a truth card the camera never reported (missed, or misread as another
    card) counts as unmatched, so a misread never passes for a very late event.
    """

    def by_round(events: Sequence[Event]) -> list[dict[str, float | None]]:
        # A card the camera withdrew (taken back, and laid again later) is timed by the
        # event that counts.
        voided = {ev.ref for ev in events if isinstance(ev, EventVoided)}
        rounds: list[dict[str, float | None]] = []
        for pos, ev in enumerate(events):
            if isinstance(ev, RoundStarted):
                rounds.append({})
            elif isinstance(ev, CardPlayed) and rounds and pos not in voided:
                rounds[-1].setdefault(ev.card, ev.t)
        return rounds

    t_rounds, s_rounds = by_round(truth), by_round(seen)
    out: list[float] = []
    unmatched = 0
    lo, hi = MATCH_WINDOW_S
    for i, cards in enumerate(t_rounds):
        seen_cards = s_rounds[i] if i < len(s_rounds) else {}
        for card, t in cards.items():
            s = seen_cards.get(card)
            if t is None or s is None or not lo <= s - t <= hi:
                unmatched += 1
                continue
            out.append(s - t)
    return out, unmatched
