"""Second thoughts on cards already counted: which read was the misread, and the rereads.

Why apart: each card is played once per round, so a clear read of a card already played
says one of two counts is wrong, and a card that counted on early reads may show itself
clearly for seconds after. Weighing a new read against the round's earlier counts, and
reporting a corrected card (``CardReread``), is a question about the round's votes, not
about where the cards lie.
"""

from __future__ import annotations

import math
from dataclasses import replace

from scoring.cards import CARD_INDEX
from vision.tracker.assignment import assign
from vision.tracker.identity import LAST_TRICK, Reading, resolve
from vision.tracker.ledger import TRICKS_PER_ROUND, Count
from vision.tracker.reread import CardReread
from vision.tracker.seats import Seats
from vision.tracker.state import TableState, TrackerEvent
from vision.tracker.tracks import Track

#: A reread names the earlier card's runner-up only if it had at least this share of that
#: card's vote: a card nobody read is not a correction, it is a guess.
MIN_REREAD_SHARE = 0.15
#: ... and only on a read of the new card that is at least this sure (share of its vote).
MIN_REREAD_READ = 0.5
#: How much likelier a naming of the round's cards that renames earlier ones must be than
#: the status quo before they are reread.
REREAD_ODDS = 2.0
#: Vote share assumed for a card a track was never read as (keeps the logarithm finite).
REREAD_FLOOR = 0.01


def shares(votes: dict[str, float]) -> dict[str, float]:
    """Each card id's share of a track's vote."""
    valid = {c: v for c, v in votes.items() if c in CARD_INDEX and v > 0}
    total = sum(valid.values())
    return {c: v / total for c, v in valid.items()} if total > 0 else {}


def likeliest(rows: list[dict[str, float]], columns: list[str]) -> tuple[list[str], list[list[float]]]:
    """The likeliest naming of the tracks whose vote shares are ``rows`` by distinct cards of
    ``columns`` (the product of the shares, a card nobody read at ``REREAD_FLOOR``), and the
    cost matrix it minimised (minus the logarithm of each share)."""
    cost = [[-math.log(max(row.get(c, 0.0), REREAD_FLOOR)) for c in columns] for row in rows]
    return [columns[j] for j in assign(cost)], cost


def rename_order(changes: dict[str, str]) -> list[tuple[str, str]] | None:
    """The renames in an order where each new name is free when it is applied (a chain
    a->b, b->c goes b->c first); None for a cycle, which names cannot express."""
    pending = dict(changes)
    out: list[tuple[str, str]] = []
    while pending:
        free = [was for was, now in pending.items() if now not in pending]
        if not free:
            return None
        for was in sorted(free):
            out.append((was, pending.pop(was)))
    return out


