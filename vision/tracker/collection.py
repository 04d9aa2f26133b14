"""Cards leaving the table: a trick collected, or a card its player took back.

Why apart: both are read from the same thing, the trick's counted cards gone from where
they lay, and told apart by how they went (all together towards one player, or one card
carried off while the others stay). Who gathered the trick, whether a card was swept
before it counted, and whether a card went back to its player's hand are judged here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from scoring.events import Event, TrickCollected
from vision.tracker.ledger import COVERING_DISTANCE, TRICKS_PER_ROUND, Laid
from vision.tracker.partial import PartialViews
from vision.tracker.reread import CardReread, CardWithdrawn
from vision.tracker.state import TableState, TrackerEvent
from vision.tracker.tracks import LONG_GONE_FRAMES, Track, TrackState

#: Reads of the card a counted card was laid on, none naming the counted card, after which
#: it is no longer there: its player took it back, uncovering the card under it
#: (``Collection._read_as_another``).
READ_AS_ANOTHER = 10

#: Counts a card swept with the trick before it counted (the façade's forced decision).
CountSwept = Callable[[Track, float], list[TrackerEvent]]


class Collection:
    """Collected tricks and withdrawn cards, from ``state``'s tracks and ledger."""

    def __init__(self, state: TableState, partial: PartialViews) -> None:
        self._state = state
        self._partial = partial
        #: Track ids of counted cards of the trick on the table, with when each was last
        #: seen carried off (``note_carried``) while its own track had lost it.
        self._carried: dict[int, float] = {}
        #: Track ids of counted cards of the trick that vanished under their own player's
        #: arm, with the frames since in which no arm was in view while they stayed unseen
        #: (``note_carried``).
        self._unseen_armless: dict[int, int] = {}
        #: Track ids of counted cards of the trick judged carried off, with when each was
        #: last seen: kept after the track itself is forgotten (a card taken back long
        #: before its player lays the right one is out of mind by then).
        self._went_off: dict[int, float] = {}

    def note_carried(self, t: float) -> None:
        """Note each counted card of the trick that shows, read as itself, carried well
        away from where it lay while its own track has lost it.

        A hand taking a card back covers it where it lies and drags it off its edge in a
        few frames: the card's own track is lost under the hand, and what the detector sees
        of it on the way out starts another track, read as the same card. That is the card
        carried off, as much as its own track seen going. So is a card that vanished under
        its own player's arm and stays unseen with no hand over the table: a card hidden by
        a hand shows again when the hand has gone."""
        state = self._state
        cfg = state.config
        trick = {laid.card: laid for laid in state.ledger.trick}
        ids = {laid.track_id for laid in trick.values()}
        self._carried = {k: v for k, v in self._carried.items() if k in ids}
        self._went_off = {k: v for k, v in self._went_off.items() if k in ids}
        arms = state.arm_log[-1][1] if state.arm_log and state.arm_log[-1][0] == t else frozenset()
        before, self._unseen_armless = self._unseen_armless, {}
        for laid in trick.values():
            own = state.track(laid.track_id)
            if own is None:
                continue
            if own.missed == 1:
                self._unseen_armless[laid.track_id] = 0 if state.layout.edges[laid.seat] in arms else -1
            elif own.missed > 1 and (n := before.get(laid.track_id, -1)) >= 0:
                self._unseen_armless[laid.track_id] = n + (0 if arms else 1)
            own.carried_off = own.missed > 0 and self._carried_off(laid, own)
            if own.carried_off:
                self._went_off[laid.track_id] = self._last_seen(laid, own)
        for track in state.tracks:
            if track.state is not TrackState.CANDIDATE or track.last_t != t:
                continue
            shown = trick.get(track.leading_identity()[0] or "")
            if shown is None:
                continue
            own = state.track(shown.track_id)
            if own is not None and own.missed == 0:
                continue
            if math.dist(track.centre, shown.placed) > cfg.left_distance * shown.size:
                self._carried[shown.track_id] = t

    def check_collected(self, t: float, count_swept: CountSwept) -> list[TrackerEvent]:
        """The events of the trick on the table collected at ``t``, once all its cards have
        left their places; ``count_swept`` counts a card swept with it before it counted."""
        state = self._state
        trick = state.ledger.trick
        if not trick or not all(state.left_its_place(laid) for laid in trick):
            return []
        events: list[TrackerEvent] = []
        left_at = max((tr.last_t for laid in trick if (tr := state.track(laid.track_id))), default=None)
        # A card carried off long before the others left (taken back by its player):
        # withdrawn. A card swept with the trick took its place and counts instead; with
        # none, its player's right card was never read, and the trick goes with that seat's
        # card unseen rather than with the card its player took back.
        early = [laid for laid in trick if left_at is not None and self._went_early(laid, left_at)]
        if early and len(early) < len(trick):
            if len(self._swept(left_at)) < len(early) + 4 - len(trick) and any(
                tr.state is TrackState.CANDIDATE
                and tr.missed == 0
                and tr.seen >= state.config.flush_min_frames
                and tr.first_t > min(self._last_gone(laid) for laid in early)
                for tr in state.tracks
            ):
                return []  # its replacement is being swept with the trick, not yet far: wait
            events += self._withdraw(early, t)
        missing = 4 - len(state.ledger.trick)
        if missing > 0:
            # Swept away before every card had settled (a trick collected early): the
            # cards seen briefly still count, oldest first, if there are just enough. Only
            # cards already there while the trick's cards were: one that came after them
            # (sliding in, so it too has moved) is the next trick's lead.
            swept = self._swept(left_at)
            if len(swept) < missing:
                if (state.ledger.tricks_done == TRICKS_PER_ROUND - 1 or self._gone_in_plain_view()) and (
                    unseen := self.unseen_seats()
                ):
                    # The round's last trick, swept with a card never read: no next card
                    # will come to show it was swept, and the card is the round's last.
                    # Or the trick has been gone a while with no hand in view: it was
                    # collected, and waiting for the next card to show it lets that card,
                    # read in the hand as it lands where a card of this trick lay, stand
                    # for that card.
                    return events + self.collect(t, collector=self.collector(), unseen=unseen)
                return events  # a hand over the cards, or a card taken back: wait
            swept.sort(key=lambda tr: (tr.first_t, tr.id))
            for track in swept[:missing]:
                events += count_swept(track, t)
            if len(state.ledger.trick) < 4:
                return events
        events += self.collect(t, collector=self.collector())
        return events

    def _went_early(self, laid: Laid, left_at: float) -> bool:
        """Was ``laid`` carried off more than a second before the trick's last card left
        (``left_at``)? Its track may be forgotten by then (its player chose the right card
        for longer than a lost card is kept in mind)."""
        track = self._state.track(laid.track_id)
        if track is not None:
            return self._carried_off(laid, track) and track.last_t + 1.0 < left_at
        gone = self._went_off.get(laid.track_id)
        return gone is not None and gone + 1.0 < left_at

    def _last_gone(self, laid: Laid) -> float:
        """When ``laid``, carried off, was last seen."""
        track = self._state.track(laid.track_id)
        return track.last_t if track is not None else self._went_off.get(laid.track_id, math.inf)

    def _gone_in_plain_view(self) -> bool:
        """Has every counted card of the trick been unseen ``LONG_GONE_FRAMES`` while no
        arm has been in view for the last ``arm_lead`` seconds? A hand that hides a trick
        comes with its arm; cards that stay unseen with no arm anywhere were taken away."""
        state = self._state
        history = state.arm_history
        if not history or history[-1][0] - history[0][0] < 0.5 * state.config.arm_lead:
            return False
        if any(arms for _, arms in history):
            return False
        return all(
            (tr := state.track(laid.track_id)) is None or tr.missed >= LONG_GONE_FRAMES for laid in state.ledger.trick
        )

    def _swept(self, left_at: float | None) -> list[Track]:
        """Candidates swept away with the trick before they were counted: seen long enough,
        gone or moved off, and there already while the trick's cards were."""
        cfg = self._state.config
        return [
            tr
            for tr in self._state.tracks
            if tr.state is TrackState.CANDIDATE
            and tr.seen >= cfg.flush_min_frames
            and (tr.missed >= 1 or tr.displacement() > cfg.left_distance)
            and left_at is not None
            and tr.first_t <= left_at
        ]

    def unseen_seats(self, track: Track | None = None) -> tuple[int, ...]:
        """The seats whose cards were never read, when the trick was swept with three
        counted, or two (two cards laid at once on one spot, the lower never in view);
        () when the trick is not swept short.

        ``track``, the card about to count, is the next trick's lead only if the trick is
        really gone: a counted card that vanished where it lay, just as ``track`` came,
        under the place ``track`` rests on, is hidden by it (the fourth card laid squarely
        on it), not swept.
        """
        trick = self._state.ledger.trick
        if len(trick) not in (2, 3) or not all(self._state.left_its_place(laid) for laid in trick):
            return ()
        if track is not None and any(self._covered_by(laid, track) for laid in trick):
            return ()
        if len(trick) == 2 and not (
            all(self._seen_going(laid) for laid in trick)
            or (self._gone_in_plain_view() and all(self._place_clear(laid) for laid in trick))
        ):
            # Half a trick is collected short only when it was seen swept (each card seen
            # carried off), or it has gone with no hand in view and nothing lies where its
            # cards lay: two counted cards that vanished where they lay were covered, by a
            # hand or by the next cards, far more often than swept unseen.
            return ()
        seats = {laid.seat for laid in trick}
        return tuple(s for s in range(4) if s not in seats)

    def _seen_going(self, laid: Laid, track: Track | None = None) -> bool:
        """Was ``laid`` (shown by ``track``) last seen carried away from where it lay, by its
        own track or another read as it (``note_carried``)?"""
        track = track or self._state.track(laid.track_id)
        if track is None:
            return False
        return (
            math.dist(track.centre, laid.placed) > self._state.config.left_distance * laid.size
            or self._carried.get(laid.track_id, -math.inf) >= track.last_t
        )

    def _place_clear(self, laid: Laid) -> bool:
        """Does no card seen in this frame lie on the place where ``laid`` lay?"""
        cfg = self._state.config
        return not any(
            tr.missed == 0
            and tr.id != laid.track_id
            and math.dist(tr.centre, laid.placed) <= cfg.match_distance * laid.size
            for tr in self._state.tracks
            if tr.state is not TrackState.RETIRED
        )

    def _covered_by(self, laid: Laid, track: Track) -> bool:
        """Did counted ``laid`` vanish under ``track``: last seen where it lay, no longer
        before ``track`` was first seen than a hand takes to lay a card, and ``track`` now
        rests on that place? A swept card moves before it goes, and the next lead comes
        after the sweep."""
        cfg = self._state.config
        under = self._state.track(laid.track_id)
        if under is None or under.missed == 0:
            return False
        return (
            math.dist(under.centre, laid.placed) <= cfg.match_distance * laid.size
            and under.last_t >= track.first_t - cfg.arm_lead
            and math.dist(track.settled, laid.placed) <= cfg.match_distance * laid.size
        )

    def collector(self) -> int | None:
        """The seat whose side the trick was gathered and swept towards, if that was seen.

        A trick is gathered into a pile in front of the player who takes it and swept off
        their edge. When the pile was seen leaving (a card carried far from where it lay),
        the side of the table it was last seen on names the collector. Otherwise the
        centroid of the cards' last seen places has moved, from where they lay, towards
        the pile, which lies in front of the collector. None when neither was seen.
        """
        state = self._state
        cfg = state.config
        layout = state.layout
        trick = state.ledger.trick
        w, h = state.size
        centre = state.ledger.table_centre or (layout.centre[0] * w, layout.centre[1] * h)
        vx = vy = 0.0
        n = 0
        size = 0.0
        far: tuple[float, Track] | None = None
        for laid in trick:
            track = state.track(laid.track_id)
            if track is None:
                continue
            dx, dy = track.centre[0] - laid.placed[0], track.centre[1] - laid.placed[1]
            moved = (dx * dx + dy * dy) ** 0.5 / laid.size
            out = ((track.centre[0] - centre[0]) ** 2 + (track.centre[1] - centre[1]) ** 2) ** 0.5 / laid.size
            if moved > cfg.left_distance and out > cfg.collector_out and (far is None or moved > far[0]):
                far = (moved, track)
            vx += dx
            vy += dy
            size += laid.size
            n += 1
        if n == 0:
            return None
        mx, my = vx / n, vy / n
        moves = [
            (tr.centre[0] - laid.placed[0], tr.centre[1] - laid.placed[1])
            for laid in trick
            if (tr := state.track(laid.track_id)) is not None
        ]
        if (
            far is not None
            and n == len(trick)
            and all(dx * mx + dy * my > 0 for dx, dy in moves)
            and all(
                math.hypot(dx, dy) > cfg.left_distance * laid.size for (dx, dy), laid in zip(moves, trick, strict=False)
            )
        ):
            # Every card went far the same way at once: swept as one, so the way they went
            # names the collector, wherever on the table a card lay (one led beside the last
            # trick lies off-centre).
            return layout.seat_towards((mx, my))
        if far is not None:
            track = far[1]
            return layout.seat_towards((track.centre[0] - centre[0], track.centre[1] - centre[1]))
        vx, vy, size = mx, my, size / n
        if (vx * vx + vy * vy) ** 0.5 <= cfg.collector_move * size:
            return None
        return layout.seat_towards((vx, vy))

    def collect(self, t: float, collector: int | None, unseen: tuple[int, ...] = ()) -> list[Event]:
        """Close the trick on the table at ``t``, gathered by ``collector`` (``unseen``:
        the seats whose cards were never read)."""
        state = self._state
        ledger = state.ledger
        assert ledger.contract is not None
        firsts: list[float] = []  # when each of its cards first showed
        counted = [tr for laid in ledger.trick if (tr := state.track(laid.track_id)) is not None]
        for other in state.tracks:
            if other.state is TrackState.CANDIDATE and any(self._partial.read_by_turns(other, c) for c in counted):
                # A counted card of this trick read as another card in the frames it was
                # not read as itself: it goes with the trick, and never leads the next.
                other.state, other.card = TrackState.IGNORED, other.leading_identity()[0]
        for laid in ledger.trick:
            track = state.track(laid.track_id)
            if track is not None:
                firsts.append(track.first_t)
                track.state = TrackState.RETIRED
                count = ledger.counted.get(laid.card)
                if count is not None:
                    # Everything it was read as while it lay there: the evidence a later
                    # reread of this card is weighed on.
                    ledger.counted[laid.card] = replace(count, votes=dict(track.votes))
        gone = {laid.card for laid in ledger.trick}
        for track in state.tracks:
            identity = track.leading_identity()[0]
            if track.state is TrackState.CANDIDATE and identity in gone:
                # A card of this trick seen as a new track while it was gathered and swept
                # (overlapping cards moving fast): it must never take the next card's place.
                track.state, track.card = TrackState.IGNORED, identity
        ledger.collect(t, max(firsts) if len(firsts) == len(ledger.trick) and firsts else None)
        return [TrickCollected(seat=collector, t=t, unseen=unseen)]

    def withdraw_taken_back(self, track: Track, t: float) -> list[TrackerEvent]:
        """Cards of this trick taken back by their player before ``track``, the next card:
        withdrawn, so the trick and the turn are as if they had never been laid.

        Taken back is a counted card last seen carried well away from where it lay and
        gone since, while every other card of the trick still lies in its place: a hand
        over a card hides it where it lies, a gathered trick moves as a whole, and a card
        knocked aside still shows. Judged only when the next card counts, because until
        then a trick being gathered card by card looks the same. Of a full trick, only a
        card that went before the card after it came: a card is taken back before the next
        is laid, and one of four that goes later is the winner picking the trick up. Nor a
        card of a full trick that the winner's hand carried off, its own player's arm not in
        view (``_picked_up_by_winner``): the winner often picks up the last card laid first.
        """
        trick = self._state.ledger.trick
        carried: list[Laid] = []
        gone_since: list[float] = []
        went = (math.inf, -math.inf)  # from the first carried card's going to the last one's last sight
        forgotten = 0
        for i, laid in enumerate(trick):
            old = self._state.track(laid.track_id)
            if old is track:
                return []
            # (Not for a trick still being laid: a card misread as laid after a mistaken one,
            # while it still lay, would keep the mistaken one in the trick for good.)
            after = self._state.track(trick[i + 1].track_id) if len(trick) >= 4 and i + 1 < len(trick) else None
            before_next = after.arrival + self._state.config.arm_lead if after is not None else math.inf
            if old is None:
                if (gone := self._went_off.get(laid.track_id)) is not None and gone < min(track.arrival, before_next):
                    carried.append(laid)  # carried off, then forgotten while its player chose again
                    went = (min(went[0], gone), max(went[1], gone))
                    continue
                # Forgotten, long unseen (a card laid over it): no telling how it went, nor
                # any sign of a gathering if the others still lie there.
                forgotten += 1
                continue
            read_as_another = self._read_as_another(laid, old)
            carried_off = read_as_another or self._carried_off(laid, old)
            # A card that only vanished (a ghost outline under a hand) may go at any time.
            went_by = min(track.arrival, before_next) if carried_off else track.arrival
            if read_as_another:
                # It went when it was last read as itself; what its track read since lies under it.
                gone = seen = old.last_as_itself
            else:
                gone, seen = old.last_t, self._last_seen(laid, old)
            if (
                (carried_off or self._gone_before(laid, old, track))
                and seen < went_by
                and not (len(trick) >= 4 and self._picked_up_by_winner(laid, gone, seen))
            ):
                carried.append(laid)
                went = (min(went[0], gone), max(went[1], seen))
            elif (away := self._gone_for(laid, old)) > t - track.arrival:
                gone_since.append(t - away)
        lead = self._state.config.arm_lead
        if any(went[0] - lead <= since <= went[1] + lead for since in gone_since):
            # Another card went on the move or out of sight as the carried one went: a
            # gathering, a hand over the trick. (One the trick's collector has just begun to
            # gather, after this card came down, does not count; nor one hidden long before,
            # under a card laid over it, or only well after the carried card had gone, under
            # the hand laying this card over it.)
            return []
        if len(carried) + forgotten == len(trick) > 1:
            return []  # the whole trick went: collected (with a card never seen), not taken back
        return self._withdraw(carried, t)

    def _read_as_another(self, laid: Laid, track: Track) -> bool:
        """Was ``laid`` taken back, though its track still shows a card where it lay?

        A card laid over a card of the trick left lying and taken back uncovers that card,
        and its track takes those reads: reads of the card it was laid on, none of it
        (``READ_AS_ANOTHER`` of them), after as many reads of it since it counted (a card
        read as itself twice and then only as the card under it is that card misread, or
        lies beside it). A card a hand only hovers over is read as itself again within a
        moment; one a later card of this trick lies over (``_laid_over``) is read from the
        part that card leaves in view.
        """
        return min(track.confirmed, track.under_reads) >= READ_AS_ANOTHER and not self._laid_over(laid)

    def _gone_before(self, laid: Laid, old: Track, track: Track) -> bool:
        """Was ``laid``, the trick's last counted card (shown by ``old``), gone a second
        before ``track``, the next card, was first seen? Nothing was laid over it since it
        counted, so what hid it was a hand, and a hand over a card it leaves lying moves on
        within a second; a card still gone then was taken away. (The arm that took it is
        not always seen: a pale arm on a pale cloth.)"""
        trick = self._state.ledger.trick
        last = old.last_as_itself  # the reads since of a card it was laid on are that card's
        return (
            laid is trick[-1]
            and old.missed >= self._state.config.collect_after_frames
            and track.first_t - last >= LONG_GONE_FRAMES * self._state.frame_dt
            and not self._under_other_hands(laid, last, track.first_t)
        )

    def _picked_up_by_winner(self, laid: Laid, went: float, seen: float) -> bool:
        """Did the full trick's winner carry ``laid`` off (from ``went``, when it left its
        place, until ``seen``, its last sight)? The winner's arm was in view then and the
        arm of ``laid``'s own player was not: only its own player takes a card back, and the
        winner reaching in picks the trick up, the last card laid often first."""
        log = self._state.arm_log
        lead = self._state.config.arm_lead
        arms: set[str] = set()
        for t, in_view in log:
            if went - lead <= t <= seen + lead:
                arms |= in_view
        winner = self._state.ledger.full_trick_winner()
        edges = self._state.layout.edges
        return winner is not None and edges[winner] in arms and edges[laid.seat] not in arms

    def _under_other_hands(self, laid: Laid, since: float, until: float) -> bool:
        """Was an arm in view in every frame from ``since`` until the hands withdrew, just
        before ``until`` (within ``arm_lead``), and never the arm of ``laid``'s own player?
        Then the card lay under the other players' hands all that while (the next player
        reaching in and thinking over the trick, the next card laid over it as the hand
        withdrew), not taken back: only its own player takes a card back."""
        edge = self._state.layout.edges[laid.seat]
        log = self._state.arm_log
        if not log or log[0][0] > since:
            return False  # out of sight longer than the log reaches: no telling whose hands
        frames = [(t, arms) for t, arms in log if since < t < until]
        if not frames or any(edge in arms for _, arms in frames):
            return False
        held = [t for t, arms in frames if arms]
        if not held or held[-1] < until - self._state.config.arm_lead:
            return False
        return all(arms for t, arms in frames if t <= held[-1])

    def _gone_for(self, laid: Laid, track: Track) -> float:
        """Roughly how long (seconds) ``laid`` has been away from where it lay or unseen:
        0 while it lies there in view."""
        away = 0
        for centre, _ in reversed(track.path):
            if math.dist(centre, laid.placed) <= self._state.config.match_distance * laid.size:
                break
            away += 1
        return (away + track.missed) * self._state.frame_dt

    def _carried_off(self, laid: Laid, track: Track) -> bool:
        """Was ``laid`` (shown by ``track``) last seen carried well away from where it lay,
        by its own track or another read as it (``note_carried``), and gone since?"""
        if track.missed < self._state.config.collect_after_frames:
            return False
        if self._seen_going(laid, track):
            return True
        return self._unseen_armless.get(laid.track_id, -1) >= LONG_GONE_FRAMES and not self._laid_over_by_another(laid)

    def _laid_over_by_another(self, laid: Laid) -> bool:
        """Does a card counted after ``laid`` lie over its place, brought in while another
        player's hand was over the table? Then that card hides it: a card gone under its own
        player's arm and never seen since was not taken back when the next player's card
        lies on it. (The right card laid where a wrong one lay comes in that player's own
        hand alone.)"""
        state = self._state
        edge = state.layout.edges[laid.seat]
        for later in self._laid_over(laid):
            track = state.track(later.track_id)
            arms = track.arms(state.config.arm_min_frames) if track is not None else frozenset()
            if arms - {edge}:
                return True
            # Seen carried in from another player's edge: that player's hand laid it,
            # whatever arms were in view (the player whose card it covers often still
            # withdrawing).
            carried = state.carried_in_from(track.origin, track.anchor, track.rest_size) if track is not None else None
            if carried is not None and carried[0] != edge:
                return True
        return False

    def _laid_over(self, laid: Laid) -> list[Laid]:
        """The cards of this trick counted after ``laid`` that lie partly over its place
        (``COVERING_DISTANCE``)."""
        trick = self._state.ledger.trick
        return [
            later
            for later in trick[trick.index(laid) + 1 :]
            if math.dist(later.placed, laid.placed) < COVERING_DISTANCE * laid.size
        ]

    def _last_seen(self, laid: Laid, track: Track) -> float:
        """When ``laid`` (shown by ``track``) was last seen, carried off or where it lay."""
        return max(track.last_t, self._carried.get(laid.track_id, -math.inf))

    def _withdraw(self, carried: list[Laid], t: float) -> list[TrackerEvent]:
        """The cards ``carried`` off the trick do not count: say so for each."""
        ledger = self._state.ledger
        events: list[TrackerEvent] = []
        for laid in carried:
            old = self._state.track(laid.track_id)
            if old is not None:
                old.state = TrackState.RETIRED
            events.append(CardWithdrawn(card=laid.card, t=t))
        first = min((ledger.trick.index(laid) for laid in carried if laid in ledger.trick), default=len(ledger.trick))
        ledger.withdraw(carried)
        # A card counted after a withdrawn one took its seat from the turn with that card
        # in the trick; without it, the turn comes one seat earlier. A wrong card is taken
        # back before the next card is laid, so a card counted after it was laid after the
        # take-back, or lay hidden under it (the turn's card, counted once uncovered), or
        # came down with it in the same moment. A seat the camera saw stays.
        for i in range(first, len(ledger.trick)):
            laid = ledger.trick[i]
            seat = ledger.expected_seat(before=i)
            if laid.card not in ledger.seat_seen and seat is not None and seat != laid.seat:
                ledger.reseat(laid, seat)
                events.append(CardReread(was=laid.card, card=laid.card, t=t, seat=seat))
        return events
