"""Whose card it is: the seat of each card counted, and the order to count cards laid
almost together.

Why apart: a trick is laid in turn, so a card's seat is whose turn it is; where it lies
and where the hand came from are evidence that only overrules the turn when it is clear.
That weighing, and the ordering of two or three cards that came to rest together, are one
question (which seat fits which card) asked of the ledger's turn and the table's geometry,
and nothing here changes a card or a track.
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from scoring.rules import turn_order
from vision.tracker.layout import _EDGE_VECTORS, SeatGuess
from vision.tracker.ledger import Laid
from vision.tracker.reread import CardReread
from vision.tracker.state import TableState
from vision.tracker.tracks import Track, TrackState

#: Seconds after the full trick's fourth card first showed from which a card its player
#: brings, when that player took the trick, is their lead of the next, not a shape seen
#: while their hand withdrew (``Seats.no_hand_laid``).
WINNER_LEADS_AFTER = 2.0

#: Seconds the turn's arm must have been gone before a card first showed under another
#: arm alone for that card to be the other player's: a hand letting go of its own card
#: is seen leaving in the frame before the card shows (0.1 s at the camera's 10 frames a
#: second), and two cards laid almost together follow each other by a few tenths.
TURN_ARM_GONE_S = 0.2


class Seats:
    """The seats and the turn, read from ``state``'s ledger, layout and tracks."""

    def __init__(self, state: TableState) -> None:
        self._state = state

    def upcoming(self) -> tuple[int | None, set[int]]:
        """Whose turn the next card counted is, and the seats that cannot lay it. After a
        full trick still lying there, the next card leads the next trick: its winner's."""
        ledger = self._state.ledger
        taken = {laid.seat for laid in ledger.trick} if len(ledger.trick) < 4 else set()
        return ledger.upcoming_seat(), taken

    def assign(
        self,
        place: tuple[float, float],
        corners: tuple[tuple[float, float], ...],
        laid: Laid | None = None,
        track: Track | None = None,
    ) -> SeatGuess:
        """The seat of a card lying at ``place``: the next card of the trick, or (``laid``)
        a card of the trick already counted.

        A trick is laid in turn, so the card's seat is whose turn it is. Where it lies and
        where the hand came from are evidence only: cards laid close together near the
        centre, turned any way, say little about who laid them, and taking them for the
        seat they lie nearest gave neighbours each other's cards in pairs. Only clear
        evidence (``_out_of_turn_evidence``) names another seat, which the rules engine
        then flags out of turn for the table to confirm or dismiss. When nobody knows
        whose turn it is (after a trick with an unseen card), the geometry decides.
        """
        state = self._state
        trick = state.ledger.trick
        if laid is None:
            expected, others = self.upcoming()
        else:
            expected = state.ledger.expected_seat(trick.index(laid))
            others = {other.seat for other in trick if other is not laid}
        if expected is None:
            return state.layout.assign(
                place, *state.size, corners=corners, exclude=others, centre=state.ledger.table_centre
            )
        size = track.rest_size if track is not None else (laid.size if laid is not None else 0.0)
        origin = track.origin if track is not None else None
        arms = track.arms(state.config.arm_min_frames) if track is not None else frozenset()
        first_seen = track.first_t if track is not None else None
        earlier = self._earlier_view(track) if track is not None and arms else None
        if earlier is not None:
            arms = arms & earlier.arms_first_seen
        brought = track is not None and self._brought_in(track)
        evidence = self._out_of_turn_evidence(place, size, origin, expected, others, arms, first_seen, brought)
        return evidence if evidence is not None else SeatGuess(expected, 1.0, "turn")

    def check_seat(self, laid: Laid, track: Track, t: float) -> list[CardReread]:
        """A card counted from a partial view now lies whole: weigh the evidence on its seat again.

        A hand that lays a card hides part of it, so the view it counted from lay off its
        true place, towards the hand, and may have looked like a card in front of another
        player (or hidden that it is). A changed seat is reported as a correction the
        table sees, never made silently.
        """
        trick = self._state.ledger.trick
        guess = self.assign(track.anchor, track.anchor_corners, laid, track)
        laid.placed, laid.size = track.anchor, track.rest_size
        if guess.seat == laid.seat or any(other.seat == guess.seat for other in trick if other is not laid):
            return []
        return self.reseat(laid, guess.seat, t)

    def laid_over_hidden(self, guess: SeatGuess, track: Track) -> Laid | None:
        """The trick's last counted card, when it was really the card of the seat whose
        turn it is now, laid straight over the card before it, which never showed.

        Asked when the next card comes clearly from the seat after the turn's (``guess``,
        by its arm). The last card counted for its own turn because that player's hand had
        reached in; but the turn's player's arm was in view as it showed, has not come back
        since, and no other card (``track`` aside) lies there uncounted. Had the last card
        been its own player's, seen late, the turn's player would have laid a card that
        never showed either, though nothing lay over its place then. Taken for the turn's
        player's card laid over the hidden one, every card of the trick keeps the turn, and
        the hidden card's seat is the one left without a card.
        """
        state = self._state
        cfg = state.config
        trick = state.ledger.trick
        expected = state.ledger.expected_seat()
        if guess.by != "arm" or expected is None or not trick:
            return None
        after = [seat for seat in turn_order(expected) if seat not in {laid.seat for laid in trick}]
        if len(after) < 2 or guess.seat != after[1]:
            return None
        last = trick[-1]
        shown = state.track(last.track_id)
        edge = state.layout.edges[expected]
        if shown is None or state.ledger.expected_seat(len(trick) - 1) != last.seat:
            return None
        if edge not in shown.arms(cfg.arm_min_frames) or state.turn_arms.get(edge, 0) >= cfg.arm_min_frames:
            return None
        waiting = [
            other
            for other in state.tracks
            if other is not track
            and other.state is TrackState.CANDIDATE
            and other.id not in state.ledger.shown
            and other.rest_frames >= 2
            and other.last_t >= shown.first_t
            and other.first_t > (state.ledger.last_collected_t or -math.inf)  # not a card of a trick left lying
            and state.layout.in_play_area(other.settled, *state.size)
        ]
        return None if waiting else last

    def reseat(self, laid: Laid, seat: int, t: float) -> list[CardReread]:
        """Count ``laid`` for ``seat`` from now on, a correction the table sees."""
        self._state.ledger.reseat(laid, seat)
        return [CardReread(was=laid.card, card=laid.card, t=t, seat=seat)]

    def centre_px(self) -> tuple[float, float]:
        """The table centre in pixels: measured from the tricks, else the layout's."""
        w, h = self._state.size
        centre = self._state.layout.centre
        return self._state.ledger.table_centre or (centre[0] * w, centre[1] * h)

    def _out_of_turn_evidence(
        self,
        place: tuple[float, float],
        size: float,
        origin: tuple[float, float] | None,
        expected: int,
        taken: set[int],
        arms: frozenset[str] = frozenset(),
        first_seen: float | None = None,
        brought: bool = False,
    ) -> SeatGuess | None:
        """The seat that clearly laid a card whose turn was ``expected``'s, if another.

        Clear is: the hand was seen bringing the card in from that seat's edge (first seen
        far out, squarely on that side of where it came to rest), whatever arms were in
        view; or, while the card came in, an arm reached in from that seat's edge alone,
        and the card lies on that seat's side of the centre (``arms``; ``expected``'s arm
        seen at all settles it the other way, unless it withdrew before the card showed,
        ``_turn_arm_left_first``: the previous player's arm withdrawing, the winner's
        sweeping or the next player's reaching early are often in view at the same time);
        or the card lies squarely in front of that seat, far out from the centre. A hand
        seen coming from ``expected``'s edge settles it the other way, wherever the card
        lies. The card's angle is no evidence: cards are tossed at any angle, and
        double-headed court cards have no up.
        """
        cfg = self._state.config
        layout = self._state.layout
        size = max(size, 1.0)
        # A card seen on its way in, far out and squarely from one side, came in that
        # player's hand, whatever arms were in view: the arm stage sees an arm a frame or two
        # late, and the turn's player, laying a card that the one carried in then covers, is
        # often still withdrawing.
        carried = self._state.carried_in_from(origin, place, size) if origin is not None else None
        if carried is not None:
            seat = layout.seat_of_edge(carried[0])
            if seat == expected:
                return None
            if seat not in taken:
                return SeatGuess(seat, carried[1], "approach")
        turn_edge = layout.edges[expected]
        state = self._state
        turn_arm_left = turn_edge in arms and self._turn_arm_left_first(turn_edge, arms, first_seen)
        if turn_edge in arms and not turn_arm_left:
            return None
        if turn_arm_left:
            arms = arms - {turn_edge}
        if (
            state.turn_arms.get(turn_edge, 0) >= cfg.arm_min_frames
            and (first_seen is None or state.turn_arms_since.get(turn_edge, first_seen) <= first_seen)
            and not turn_arm_left
            and not (
                brought
                and len(arms) == 1
                and first_seen is not None
                and state.turn_arms_last.get(turn_edge, first_seen) < first_seen
            )
        ):
            # Whose turn it was reached in since the last card counted, before this card
            # showed: this is the card that hand laid, first seen only later (a hand or a
            # card over it meanwhile), and the arm in view when it showed is the next
            # player's reaching early. That arm reaching in only after the card showed is
            # that player coming for their own card while this one waited for a clear read.
            # Not so for a card seen on its way in under one other arm after the turn's arm
            # had gone: that hand carried it, and the turn's card lies unseen.
            return None
        cx, cy = self.centre_px()
        out = (place[0] - cx, place[1] - cy)
        if len(arms) == 1:
            edge = next(iter(arms))
            seat = layout.seat_of_edge(edge)
            # The arm laid this card only if the card came to rest on that player's side
            # of the centre: an arm in view alone while a card showed was as often the
            # next player reaching for their own card while the turn's player's hand,
            # gone already or never seen, laid this one on its own side.
            if seat not in taken and layout.squareness(out)[0] == edge:
                return SeatGuess(seat, 1.0, "arm")
        if math.hypot(*out) >= cfg.front_distance * size and not self._led_beside_a_trick_left_lying():
            edge, margin = layout.squareness(out)
            seat = layout.seat_of_edge(edge)
            if margin >= cfg.evidence_margin and seat != expected and seat not in taken:
                return SeatGuess(seat, margin, "position")
        return None

    def _turn_arm_left_first(self, turn_edge: str, arms: frozenset[str], first_seen: float | None) -> bool:
        """Did the turn's arm, in beside one other while the card came in, withdraw before
        the card first showed, the other arm still in view as it showed, with no card seen
        since the turn's arm reached in?

        Two cards laid almost together: the turn's player lays theirs and goes while the
        next player's hand, in beside it, lays the next card over it. The card that shows
        under the other arm alone, the turn's hand gone ``TURN_ARM_GONE_S`` or longer, is
        that player's, and the turn's card lies hidden under it. Had the turn's player laid
        the card that shows, it would show as their hand let go. A card seen since the
        turn's arm reached in, though not counted yet, is the turn's card on the table, not
        hidden: the turn keeps the card that shows next.
        """
        state = self._state
        others = arms - {turn_edge}
        gone = state.turn_arms_last.get(turn_edge)
        if len(others) != 1 or first_seen is None or gone is None or gone > first_seen - TURN_ARM_GONE_S:
            return False
        if state.turn_arms_last.get(next(iter(others)), -math.inf) < first_seen:
            return False
        return not self._card_shown_since(state.turn_arms_since.get(turn_edge), first_seen)

    def _card_shown_since(self, since: float | None, before: float) -> bool:
        """Was a card not counted yet first seen from ``since`` on and before ``before``, in
        two frames or more, in the play area?"""
        state = self._state
        return any(
            other.state is TrackState.CANDIDATE
            and other.id not in state.ledger.shown
            and (since is None or other.first_t >= since)
            and other.first_t < before
            and other.seen >= 2
            and state.layout.in_play_area(other.centre, *state.size)
            for other in state.tracks
        )

    def _led_beside_a_trick_left_lying(self) -> bool:
        """Is the card about to count a lead, with the trick collected last still lying in
        view (a card of it detected this frame)? A lead laid beside such a trick lies off
        the centre wherever the pile leaves room, in front of whoever sits there: its place
        says nothing of who laid it."""
        state = self._state
        if state.ledger.trick:
            return False
        return any(
            track.state is TrackState.RETIRED
            and track.missed == 0
            and state.layout.in_play_area(track.anchor, *state.size)
            for track in state.tracks
        )

    def turn_card_hidden(self, track: Track) -> bool:
        """Is the card whose turn it is hidden on the table while ``track``, carried in under
        another player's arm alone, is about to count?

        The hand whose turn it was reached in since the last card counted, and what it laid
        (on or under a counted card) has not shown; ``track`` was seen coming in, so it is
        not that card seen late: its own player laid it after. The turn's card is waited
        for (within twice the latency budget), to count first.
        """
        state = self._state
        cfg = state.config
        expected, taken = self.upcoming()
        if expected is None or len(state.ledger.trick) >= 3 or track.rest_frames >= 2 * cfg.maximum_decision_frames:
            return False
        edge = state.layout.edges[expected]
        arms = track.arms(cfg.arm_min_frames)
        if state.turn_arms.get(edge, 0) < cfg.arm_min_frames or len(arms) != 1 or edge in arms:
            return False
        if state.layout.seat_of_edge(next(iter(arms))) in taken:
            return False
        return self._brought_in(track)

    def no_hand_laid(self, track: Track) -> bool:
        """Wait (within twice the latency budget) to count ``track``, which no hand of a
        player still to lay seems to have brought: it showed up where it lies, no arm
        came in with it but those of players who have laid this trick's cards, and it is
        read unsurely. Once the trick on the table is full, every player has laid a card
        of it, and the next card leads a new trick: any arm may bring that one but the
        arm that laid the fourth card, withdrawing.

        Cards laid overlapping leave shapes between them that the detector outlines as a
        card now and then, while the hand that laid the last of them withdraws (a ghost
        read as the Eicheln Ass between an Ober, an 8 and a König). Counted, such a ghost
        takes the seat whose turn it is, and that player's real card becomes a fifth card
        that closes the trick early and puts every later card one seat off. A real card
        has a hand: waiting lets the ghost go and the real card come, and a real card
        whose arm the camera missed still counts once the wait is over.
        """
        cfg = self._state.config
        if track.rest_frames >= 2 * cfg.maximum_decision_frames or self._brought_in(track):
            return False
        if track.rest_read_confidence >= cfg.clear_read_confidence:
            return False
        ledger = self._state.ledger
        trick = ledger.trick
        if (
            len(trick) == 4
            and ledger.full_trick_winner() == trick[-1].seat
            and track.first_t >= trick[-1].shown_t + WINNER_LEADS_AFTER
            and track.leading_identity()[0] not in ledger.played
        ):
            # The player who laid the fourth card took the trick and leads again: their
            # arm, come back, brings the lead, read as a card still to come (a card of an
            # earlier trick shows as the winner picks the trick up). Only a card no arm
            # brought still waits.
            return not track.arm_frames
        laid_by = {self._state.layout.edges[laid.seat] for laid in (trick[-1:] if len(trick) == 4 else trick)}
        return set(track.arm_frames) <= laid_by

    def shown_in_place(self, track: Track, ready: list[Track]) -> list[Track]:
        """Cards of ``ready`` other than ``track`` first seen where they lie, no hand seen
        bringing them: the hidden card of ``turn_card_hidden`` showing."""
        state = self._state
        return [
            other
            for other in ready
            if other is not track
            and other.leading_identity()[0] != track.leading_identity()[0]
            and not self._brought_in(other)
            and state.layout.in_play_area(other.settled, *state.size)
        ]

    def _earlier_view(self, track: Track) -> Track | None:
        """An uncounted card seen where ``track`` lies before ``track`` was: the same card
        seen in part while the hand laying it still covered it, tracked apart.

        Its arms, not ``track``'s, say whose hand brought the card: an arm that reached in
        after that first glimpse is the next player's, laying a card of their own (a card
        led while the next player was already reaching in was given to that player, and
        the whole trick with it).
        """
        state = self._state
        if len(track.anchor_corners) != 4:
            return None
        outline = np.asarray(track.anchor_corners, np.float32).reshape(-1, 1, 2)
        since = state.ledger.last_collected_t or -math.inf
        found: Track | None = None
        for other in state.tracks:
            if (
                other is track
                or other.state is not TrackState.CANDIDATE
                or other.id in state.ledger.shown
                or not since < other.first_t < track.first_t
                or cv2.pointPolygonTest(outline, (float(other.centre[0]), float(other.centre[1])), False) < 0
            ):
                continue
            if found is None or other.first_t < found.first_t:
                found = other
        return found

    def _brought_in(self, track: Track) -> bool:
        """Was ``track`` first seen away from where it lies (a hand carried it in), not where it lies?"""
        return math.dist(track.origin, track.settled) >= self._state.config.match_distance * max(track.rest_size, 1.0)

    def fit(self, track: Track, seat: int) -> float:
        """How well where ``track`` lies and where its hand came from fit ``seat`` (-2..2):
        to order two cards laid almost together, never to overrule the turn."""
        cx, cy = self.centre_px()
        size = max(track.rest_size, 1.0)
        ex, ey = _EDGE_VECTORS[self._state.layout.edges[seat]]
        score = 0.0
        for vx, vy in (
            (track.anchor[0] - cx, track.anchor[1] - cy),
            (track.origin[0] - track.anchor[0], track.origin[1] - track.anchor[1]),
        ):
            length = math.hypot(vx, vy)
            if length > 0:
                # A card almost at the centre, or a hand seen only where it laid the card,
                # points nowhere in particular: weigh the direction by how far out it is.
                score += (vx * ex + vy * ey) / length * min(1.0, length / size)
        return score

    def hand_from(self, track: Track) -> int | None:
        """The seat whose edge the hand clearly brought ``track`` in from, if it was seen."""
        place = track.settled if track.settled_frames >= 2 else track.anchor
        carried = self._state.carried_in_from(track.origin, place, track.rest_size)
        return self._state.layout.seat_of_edge(carried[0]) if carried is not None else None

    def turn_seats(self) -> list[int]:
        """The seats whose turn the next cards are, in order, as far as that is known now
        (after the trick's fourth card the winner leads, who is not known yet)."""
        first, taken = self.upcoming()
        if first is None:
            return []
        if len(self._state.ledger.trick) == 4:
            return turn_order(first)
        return [first, *(seat for seat in turn_order(self._state.ledger.leader) if seat not in taken | {first})]

    def second_seat(self, first: int, taken: set[int]) -> int | None:
        """Whose turn it is after ``first`` lays the next card (``taken``: seats that have laid)."""
        seats = self.turn_seats()
        return seats[1] if len(seats) > 1 and seats[0] == first else None

    def better_swapped(self, a: Track, b: Track, first: int, second: int) -> bool:
        """Do ``b`` then ``a`` fit the seats ``first`` and ``second`` clearly better than
        ``a`` then ``b``?"""
        hands = (self.hand_from(a), self.hand_from(b))
        if None not in hands and hands[0] != hands[1] and abs(a.arrival - b.arrival) > 1.5 * self._state.frame_dt:
            return False  # both hands seen, one after the other: the order they came in is the order laid
        as_is = self.fit(a, first) + self.fit(b, second)
        swapped = self.fit(b, first) + self.fit(a, second)
        return swapped > as_is + 0.5

    def laid_the_other_way(self) -> bool:
        """Were the trick's last two counted cards each laid by the other's player?

        Only for two cards both counted in turn that came to rest within
        ``together_window`` of each other (so neither says by when it settled who laid
        first), whose places fit the swapped seats clearly better (``better_swapped``),
        and not when the arms seen say otherwise: a card whose only hand in view was its
        own seat's, while the other card's hands include the other seat's, was laid as
        counted. A card the table declared in a Weis (``Ledger.held``) settles it: it was
        laid by the seat that declared it.
        """
        state = self._state
        ledger = state.ledger
        n = len(ledger.trick)
        if n < 2:
            return False
        first, second = ledger.trick[-2:]
        a, b = state.track(first.track_id), state.track(second.track_id)
        if a is None or b is None:
            return False
        if ledger.expected_seat(n - 2) != first.seat or ledger.expected_seat(n - 1) != second.seat:
            return False  # one of them counted out of turn: its seat came from what was seen
        if first.card in ledger.seat_seen or second.card in ledger.seat_seen:
            return False
        if abs(a.arrival - b.arrival) > state.config.together_window:
            return False
        held = ledger.held
        if held.get(first.card) == second.seat or held.get(second.card) == first.seat:
            return True  # the table declared one of them in the other seat's Weis
        if held.get(first.card) == first.seat or held.get(second.card) == second.seat:
            return False
        least = state.config.arm_min_frames
        edge_a, edge_b = state.layout.edges[first.seat], state.layout.edges[second.seat]
        arms_a, arms_b = a.arms(least), b.arms(least)
        if (arms_a == {edge_a} and edge_b in arms_b) or (arms_b == {edge_b} and edge_a in arms_a):
            return False
        return self.better_swapped(a, b, first.seat, second.seat)

    def partners(self, track: Track, since: float | None = None) -> list[Track]:
        """Cards laid almost together with ``track``: other candidates in the trick area
        that came to rest (or are still coming in) within ``together_window`` of it; with
        ``since``, those laid from that many seconds before it until it."""
        state = self._state
        cfg = state.config
        out = []
        for other in state.tracks:
            if other is track or other.state is not TrackState.CANDIDATE or other.id in state.ledger.shown:
                continue
            if other.missed > 1 and (since is None or other.rest_frames < 2):
                # Gone; but one laid before that a hand now hides will show again, and a
                # single frame the detector missed it in is no card gone.
                continue
            if since is None and abs(other.arrival - track.arrival) > cfg.together_window:
                continue
            if since is not None and not track.arrival + since <= other.arrival <= track.arrival:
                continue
            if other.leading_identity()[0] == track.leading_identity()[0]:
                continue  # the same card seen twice (a partial view beside the whole)
            if not state.layout.in_play_area(other.anchor, *state.size):
                continue
            out.append(other)
        return out

    def awaits_partner(self, track: Track) -> bool:
        """Wait (within twice the latency budget) while a card laid almost together with
        ``track`` is still to be counted and may be the card whose turn it is: it has not
        come to rest long enough to be weighed against ``track``, or ``track`` looks laid
        out of turn, or the other fits the turn clearly better."""
        cfg = self._state.config
        first, taken = self.upcoming()
        if first is None or track.rest_frames >= 2 * cfg.maximum_decision_frames:
            return False
        partners = self.partners(track)
        if self.assign(track.settled, track.settled_corners, track=track).by != "turn" and any(
            other.arrival <= track.arrival + 1.5 * self._state.frame_dt
            for other in [*partners, *self.partners(track, since=-math.inf)]
        ):
            # It looks laid out of turn, and a card laid before it (or at the same moment)
            # is still to be counted: that one may be the card whose turn it was, only
            # slower to read. One laid after it does not make it any less out of turn.
            return True
        if not partners:
            return False
        second = self.second_seat(first, taken)
        if second is not None and any(self.better_swapped(track, other, first, second) for other in partners):
            return True
        if track.rest_frames >= cfg.maximum_decision_frames:
            return False
        return any(
            other.rest_frames < cfg.minimum_consecutive_frames and other.arrival >= track.arrival for other in partners
        )

    def awaits_earlier(self, track: Track) -> bool:
        """Wait (within twice the latency budget) while a card that came to rest clearly
        before ``track`` (more than ``together_window`` before: cards laid almost together
        settle in any order, ``order_together``), and was seen beside it, is still to be
        counted: that card was laid first, and counts first.

        Its read may still be too vague to count (a card whose outline jitters keeps
        coming to rest anew), and ``track`` laid next to it then read clearly: counted
        first, ``track`` would take the earlier card's seat, and the earlier card, soon
        half hidden under it, would follow in the next seat. Two tracks seen in one frame
        are two cards, so this is not a view of ``track`` itself in the hand that laid it.
        Not for a card read as one already played (a card of a trick left lying, seen
        again), nor for one that itself waits for the turn's card laid hidden
        (``turn_card_hidden``): that one, seen late, was laid first.
        """
        state = self._state
        cfg = state.config
        first, _ = self.upcoming()
        if first is None or track.rest_frames >= 2 * cfg.maximum_decision_frames:
            return False
        name = track.leading_identity()[0]
        return any(
            other is not track
            and other.state is TrackState.CANDIDATE
            and other.id not in state.ledger.shown
            and other.id in track.seen_with
            and other.arrived_t is not None
            and other.arrival < track.arrival - cfg.together_window
            and other.missed <= cfg.maximum_decision_frames
            and other.leading_identity()[0] not in (None, name, *state.ledger.played)
            and state.layout.in_play_area(other.settled, *state.size)
            and not self.turn_card_hidden(other)  # it waits for this one, laid hidden before it
            for other in state.tracks
        )

    def order_together(self, ready: list[Track]) -> list[Track]:
        """``ready`` in the order to count them: when the first of them was laid almost
        together with others, the one of the group that should come first is the one
        whose place and hand fit the seats whose turn it is clearly best. Which of them
        settled a frame sooner says nothing about who laid first."""
        seats = self.turn_seats()
        if len(ready) < 2 or not seats:
            return ready
        partners = self.partners(ready[0])
        group = [ready[0], *(tr for tr in ready[1:] if tr in partners)][:3]
        if len(group) < 2:
            return ready
        seats = seats[: len(group)]

        def score(order: tuple[Track, ...]) -> float:
            return sum(self.fit(tr, seat) for tr, seat in zip(order, seats, strict=False))

        as_is = score(tuple(group))
        best = max(itertools.permutations(group), key=score)
        if score(best) <= as_is + 0.5 or best[0] is ready[0]:
            return ready
        return [best[0], *(tr for tr in ready if tr is not best[0])]