class Misreads:
    """Weighs reads against the round's counted cards and rereads the ones proved wrong."""

    def __init__(self, state: TableState, seats: Seats) -> None:
        self._state = state
        self._seats = seats

    def seen_twice_in_trick(self, track: Track, card: str) -> bool:
        """Is ``track``, read as ``card`` of the trick on the table, that same card seen
        again (detected twice, or moved)? Not when the counted one still lies at its place
        in view while this one lies elsewhere: two cards on the table cannot both be it."""
        state = self._state
        for laid in state.ledger.trick:
            if laid.card != card:
                continue
            counted = state.track(laid.track_id)
            if counted is None or counted is track or counted.missed > 0 or state.left_its_place(laid):
                return True
            dx, dy = track.anchor[0] - laid.placed[0], track.anchor[1] - laid.placed[1]
            return (dx * dx + dy * dy) ** 0.5 <= state.config.match_distance * laid.size
        return False

    def doubt_earlier_read(self, track: Track, reading: Reading) -> tuple[Reading, list[tuple[str, str]]]:
        """Weigh this card's read against the cards already counted this round; returns the
        reading and the earlier cards to reread, as (was, is) pairs in the order to apply.

        Striking a card already played this round is right when the new card is the misread
        one. But an earlier count may be the misread, and then striking spreads one misread
        over two cards. Each card is played once per round, so naming the round's cards is
        a matching of tracks to cards: the likeliest matching (product of the vote shares)
        is compared with the status quo (earlier cards as counted, this one its best
        unplayed read); if it is clearly likelier, the earlier cards it renames are reread
        (``CardReread``). Without such a matching a clear read of a played card is reported
        as read, unsure, with the struck choice as alternative: the rules engine flags the
        card played twice and the table corrects whichever was wrong.
        """
        ledger = self._state.ledger
        raw = resolve(track.votes, (), replay_share=2.0)
        if raw is None:
            return reading, []
        if raw.card in ledger.played and self.seen_twice_in_trick(track, raw.card):
            return reading, []  # the same trick: one card seen twice, not a misread
        plan = self._last_trick(track, raw.card) or self._rethink(track, reading)
        if plan is not None:
            card, changes = plan
            total = sum(v for c, v in track.votes.items() if c in CARD_INDEX)
            unplayed = tuple((c, p) for c, p in raw.alternatives if c not in ledger.played and c != card)
            return Reading(card, min(1.0, track.votes.get(card, 0.0) / total), unplayed), changes
        if raw.card not in ledger.played:
            return reading, []
        earlier = ledger.counted[raw.card].confidence if raw.card in ledger.counted else 1.0
        if raw.confidence < self._state.config.decide_confidence or raw.confidence <= earlier + 0.1:
            return reading, []
        if raw.card == reading.card:
            return reading, []  # every read was a played card: already reported unsure
        alternatives = ((reading.card, round(reading.confidence, 3)), *reading.alternatives)[:3]
        return Reading(raw.card, min(raw.confidence, 0.5), alternatives), []

    def _last_trick(self, track: Track, read: str) -> tuple[str, list[tuple[str, str]]] | None:
        """In the round's last trick, ``track`` read as a card already counted in this
        trick: the likeliest naming of the trick's cards by the cards left for it.

        Once the first eight tricks hold 32 different cards, the last trick's four are
        known, and two of its cards read as one is no open question for the table but a
        misread among those four: each of the trick's tracks is one of them. Unlike
        ``_rethink``, a name the votes barely hold is taken here, since it is deduced, not
        guessed (a Schellen 6 tossed in at an angle was read as the Rosen Ass played after
        it, and the rules engine flagged the Ass twice although the 6 was the one card
        left).
        """
        ledger = self._state.ledger
        if ledger.tricks_done != TRICKS_PER_ROUND - 1:
            return None
        open_cards = [laid.card for laid in ledger.trick]
        if read not in open_cards:
            return None
        earlier = [card for trick in ledger.done for _, card in trick]
        left = [c for c in CARD_INDEX if c not in set(earlier)]
        if len(earlier) != len(CARD_INDEX) - LAST_TRICK or len(left) != LAST_TRICK or len(open_cards) >= LAST_TRICK:
            return None  # a card unseen or counted twice before: the four left are not known
        counts = [ledger.counted.get(card) for card in open_cards]
        if any(count is None for count in counts) or any(card not in left for card in open_cards):
            return None
        rows = [shares(count.votes) for count in counts if count is not None] + [shares(track.votes)]
        named, _ = likeliest(rows, left)
        changed = {was: now for was, now in zip(open_cards, named[:-1], strict=True) if was != now}
        order = rename_order(changed)
        return (named[-1], order) if order is not None else None

    def _rethink(self, track: Track, reading: Reading) -> tuple[str, list[tuple[str, str]]] | None:
        """The likeliest naming of this round's counted cards and ``track`` together, if it
        renames an earlier card and beats the status quo by ``REREAD_ODDS``."""
        ledger = self._state.ledger
        own = shares(track.votes)
        if not any(own.get(c, 0.0) >= MIN_REREAD_SHARE for c in ledger.counted):
            return None  # this card's read does not compete with any counted card
        counted = list(ledger.counted.items())
        fixed = ledger.played - ledger.counted.keys()  # counted before a restart: no votes kept
        columns = [c for c in CARD_INDEX if c not in fixed]
        rows = [shares(count.votes) for _, count in counted] + [own]
        if len(rows) > len(columns):
            return None  # more cards than the deck has: a card is surely seen twice
        named, cost = likeliest(rows, columns)
        if named[:-1] == [card for card, _ in counted]:
            return None  # the earlier cards stand
        if own.get(named[-1], 0.0) < MIN_REREAD_READ:
            return None
        changed = {was: now for (was, _), now in zip(counted, named[:-1], strict=True) if was != now}
        if any(rows[i].get(named[i], 0.0) < MIN_REREAD_SHARE for i in range(len(counted)) if named[i] != counted[i][0]):
            return None  # a rename nobody read: a guess, not a correction
        status_quo = sum(cost[i][columns.index(card)] for i, (card, _) in enumerate(counted))
        status_quo += -math.log(
            max(own.get(reading.card, 0.0) if reading.card not in ledger.played else 0.0, REREAD_FLOOR)
        )
        if sum(cost[i][columns.index(c)] for i, c in enumerate(named)) > status_quo - math.log(REREAD_ODDS):
            return None
        order = rename_order(changed)
        return (named[-1], order) if order is not None else None

    def check_counted_reads(self, t: float) -> list[TrackerEvent]:
        """A card of this trick whose reads since it counted clearly name another unplayed
        card: reread it.

        A card counts a few frames after it comes to rest, sometimes on reads made while
        the hand still covered part of it or it was still sliding; it then lies still and
        whole for seconds. When those later reads outweigh the ones it counted on (twice
        over, or once for a card counted on a split vote), or it counted from a partial
        view and now shows whole, and they name one unplayed card clearly, that card is
        what lies there. The same as a partial view replaced by a new track
        (``PartialViews.take_over``), for when the whole card's detections continue the
        counted track itself.
        """
        state = self._state
        ledger = state.ledger
        cfg = state.config
        events: list[TrackerEvent] = []
        for laid in ledger.trick:
            track = state.track(laid.track_id)
            count = ledger.counted.get(laid.card)
            if track is None or count is None or track.missed or track.rest_frames < cfg.maximum_decision_frames:
                continue
            since = {c: v - count.votes.get(c, 0.0) for c, v in track.votes.items()}
            partial = laid.size < cfg.partial_size_ratio * track.rest_size
            if partial:
                events += self._seats.check_seat(laid, track, t)
            # Twice over a clear count; a count forced on a split vote (the hand still over
            # the card for most of its reads) is outweighed by as much again.
            outweigh = 2.0 if count.confidence >= cfg.decide_confidence else 1.0
            if not partial and sum(since.values()) < outweigh * sum(count.votes.values()):
                continue
            if not partial and ledger.covered_by_later(laid):
                # A card laid after it lies over part of it: what it is read as since is
                # what still shows (a half-covered 9 reads as an 8), not a clearer look.
                continue
            reading = resolve(since, ledger.played - {laid.card}, replay_share=2.0)
            if reading is None or reading.card == laid.card or reading.card in ledger.played:
                continue
            if reading.confidence < cfg.decide_confidence:
                continue
            laid.placed, laid.size = track.anchor, track.rest_size
            events.append(
                self.reread(laid.card, reading.card, t, Count(count.seat, reading.confidence, dict(track.votes)))
            )
        return events

    def reread(self, was: str, now: str, t: float, count: Count | None = None) -> CardReread:
        """Count the earlier card ``was`` as ``now`` from now on, and say so. ``count``:
        how ``now`` counts (default: ``was``'s count, with ``now``'s share of its vote)."""
        if count is None:
            old = self._state.ledger.counted.get(was)
            assert old is not None
            count = replace(old, confidence=min(1.0, shares(old.votes).get(now, 0.0)))
        for track_id in self._state.ledger.reread(was, now, count):
            counted = self._state.track(track_id)
            if counted is not None:
                counted.card = now
        return CardReread(was=was, card=now, t=t)
