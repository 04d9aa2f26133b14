"""Frames to game events: which card each player laid, and when a trick was collected.

The tracker is a plain, deterministic object: feed it one ``FrameDetections`` at a time
and it returns the events that frame completed (usually none). It keeps no clock and does
no I/O; event times are the times of the frames that decided them.

Per frame it (1) follows each card on the table with a track (``tracks``), (2) counts a
card as played once its track has lain still for a few frames and its identity vote is
clear enough or has waited long enough (``identity``), giving it the seat whose turn it
is (where it lies, where the hand came from and whose arm brought it, read against the
table's ``layout``, only say when a card was clearly laid out of turn), and (3) counts the trick as
collected once all its cards have left their places. A card its player took back before
the next card is withdrawn (``CardWithdrawn``). A trick swept with one card never read is collected with that seat's card
``unseen`` when the next trick's first card is counted (or at once, for the round's last
trick), so a card the camera missed costs one trick, not every later one: the rules
engine keeps that trick open for the card. The rules engine decides who won each trick
(the leader of the next one); a card clearly laid out of turn or by the wrong player is
reported as seen and left for the rules engine to flag.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scoring.cards import CARD_INDEX
from scoring.events import CardPlayed, Event, RoundStarted, TrickCollected
from scoring.rules import next_seat, trick_winner, turn_order
from vision.detection import Detection, FrameDetections
from vision.tracker.assignment import assign
from vision.tracker.config import TrackerConfig
from vision.tracker.identity import Reading, cards_not_held, resolve
from vision.tracker.layout import _EDGE_VECTORS, SeatGuess, TableLayout
from vision.tracker.reread import CardReread, CardWithdrawn
from vision.tracker.tracks import Track, TrackState, associate

TRICKS_PER_ROUND = 9
#: A counted card that vanished at once, outlined smaller than this share of the card
#: then lying in its place (and of a whole card here), was a view of that card under the
#: hand (``_take_over_partial_view``).
PUSHED_SIZE_RATIO = 0.95
#: What the tracker returns: schema events, and its second thoughts on a card it reported.
TrackerEvent = Event | CardReread | CardWithdrawn
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


def _shares(votes: dict[str, float]) -> dict[str, float]:
    """Each card id's share of a track's vote."""
    valid = {c: v for c, v in votes.items() if c in CARD_INDEX and v > 0}
    total = sum(valid.values())
    return {c: v / total for c, v in valid.items()} if total > 0 else {}


def _rename_order(changes: dict[str, str]) -> list[tuple[str, str]] | None:
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


def _in_turn(trick: list[tuple[int, str]], leader: int | None) -> list[tuple[int, str]]:
    """``trick``'s (seat, card) pairs in turn order from ``leader`` (as seen when the leader is unknown or
    has no card among them, or a seat lies twice)."""
    seats = [seat for seat, _ in trick]
    if leader is None or len(set(seats)) != len(seats) or leader not in seats:
        return list(trick)
    order = turn_order(leader)
    return sorted(trick, key=lambda c: order.index(c[0]))


@dataclass
class _Laid:
    """A card counted in the current trick, and the track that shows it on the table."""

    track_id: int
    seat: int
    card: str
    placed: tuple[float, float]
    size: float


@dataclass(frozen=True)
class _Count:
    """How a card of this round was counted: enough to reconsider it later."""

    seat: int
    confidence: float
    votes: dict[str, float]


class TrickTracker:
    """Turns a stream of per-frame detections into ``CardPlayed`` / ``TrickCollected`` events.

    Call :meth:`start_round` with the round's ``RoundStarted`` (it carries the contract and
    who leads), then :meth:`update` for every frame in time order, and :meth:`finish` when
    the stream ends.
    """

    def __init__(self, layout: TableLayout | None = None, config: TrackerConfig | None = None) -> None:
        self.layout = layout or TableLayout()
        self.config = config or TrackerConfig()
        self._tracks: list[Track] = []
        self._next_id = 0
        self._last_t: float | None = None
        #: Time between the last two frames (seconds); 0.1 until two frames have come.
        self._frame_dt = 0.1
        self._last_detections: tuple[Detection, ...] = ()
        #: (time, arms) of the last frames, for the arm that brought a card first seen now.
        self._arm_history: deque[tuple[float, frozenset[str]]] = deque()
        self._waiting = False  # set by _decide when a card waits for a clearer read
        #: Sizes (pixels) of recently counted cards: how big a whole card looks here.
        self._card_sizes: deque[float] = deque(maxlen=16)
        self._size: tuple[int, int] = (0, 0)
        self._contract: str | None = None
        self._leader = 0
        self._forehand = 0
        self._trick: list[_Laid] = []
        self._tricks_done = 0
        self._played: set[str] = set()
        #: How each card of this round was counted (seat, confidence, its vote).
        self._counted: dict[str, _Count] = {}
        #: (seat, card) of the tricks collected this round, for the leader and the voids.
        self._done: list[list[tuple[int, str]]] = []
        self._not_held: dict[int, set[str]] = {s: set() for s in range(4)}
        #: Centres of recent complete tricks (mean of their four cards), in pixels.
        self._trick_centres: deque[tuple[float, float]] = deque(maxlen=9)
        #: Speck: the turned-up Bodentrumpf, and where its track lay when it was shown.
        self._last_collected_t: float | None = None
        self._bodentrumpf: str | None = None
        self._shown: dict[int, tuple[float, float]] = {}

    # -- what the app may inspect -------------------------------------------------------

    @property
    def contract(self) -> str | None:
        return self._contract

    @property
    def tricks_done(self) -> int:
        return self._tricks_done

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the current trick."""
        return self._leader

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """(seat, card) of the cards counted in the trick on the table, in the order laid."""
        return [(laid.seat, laid.card) for laid in self._trick]

    @property
    def round_over(self) -> bool:
        return self._tricks_done >= TRICKS_PER_ROUND

    @property
    def tracks(self) -> tuple[Track, ...]:
        return tuple(self._tracks)

    @property
    def table_centre(self) -> tuple[float, float] | None:
        """The table centre measured from the tricks so far (pixels), None before the first.

        Cards of a trick lie around the real table centre, which need not be the image
        centre (a camera mounted off-centre); the median over recent tricks is robust to
        a trick laid askew.
        """
        if not self._trick_centres:
            return None
        xs = sorted(c[0] for c in self._trick_centres)
        ys = sorted(c[1] for c in self._trick_centres)
        return (xs[len(xs) // 2], ys[len(ys) // 2])

    # -- input ----------------------------------------------------------------------------

    def start_round(self, event: RoundStarted, history: Sequence[Event] = ()) -> None:
        """Begin a round: its contract, and ``forehand`` leads the first trick.

        Cards still on the table from before are not counted in the new round.
        ``history``: when resuming a round already under way (the appliance restarted),
        the round's events stored so far, after ``event``. The collected tricks among them
        are taken as done (their cards played, the last winner leading); the cards of the
        trick still on the table are left out, because the camera will see them again.
        """
        if not isinstance(event, RoundStarted):
            raise TypeError(f"start_round needs a RoundStarted event, got {type(event).__name__}")
        next_seat(event.forehand)  # validates the seat
        # Face-up cards lying about after the last round ended are that round's cards,
        # turned up to count them: shown, not played. A single one may be this round's
        # lead, laid before the contract was entered, and still counts.
        after_round = [
            tr for tr in self._tracks if self.round_over and tr.state is TrackState.CANDIDATE and tr.missed == 0
        ]
        self._contract = event.contract
        self._bodentrumpf = event.bodentrumpf
        self._shown = {tr.id: tr.anchor for tr in after_round} if len(after_round) >= 2 else {}
        self._leader = self._forehand = event.forehand
        self._trick = []
        self._tricks_done = 0
        self._played = set()
        self._counted = {}
        self._done = []
        self._not_held = {s: set() for s in range(4)}
        for track in self._tracks:
            if track.state is not TrackState.CANDIDATE:
                track.state = TrackState.RETIRED
        self._replay_history(history)

    def _replay_history(self, history: Sequence[Event]) -> None:
        assert self._contract is not None
        trick: list[tuple[int, str]] = []
        for e in history:
            if isinstance(e, CardPlayed):
                if len(trick) == 4:  # a trick left uncollected: the next card leads anew
                    trick = []
                trick.append((e.seat, e.card))
            elif isinstance(e, TrickCollected) and (len(trick) == 4 or (len(trick) == 3 and e.unseen is not None)):
                self._played.update(c for _, c in trick)
                self._done.append(trick)
                trick = []
                # A resumed recording starts a little before this: that trick's cards
                # seen still lying then are old cards, not new ones (_may_be_old_card).
                self._last_collected_t = e.t if e.t is not None else self._last_collected_t
        self._done = self._done[:TRICKS_PER_ROUND]
        self._tricks_done = len(self._done)
        self._recompute_constraints()

    def update(self, frame: FrameDetections, *, repeated: bool | None = None) -> list[TrackerEvent]:
        """Take one frame's detections; return the events it completed, in order.

        ``repeated``: the detections are the previous frame's, handed on because the
        picture did not change (``FrameGate``). They still count as time passing with the
        cards where they were, but not as new reads in the identity vote, so one unlucky
        read is not multiplied by the frames it was repeated for. By default a frame whose
        detections are the very same objects as the previous frame's is taken as repeated.
        """
        if self._last_t is not None and frame.t < self._last_t:
            raise ValueError(f"frames must come in time order: t={frame.t} after t={self._last_t}")
        if repeated is None:
            repeated = (
                bool(frame.detections)
                and all(a is b for a, b in zip(frame.detections, self._last_detections, strict=False))
                and len(frame.detections) == len(self._last_detections)
            )
        self._last_detections = frame.detections
        if self._last_t is not None and frame.t > self._last_t:
            self._frame_dt = frame.t - self._last_t
        self._last_t = frame.t
        self._size = (frame.width, frame.height)
        self._follow(frame, vote=not repeated)
        if self._contract is None or self.round_over:
            return []
        events: list[TrackerEvent] = []
        events += self._check_collected(frame.t)
        events += self._check_counted_reads(frame.t)
        ready = [
            tr
            for tr in self._tracks
            if tr.state is TrackState.CANDIDATE and tr.rest_frames >= self.config.minimum_consecutive_frames
        ]
        ready.sort(key=lambda tr: (tr.rest_t, tr.id))
        if ready and not self.round_over:
            # A card come to rest while one of the trick was carried off: that one was
            # taken back (before the turn of the cards now down is weighed).
            events += self._withdraw_taken_back(ready[0], frame.t)
        while ready:
            ready = self._order_together(ready)
            track = ready.pop(0)
            if self.round_over:
                break
            self._waiting = False
            if self._awaits_partner(track):
                break
            events += self._decide(track, frame.t, forced=False)
            if self._waiting and track.missed == 0:
                # Cards count in the order they came to rest: one laid later but read
                # sooner waits for this one (a bounded wait, maximum_decision_frames).
                break
        return events

    def _partners(self, track: Track, since: float | None = None) -> list[Track]:
        """Cards laid almost together with ``track``: other candidates in the trick area
        that came to rest (or are still coming in) within ``together_window`` of it; with
        ``since``, those laid from that many seconds before it until it."""
        cfg = self.config
        out = []
        for other in self._tracks:
            if other is track or other.state is not TrackState.CANDIDATE or other.id in self._shown:
                continue
            if other.missed and (since is None or other.rest_frames < 2):
                continue  # gone; but one laid before that a hand now hides will show again
            if since is None and abs(other.arrival - track.arrival) > cfg.together_window:
                continue
            if since is not None and not track.arrival + since <= other.arrival <= track.arrival:
                continue
            if other.leading_identity()[0] == track.leading_identity()[0]:
                continue  # the same card seen twice (a partial view beside the whole)
            if not self.layout.in_play_area(other.anchor, *self._size):
                continue
            out.append(other)
        return out

    def _awaits_partner(self, track: Track) -> bool:
        """Wait (within twice the latency budget) while a card laid almost together with
        ``track`` is still to be counted and may be the card whose turn it is: it has not
        come to rest long enough to be weighed against ``track``, or ``track`` looks laid
        out of turn, or the other fits the turn clearly better."""
        cfg = self.config
        first, taken = self._upcoming()
        if first is None or track.rest_frames >= 2 * cfg.maximum_decision_frames:
            return False
        partners = self._partners(track)
        if self._assign(track.settled, track.settled_corners, track=track).by != "turn" and any(
            other.arrival <= track.arrival + 1.5 * self._frame_dt
            for other in [*partners, *self._partners(track, since=-math.inf)]
        ):
            # It looks laid out of turn, and a card laid before it (or at the same moment)
            # is still to be counted: that one may be the card whose turn it was, only
            # slower to read. One laid after it does not make it any less out of turn.
            return True
        if not partners:
            return False
        second = self._second_seat(first, taken)
        if second is not None and any(self._better_swapped(track, other, first, second) for other in partners):
            return True
        if track.rest_frames >= cfg.maximum_decision_frames:
            return False
        return any(
            other.rest_frames < cfg.minimum_consecutive_frames and other.arrival >= track.arrival for other in partners
        )

    def _turn_seats(self) -> list[int]:
        """The seats whose turn the next cards are, in order, as far as that is known now
        (after the trick's fourth card the winner leads, who is not known yet)."""
        first, taken = self._upcoming()
        if first is None:
            return []
        if len(self._trick) == 4:
            return turn_order(first)
        return [first, *(seat for seat in turn_order(self._leader) if seat not in taken | {first})]

    def _second_seat(self, first: int, taken: set[int]) -> int | None:
        """Whose turn it is after ``first`` lays the next card (``taken``: seats that have laid)."""
        seats = self._turn_seats()
        return seats[1] if len(seats) > 1 and seats[0] == first else None

    def _better_swapped(self, a: Track, b: Track, first: int, second: int) -> bool:
        """Do ``b`` then ``a`` fit the seats ``first`` and ``second`` clearly better than
        ``a`` then ``b``?"""
        hands = (self._hand_from(a), self._hand_from(b))
        if None not in hands and hands[0] != hands[1] and abs(a.arrival - b.arrival) > 1.5 * self._frame_dt:
            return False  # both hands seen, one after the other: the order they came in is the order laid
        as_is = self._fit(a, first) + self._fit(b, second)
        swapped = self._fit(b, first) + self._fit(a, second)
        return swapped > as_is + 0.5

    def _hand_from(self, track: Track) -> int | None:
        """The seat whose edge the hand clearly brought ``track`` in from, if it was seen."""
        cfg = self.config
        place = track.settled if track.settled_frames >= 2 else track.anchor
        way_in = (track.origin[0] - place[0], track.origin[1] - place[1])
        if math.hypot(*way_in) < cfg.approach_distance * max(track.rest_size, 1.0):
            return None
        edge, margin = self.layout.squareness(way_in)
        return self.layout.seat_of_edge(edge) if margin >= cfg.evidence_margin else None

    def _order_together(self, ready: list[Track]) -> list[Track]:
        """``ready`` in the order to count them: when the first of them was laid almost
        together with others, the one of the group that should come first is the one
        whose place and hand fit the seats whose turn it is clearly best. Which of them
        settled a frame sooner says nothing about who laid first."""
        seats = self._turn_seats()
        if len(ready) < 2 or not seats:
            return ready
        partners = self._partners(ready[0])
        group = [ready[0], *(tr for tr in ready[1:] if tr in partners)][:3]
        if len(group) < 2:
            return ready
        seats = seats[: len(group)]

        def score(order: tuple[Track, ...]) -> float:
            return sum(self._fit(tr, seat) for tr, seat in zip(order, seats, strict=False))

        as_is = score(tuple(group))
        best = max(itertools.permutations(group), key=score)
        if score(best) <= as_is + 0.5 or best[0] is ready[0]:
            return ready
        return [best[0], *(tr for tr in ready if tr is not best[0])]

    def finish(self, t: float | None = None) -> list[TrackerEvent]:
        """The stream ended: count the cards that were about to count.

        A resting card not yet decided is decided now. A complete trick still on the table
        stays uncollected (nobody took it), so no ``TrickCollected`` is invented.
        """
        if self._contract is None or self.round_over:
            return []
        when = t if t is not None else (self._last_t or 0.0)
        events: list[TrackerEvent] = []
        pending = [
            tr
            for tr in self._tracks
            if tr.state is TrackState.CANDIDATE
            and tr.seen >= self.config.flush_min_frames
            and tr.rest_frames >= 2
            and tr.missed == 0  # still on the table at the end
        ]
        pending.sort(key=lambda tr: (tr.rest_t, tr.id))
        for track in pending:
            if len(self._trick) >= 4:
                break
            events += self._decide(track, when, forced=True)
        return events

    # -- tracking -------------------------------------------------------------------------

    def _follow(self, frame: FrameDetections, *, vote: bool = True) -> None:
        cfg = self.config
        dets = [d for d in frame.detections if d.face_up and d.confidence >= cfg.min_detection_confidence]
        pairs = associate(self._tracks, dets, cfg, self._gone_trick())
        matched_tracks = {ti for ti, _ in pairs}
        matched_dets = {di for _, di in pairs}
        self._arm_history.append((frame.t, frame.arms))
        while self._arm_history[0][0] < frame.t - cfg.arm_lead:
            self._arm_history.popleft()
        for ti, di in pairs:
            track = self._tracks[ti]
            coming_in, was_gone = track.arrived_t is None, track.missed > 0
            track.observe(dets[di], frame.t, cfg, vote=vote)
            if was_gone and track.arrived_t is None and not track.arm_frames:
                self._note_arms_before(track)  # gone and laid anew: by the hand seen just now
            elif coming_in or track.arrived_t is None:
                track.note_arms(frame.arms)  # still coming in, or this frame it came to rest
        for ti, track in enumerate(self._tracks):
            if ti not in matched_tracks:
                track.miss()
        for di, det in enumerate(dets):
            if di not in matched_dets:
                track = Track.start(self._next_id, det, frame.t)
                self._note_arms_before(track)
                self._tracks.append(track)
                self._next_id += 1
        in_trick = {laid.track_id for laid in self._trick}
        self._tracks = [tr for tr in self._tracks if self._worth_keeping(tr, frame.t, in_trick)]

    def _note_arms_before(self, track: Track) -> None:
        """The arms seen over the last ``arm_lead`` seconds, this frame's included, count for
        ``track``, first seen now: the hand hid it on most of its way in."""
        for _, arms in self._arm_history:
            track.note_arms(arms, first_seen=True)

    def _gone_trick(self) -> frozenset[int]:
        """Track ids of this trick's counted cards if every one has been gone as long as a
        collected trick's (picked up before a card was read, so not collected yet)."""
        trick = [tr for laid in self._trick if (tr := self._track(laid.track_id)) is not None]
        if not trick or len(trick) < len(self._trick):
            return frozenset()
        if all(tr.missed >= self.config.collect_after_frames for tr in trick):
            return frozenset(tr.id for tr in trick)
        return frozenset()

    def _worth_keeping(self, track: Track, t: float, in_trick: set[int]) -> bool:
        """Keep a vanished card in mind only where it may come back: a played card or one
        that had come to rest (a hand over it). A card seen only in motion (being swept,
        a false detection) is forgotten quickly so it cannot steal another card's detections.
        """
        if t - track.last_t > self.config.lost_track_buffer:
            return False
        if track.id in self._shown and track.missed >= self.config.collect_after_frames:
            return False  # a shown card put away: never to be taken for the card laid there next
        if track.id in in_trick:
            return True
        if track.state is TrackState.CANDIDATE and track.rest_frames >= 2:
            return True
        return track.missed <= self.config.collect_after_frames

    def _track(self, track_id: int) -> Track | None:
        for tr in self._tracks:
            if tr.id == track_id:
                return tr
        return None

    def _left_its_place(self, laid: _Laid) -> bool:
        track = self._track(laid.track_id)
        if track is None or track.missed >= self.config.collect_after_frames:
            return True
        moved = ((track.centre[0] - laid.placed[0]) ** 2 + (track.centre[1] - laid.placed[1]) ** 2) ** 0.5
        return moved > self.config.left_distance * laid.size

    # -- decisions ------------------------------------------------------------------------

    def _expected_seat(self, before: int | None = None) -> int | None:
        """Whose turn the card after the trick's first ``before`` cards (default: all of
        them) is: the first seat in turn order from the leader that has not laid one of
        them. A card laid out of turn leaves the turn where it was. None when nobody knows
        who leads (the last trick had an unseen card) or the trick is full."""
        n = len(self._trick) if before is None else before
        if n == 0 and self._done and len(self._done[-1]) < 4:
            return None
        taken = {laid.seat for laid in self._trick[:n]}
        return next((seat for seat in turn_order(self._leader) if seat not in taken), None)

    def _lies_on_counted(self, track: Track) -> Track | None:
        """The track of a counted card of this trick lying where ``track`` lies (and hidden
        by it, or read again instead of it), if any."""
        for laid in self._trick:
            old = self._track(laid.track_id)
            if old is None or old is track:
                continue
            if (
                old.state is TrackState.PLAYED
                and math.dist(old.centre, track.anchor) <= self.config.match_distance * laid.size
            ):
                return old
        return None

    def _upcoming(self) -> tuple[int | None, set[int]]:
        """Whose turn the next card counted is, and the seats that cannot lay it. After a
        full trick still lying there, the next card leads the next trick: its winner's."""
        if len(self._trick) < 4:
            return self._expected_seat(), {laid.seat for laid in self._trick}
        assert self._contract is not None
        cards = _in_turn([(laid.seat, laid.card) for laid in self._trick], self._leader)
        if len({seat for seat, _ in cards}) < 4 or cards[0][0] != self._leader:
            return None, set()
        return cards[trick_winner([c for _, c in cards], self._contract, trick=len(self._done))][0], set()

    def _decide(self, track: Track, t: float, *, forced: bool) -> list[TrackerEvent]:
        """Count ``track`` as played if it is ready (``forced``: decide now, whatever the read)."""
        cfg = self.config
        # A card of this trick that vanished and shows up again elsewhere (nudged far,
        # lifted and put back) is the same card, not a new play.
        leader, _ = track.leading_identity()
        if self._is_shown(track, leader):
            return []
        for laid in self._trick:
            if laid.card == leader and self._track(laid.track_id) is not track and self._left_its_place(laid):
                old = self._track(laid.track_id)
                if old is not None:
                    old.state = TrackState.RETIRED
                laid.track_id = track.id
                laid.placed = track.anchor
                laid.size = track.rest_size
                track.state = TrackState.PLAYED
                track.card = laid.card
                return []
        taken = self._take_over_partial_view(track, t, forced=forced)
        if taken is not None:
            return taken
        under = self._lies_on_counted(track)
        if under is not None:
            # Read as another card right where a counted card lies, which is hidden since:
            # the next card laid on top of it, or that card misread for a few frames. A
            # misread ends and the counted card shows again; a card on top stays.
            if under.missed == 0 and track.missed > 0:
                track.state = TrackState.IGNORED
                return []
            if under.missed > 0 and not forced and track.rest_frames < cfg.maximum_decision_frames:
                self._waiting = True
                return []
        place, place_corners = track.settled, track.settled_corners
        if forced and track.settled_frames < 2 and track.path:
            # Never lay still: it was laid where it came nearest the middle before the sweep.
            place, place_corners = min(track.path, key=lambda pc: self.layout.radius(pc[0], *self._size))
        if not self.layout.in_play_area(place, *self._size):
            # Held cards, the Bodentrumpf, a stack at the rim: not a card laid into the trick.
            return []
        seat_guess = self._assign(place, place_corners, track=track)
        reading = resolve(
            track.votes, self._played, replay_share=cfg.replay_share, not_held=self._not_held[seat_guess.seat]
        )
        if reading is None:
            track.state = TrackState.IGNORED
            return []
        if reading.replay and not self._may_be_old_card(track, reading.card):
            # Read firmly as a card of an earlier trick, yet it appeared during this one:
            # a misread new card. Strike the old card and take the best remaining read.
            reading = resolve(
                track.votes, self._played, replay_share=2.0, not_held=self._not_held[seat_guess.seat]
            )  # a share never reaches 2: no replay
            if reading is None:
                return []
        if reading.replay:
            if not forced and track.rest_frames < cfg.maximum_decision_frames:
                return []  # an old card seen again is rare: make sure before ignoring it
            track.state = TrackState.IGNORED
            track.card = reading.card
            return []
        reading, reread = self._doubt_earlier_read(track, reading)
        if reread and not forced and track.rest_frames < cfg.maximum_decision_frames:
            # Changing a card already reported takes the longest look the latency budget
            # allows: early reads of a card still in the hand are the least reliable.
            self._waiting = True
            return []
        if (
            not forced
            and track.rest_frames < cfg.maximum_decision_frames
            and (
                reading.confidence < cfg.decide_confidence
                or track.rest_read_confidence < cfg.clear_read_confidence
                or self._looks_partial(track)
            )
        ):
            # Wait for a clearer read while the latency budget allows: the vote is split,
            # or the recogniser is unsure of every read (a hand still half over the card,
            # whose withdrawal usually shows the card and its true place a moment later).
            self._waiting = True
            return []
        events: list[TrackerEvent] = []
        for was, now in reread:
            events.append(self._reread(was, now, t))
        if not forced:
            withdrawn = self._withdraw_taken_back(track, t)
            if withdrawn:
                events += withdrawn
                seat_guess = self._assign(place, place_corners, track=track)
        unseen = None if forced else self._unseen_seat()  # forced: a card swept with its trick
        if len(self._trick) >= 4 or unseen is not None:
            # A fifth card: the last trick must have gone unseen (e.g. lifted straight up
            # while a hand hid it). Or the trick was swept with three cards counted and
            # this card leads the next: the fourth was never read. Close it before
            # counting the new card.
            events += self._collect(t, collector=None if unseen is None else self._collector(), unseen=unseen)
            if self.round_over:
                return events
            seat_guess = self._assign(place, place_corners, track=track)  # a new trick: new leader, no seat taken
        events.append(self._play(track, seat_guess.seat, reading, t, place))
        return events

    def _assign(
        self,
        place: tuple[float, float],
        corners: tuple[tuple[float, float], ...],
        laid: _Laid | None = None,
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
        if laid is None:
            expected, others = self._upcoming()
        else:
            expected = self._expected_seat(self._trick.index(laid))
            others = {other.seat for other in self._trick if other is not laid}
        if expected is None:
            return self.layout.assign(place, *self._size, corners=corners, exclude=others, centre=self.table_centre)
        size = track.rest_size if track is not None else (laid.size if laid is not None else 0.0)
        origin = track.origin if track is not None else None
        arms = track.arms(self.config.arm_min_frames) if track is not None else frozenset()
        evidence = self._out_of_turn_evidence(place, size, origin, expected, others, arms)
        return evidence if evidence is not None else SeatGuess(expected, 1.0, "turn")

    def _centre_px(self) -> tuple[float, float]:
        w, h = self._size
        return self.table_centre or (self.layout.centre[0] * w, self.layout.centre[1] * h)

    def _out_of_turn_evidence(
        self,
        place: tuple[float, float],
        size: float,
        origin: tuple[float, float] | None,
        expected: int,
        taken: set[int],
        arms: frozenset[str] = frozenset(),
    ) -> SeatGuess | None:
        """The seat that clearly laid a card whose turn was ``expected``'s, if another.

        Clear is: while the card came in, an arm reached in from that seat's edge alone
        (``arms``; ``expected``'s arm seen at all settles it the other way: the previous
        player's arm withdrawing, the winner's sweeping or the next player's reaching early
        are often in view at the same time); or, with no arm seen, the hand brought the
        card in from that seat's edge (first seen far out, squarely on that side of where
        it came to rest), or the card lies squarely in front of that seat, far out from
        the centre. A hand seen coming from ``expected``'s edge settles it the other way,
        wherever the card lies. The card's angle is no evidence: cards are tossed at any
        angle, and double-headed court cards have no up.
        """
        cfg = self.config
        size = max(size, 1.0)
        if self.layout.edges[expected] in arms:
            return None
        if len(arms) == 1:
            seat = self.layout.seat_of_edge(next(iter(arms)))
            if seat not in taken:
                return SeatGuess(seat, 1.0, "arm")
        if origin is not None:
            way_in = (origin[0] - place[0], origin[1] - place[1])
            if math.hypot(*way_in) >= cfg.approach_distance * size:
                edge, margin = self.layout.squareness(way_in)
                seat = self.layout.seat_of_edge(edge)
                if margin >= cfg.evidence_margin:
                    if seat == expected:
                        return None
                    if seat not in taken:
                        return SeatGuess(seat, margin, "approach")
        cx, cy = self._centre_px()
        out = (place[0] - cx, place[1] - cy)
        if math.hypot(*out) >= cfg.front_distance * size:
            edge, margin = self.layout.squareness(out)
            seat = self.layout.seat_of_edge(edge)
            if margin >= cfg.evidence_margin and seat != expected and seat not in taken:
                return SeatGuess(seat, margin, "position")
        return None

    def _fit(self, track: Track, seat: int) -> float:
        """How well where ``track`` lies and where its hand came from fit ``seat`` (-2..2):
        to order two cards laid almost together, never to overrule the turn."""
        cx, cy = self._centre_px()
        size = max(track.rest_size, 1.0)
        ex, ey = _EDGE_VECTORS[self.layout.edges[seat]]
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

    def _withdraw_taken_back(self, track: Track, t: float) -> list[TrackerEvent]:
        """Cards of this trick taken back by their player before ``track``, the next card:
        withdrawn, so the trick and the turn are as if they had never been laid.

        Taken back is a counted card last seen carried well away from where it lay and
        gone since, while every other card of the trick still lies in its place: a hand
        over a card hides it where it lies, a gathered trick moves as a whole, and a card
        knocked aside still shows. Judged only when the next card counts, because until
        then a trick being gathered card by card looks the same.
        """
        carried: list[_Laid] = []
        for laid in self._trick:
            old = self._track(laid.track_id)
            if old is None or old is track:
                return []  # forgotten: no telling how it went
            if self._carried_off(laid, old) and old.last_t < track.arrival:
                carried.append(laid)
            elif self._gone_for(laid, old) > t - track.arrival:
                # Another card was on the move or hidden too when this one was laid: a
                # gathering, a hand over the trick. (One the trick's collector has just
                # begun to gather, after this card came down, does not count.)
                return []
        if len(carried) == len(self._trick) > 1:
            return []  # the whole trick went: collected (with a card never seen), not taken back
        return self._withdraw(carried, t)

    def _gone_for(self, laid: _Laid, track: Track) -> float:
        """Roughly how long (seconds) ``laid`` has been away from where it lay or unseen:
        0 while it lies there in view."""
        away = 0
        for centre, _ in reversed(track.path):
            if math.dist(centre, laid.placed) <= self.config.match_distance * laid.size:
                break
            away += 1
        return (away + track.missed) * self._frame_dt

    def _carried_off(self, laid: _Laid, track: Track) -> bool:
        """Was ``laid`` (shown by ``track``) last seen carried well away from where it lay,
        and gone since?"""
        cfg = self.config
        return (
            track.missed >= cfg.collect_after_frames
            and math.dist(track.centre, laid.placed) > cfg.left_distance * laid.size
        )

    def _withdraw(self, carried: list[_Laid], t: float) -> list[TrackerEvent]:
        events: list[TrackerEvent] = []
        for laid in carried:
            old = self._track(laid.track_id)
            if old is not None:
                old.state = TrackState.RETIRED
            self._trick.remove(laid)
            self._played.discard(laid.card)
            self._counted.pop(laid.card, None)
            events.append(CardWithdrawn(card=laid.card, t=t))
        if events:
            self._recompute_constraints()
        return events

    def _unseen_seat(self) -> int | None:
        """The seat whose card was never read, when the trick was swept with three counted."""
        if len(self._trick) != 3 or not all(self._left_its_place(laid) for laid in self._trick):
            return None
        seats = {laid.seat for laid in self._trick}
        return next(s for s in range(4) if s not in seats)

    def _may_be_old_card(self, track: Track, card: str) -> bool:
        """Could ``track``, read as the already played ``card``, really be that old card?

        Yes if it is a card of the trick on the table (the same card detected twice), or if
        the track was already there before the last trick was collected (a card of that
        trick left lying, a pile). A card that turned up during this trick is a new card.
        """
        if self._seen_twice_in_trick(track, card):
            return True
        return self._last_collected_t is not None and track.first_t <= self._last_collected_t

    def _is_shown(self, track: Track, leader: str | None) -> bool:
        """A card shown, not played: it lies where it was when it was shown.

        Shown are the Speck Bodentrumpf turned up before the first trick, and the cards
        left face up from the round before when this one started (the last trick turned
        up to count). It stays "shown" while it lies where it was first seen at rest;
        should it later be laid from there into a trick, it moves, settles elsewhere and
        counts.
        """
        shown = self._shown.get(track.id)
        if shown is not None:
            return ((track.anchor[0] - shown[0]) ** 2 + (track.anchor[1] - shown[1]) ** 2) ** 0.5 <= track.size
        if self._bodentrumpf is None or leader != self._bodentrumpf or self._played:
            return False
        self._shown[track.id] = track.anchor
        return True

    def _play(self, track: Track, seat: int, reading: Reading, t: float, place: tuple[float, float]) -> CardPlayed:
        assert self._contract is not None
        track.state = TrackState.PLAYED
        track.card = reading.card
        self._trick.append(_Laid(track.id, seat, reading.card, place, track.rest_size))
        self._recompute_constraints()
        self._card_sizes.append(track.rest_size)
        self._counted[reading.card] = _Count(seat, reading.confidence, dict(track.votes))
        self._drop_partial_views(track, place)
        self._played.add(reading.card)
        ask = reading.confidence < self.config.ask_below
        return CardPlayed(
            seat=seat,
            card=reading.card,
            t=t,
            confidence=round(reading.confidence, 3),
            alternatives=reading.alternatives if ask else (),
        )

    def _doubt_earlier_read(self, track: Track, reading: Reading) -> tuple[Reading, list[tuple[str, str]]]:
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
        raw = resolve(track.votes, (), replay_share=2.0)
        if raw is None:
            return reading, []
        if raw.card in self._played and self._seen_twice_in_trick(track, raw.card):
            return reading, []  # the same trick: one card seen twice, not a misread
        plan = self._rethink(track, reading)
        if plan is not None:
            card, changes = plan
            total = sum(v for c, v in track.votes.items() if c in CARD_INDEX)
            unplayed = tuple((c, p) for c, p in raw.alternatives if c not in self._played and c != card)
            return Reading(card, min(1.0, track.votes[card] / total), unplayed), changes
        if raw.card not in self._played:
            return reading, []
        earlier = self._counted[raw.card].confidence if raw.card in self._counted else 1.0
        if raw.confidence < self.config.decide_confidence or raw.confidence <= earlier + 0.1:
            return reading, []
        if raw.card == reading.card:
            return reading, []  # every read was a played card: already reported unsure
        alternatives = ((reading.card, round(reading.confidence, 3)), *reading.alternatives)[:3]
        return Reading(raw.card, min(raw.confidence, 0.5), alternatives), []

    def _rethink(self, track: Track, reading: Reading) -> tuple[str, list[tuple[str, str]]] | None:
        """The likeliest naming of this round's counted cards and ``track`` together, if it
        renames an earlier card and beats the status quo by ``REREAD_ODDS``."""
        shares = _shares(track.votes)
        if not any(shares.get(c, 0.0) >= MIN_REREAD_SHARE for c in self._counted):
            return None  # this card's read does not compete with any counted card
        counted = list(self._counted.items())
        fixed = self._played - self._counted.keys()  # counted before a restart: no votes kept
        columns = [c for c in CARD_INDEX if c not in fixed]
        rows = [_shares(count.votes) for _, count in counted] + [shares]
        if len(rows) > len(columns):
            return None  # more cards than the deck has: a card is surely seen twice
        cost = [[-math.log(max(row.get(c, 0.0), REREAD_FLOOR)) for c in columns] for row in rows]
        best = assign(cost)
        named = [columns[j] for j in best]
        if named[:-1] == [card for card, _ in counted]:
            return None  # the earlier cards stand
        if shares.get(named[-1], 0.0) < MIN_REREAD_READ:
            return None
        changed = {was: now for (was, _), now in zip(counted, named[:-1], strict=True) if was != now}
        if any(rows[i].get(named[i], 0.0) < MIN_REREAD_SHARE for i in range(len(counted)) if named[i] != counted[i][0]):
            return None  # a rename nobody read: a guess, not a correction
        status_quo = sum(cost[i][columns.index(card)] for i, (card, _) in enumerate(counted))
        status_quo += -math.log(
            max(shares.get(reading.card, 0.0) if reading.card not in self._played else 0.0, REREAD_FLOOR)
        )
        if sum(cost[i][j] for i, j in enumerate(best)) > status_quo - math.log(REREAD_ODDS):
            return None
        order = _rename_order(changed)
        return (named[-1], order) if order is not None else None

    def _check_counted_reads(self, t: float) -> list[TrackerEvent]:
        """A card of this trick whose reads since it counted clearly name another unplayed
        card: reread it.

        A card counts a few frames after it comes to rest, sometimes on reads made while
        the hand still covered part of it or it was still sliding; it then lies still and
        whole for seconds. When those later reads outweigh the ones it counted on (twice
        over), or it counted from a partial view and now shows whole, and they name one
        unplayed card clearly, that card is what lies there. The same as a partial view
        replaced by a new track (``_take_over_partial_view``), for when the whole card's
        detections continue the counted track itself.
        """
        cfg = self.config
        events: list[TrackerEvent] = []
        for laid in self._trick:
            track = self._track(laid.track_id)
            count = self._counted.get(laid.card)
            if track is None or count is None or track.missed or track.rest_frames < cfg.maximum_decision_frames:
                continue
            since = {c: v - count.votes.get(c, 0.0) for c, v in track.votes.items()}
            partial = laid.size < cfg.partial_size_ratio * track.rest_size
            if partial:
                events += self._check_seat(laid, track, t)
            if not partial and sum(since.values()) < 2.0 * sum(count.votes.values()):
                continue
            reading = resolve(since, self._played - {laid.card}, replay_share=2.0)
            if reading is None or reading.card == laid.card or reading.card in self._played:
                continue
            if reading.confidence < cfg.decide_confidence:
                continue
            laid.placed, laid.size = track.anchor, track.rest_size
            events.append(
                self._reread(laid.card, reading.card, t, _Count(count.seat, reading.confidence, dict(track.votes)))
            )
        return events

    def _check_seat(self, laid: _Laid, track: Track, t: float) -> list[TrackerEvent]:
        """A card counted from a partial view now lies whole: weigh the evidence on its seat again.

        A hand that lays a card hides part of it, so the view it counted from lay off its
        true place, towards the hand, and may have looked like a card in front of another
        player (or hidden that it is). A changed seat is reported as a correction the
        table sees, never made silently.
        """
        guess = self._assign(track.anchor, track.anchor_corners, laid, track)
        laid.placed, laid.size = track.anchor, track.rest_size
        if guess.seat == laid.seat or any(other.seat == guess.seat for other in self._trick if other is not laid):
            return []
        laid.seat = guess.seat
        count = self._counted.get(laid.card)
        if count is not None:
            self._counted[laid.card] = replace(count, seat=guess.seat)
        self._recompute_constraints()
        return [CardReread(was=laid.card, card=laid.card, t=t, seat=guess.seat)]

    def _take_over_partial_view(self, track: Track, t: float, *, forced: bool) -> list[TrackerEvent] | None:
        """A card counted from a partial view (a hand still over it, so smaller than the
        card) that vanished, with ``track`` now lying whole in its place: it was this card.

        The hand that lays a card can hide most of it for a few frames; that view may
        count (and be misread) before the hand withdraws and the whole card shows. Then
        ``track`` takes the counted card's place and seat, and if it reads as another card
        the counted one is reread. None when ``track`` is no such card; ``[]`` while its
        read is not yet clear enough.

        It was such a view when it looked clearly smaller than ``track``, or somewhat
        smaller and it vanished within a moment of coming to rest with ``track`` showing
        up in its place at that very moment: a card resting a few frames under the hand,
        then pushed into place. The outline the detector draws around a card half under a
        hand need not be much smaller (a game's Ober read as Under looked 0.85 of the
        whole card); a whole card that another player's card covers at once is not taken,
        nor one that a card still held above the table (so bigger) is laid over.
        """
        cfg = self.config
        # Smaller than the card lying there now and, once a trick's worth of cards has
        # been counted (fewer could be mostly this very view), than the cards counted on
        # this table: a card still held above the table looks bigger than the one under it.
        typical = self._whole_card_size(min_cards=4)
        whole = track.rest_size if typical is None else min(track.rest_size, typical)
        for laid in self._trick:
            old = self._track(laid.track_id)
            if old is track or laid.track_id > track.id or (old is not None and old.missed == 0):
                continue
            dx, dy = track.anchor[0] - laid.placed[0], track.anchor[1] - laid.placed[1]
            near = (dx * dx + dy * dy) ** 0.5 <= cfg.match_distance * track.size
            smaller = laid.size < cfg.partial_size_ratio * whole
            pushed = (
                old is not None
                and laid.size < PUSHED_SIZE_RATIO * whole
                and old.rest_frames <= cfg.maximum_decision_frames
                and old.last_t <= track.first_t <= old.last_t + 2.5 * self._frame_dt
            )
            if not near or not (smaller or pushed) or self._looks_partial(track):
                continue
            reading = resolve(track.votes, self._played - {laid.card}, replay_share=2.0)
            if reading is None:
                return None
            if (
                not forced
                and track.rest_frames < cfg.maximum_decision_frames
                and reading.confidence < cfg.decide_confidence
            ):
                self._waiting = True
                return []
            if old is not None:
                old.state = TrackState.RETIRED
            events: list[TrackerEvent] = []
            laid.track_id, laid.placed, laid.size = track.id, track.anchor, track.rest_size
            if reading.card != laid.card:
                events.append(
                    self._reread(laid.card, reading.card, t, _Count(laid.seat, reading.confidence, dict(track.votes)))
                )
            track.state = TrackState.PLAYED
            track.card = laid.card
            return events
        return None

    def _seen_twice_in_trick(self, track: Track, card: str) -> bool:
        """Is ``track``, read as ``card`` of the trick on the table, that same card seen
        again (detected twice, or moved)? Not when the counted one still lies at its place
        in view while this one lies elsewhere: two cards on the table cannot both be it."""
        for laid in self._trick:
            if laid.card != card:
                continue
            counted = self._track(laid.track_id)
            if counted is None or counted is track or counted.missed > 0 or self._left_its_place(laid):
                return True
            dx, dy = track.anchor[0] - laid.placed[0], track.anchor[1] - laid.placed[1]
            return (dx * dx + dy * dy) ** 0.5 <= self.config.match_distance * laid.size
        return False

    def _reread(self, was: str, now: str, t: float, count: _Count | None = None) -> CardReread:
        """Count the earlier card ``was`` as ``now`` from now on, and say so. ``count``:
        how ``now`` counts (default: ``was``'s count, with ``now``'s share of its vote)."""
        old = self._counted.pop(was, None)
        if count is None:
            assert old is not None
            count = replace(old, confidence=min(1.0, _shares(old.votes).get(now, 0.0)))
        self._counted[now] = count
        self._played.discard(was)
        self._played.add(now)
        for laid in self._trick:
            if laid.card == was:
                laid.card = now
                counted = self._track(laid.track_id)
                if counted is not None:
                    counted.card = now
        for trick in self._done:
            trick[:] = [(seat, now if c == was else c) for seat, c in trick]
        self._recompute_constraints()
        return CardReread(was=was, card=now, t=t)

    def _recompute_constraints(self) -> None:
        """Who leads and which suits each player has shown not to hold, from the cards as
        now counted. Recomputed after every card, collection and reread rather than kept
        up incrementally, so a reread that changes a trick's winner or a follow cannot
        leave a stale constraint behind (nine tricks: the cost is nothing).

        Each full trick is read in turn from its rightful leader, as the rules engine
        keeps it (``scoring.game.Game.lay_in_turn``): a lead seen after the next seat's
        card is still the lead. In the open trick, nothing is taken from the cards before
        the leader's is seen."""
        assert self._contract is not None
        self._not_held = {s: set() for s in range(4)}
        leader: int | None = self._forehand
        for n, trick in enumerate(self._done):
            cards = _in_turn(trick, leader)
            self._note_follows(cards)
            leader = cards[trick_winner([c for _, c in cards], self._contract, trick=n)][0] if len(cards) == 4 else None
        open_trick = [(laid.seat, laid.card) for laid in self._trick]
        if leader is not None:
            open_trick = _in_turn(open_trick, leader) if any(seat == leader for seat, _ in open_trick) else []
        self._note_follows(open_trick)
        if leader is not None:
            self._leader = leader
        elif self._done and self._trick:  # after an unseen card: whoever led this trick
            self._leader = self._trick[0].seat

    def _note_follows(self, cards: list[tuple[int, str]]) -> None:
        """What the cards after a trick's lead say their players do not hold."""
        assert self._contract is not None
        if cards:
            lead = cards[0][1]
            for seat, card in cards[1:]:
                self._not_held[seat] |= cards_not_held(lead, card, self._contract)

    def _looks_partial(self, track: Track) -> bool:
        """The card looks clearly smaller than the cards counted so far: part of it is
        hidden (a hand still over it), so neither its read nor its place can be trusted yet.
        """
        whole = self._whole_card_size()
        return whole is not None and track.rest_size < self.config.partial_size_ratio * whole

    def _whole_card_size(self, min_cards: int = 1) -> float | None:
        """How big a whole card looks here: the median size of the recently counted cards
        (None with fewer than ``min_cards``)."""
        if len(self._card_sizes) < min_cards:
            return None
        sizes = sorted(self._card_sizes)
        return sizes[len(sizes) // 2]

    def _drop_partial_views(self, counted: Track, place: tuple[float, float]) -> None:
        """Forget vanished candidates that lay where ``counted`` now lies.

        While a hand lays a card, the recogniser often sees only part of it, off its true
        place and misread; that view becomes a track of its own, which vanishes when the
        hand withdraws and the whole card is seen. Once the card counts, such a track is
        known to have been that card, and must never be counted itself later.
        """
        for track in self._tracks:
            if track is counted or track.state is not TrackState.CANDIDATE or track.missed == 0:
                continue
            dx, dy = track.settled[0] - place[0], track.settled[1] - place[1]
            if (dx * dx + dy * dy) ** 0.5 <= counted.size:
                track.state = TrackState.IGNORED

    def _check_collected(self, t: float) -> list[TrackerEvent]:
        if not self._trick or not all(self._left_its_place(laid) for laid in self._trick):
            return []
        events: list[TrackerEvent] = []
        left_at = max((tr.last_t for laid in self._trick if (tr := self._track(laid.track_id))), default=None)
        # A card carried off long before the others left (taken back by its player) whose
        # place a card swept with the trick took: withdrawn, and that card counts instead.
        early = [
            laid
            for laid in self._trick
            if (tr := self._track(laid.track_id)) is not None
            and left_at is not None
            and self._carried_off(laid, tr)
            and tr.last_t + 1.0 < left_at
        ]
        if early and len(early) < len(self._trick):
            if len(self._swept(left_at)) >= len(early) + 4 - len(self._trick):
                events += self._withdraw(early, t)
            elif any(
                tr.state is TrackState.CANDIDATE
                and tr.missed == 0
                and tr.seen >= self.config.flush_min_frames
                and tr.first_t > min(self._track(laid.track_id).last_t for laid in early)  # type: ignore[union-attr]
                for tr in self._tracks
            ):
                return []  # its replacement is being swept with the trick, not yet far: wait
        missing = 4 - len(self._trick)
        if missing > 0:
            # Swept away before every card had settled (a trick collected early): the
            # cards seen briefly still count, oldest first, if there are just enough. Only
            # cards already there while the trick's cards were: one that came after them
            # (sliding in, so it too has moved) is the next trick's lead.
            swept = self._swept(left_at)
            if len(swept) < missing:
                if self._tricks_done == TRICKS_PER_ROUND - 1 and (unseen := self._unseen_seat()) is not None:
                    # The round's last trick, swept with a card never read: no next card
                    # will come to show it was swept, and the card is the round's last.
                    return events + self._collect(t, collector=self._collector(), unseen=unseen)
                return []  # a hand over the cards, or a card taken back: wait
            swept.sort(key=lambda tr: (tr.first_t, tr.id))
            for track in swept[:missing]:
                events += self._decide(track, t, forced=True)
            if len(self._trick) < 4:
                return events
        events += self._collect(t, collector=self._collector())
        return events

    def _swept(self, left_at: float | None) -> list[Track]:
        """Candidates swept away with the trick before they were counted: seen long enough,
        gone or moved off, and there already while the trick's cards were."""
        return [
            tr
            for tr in self._tracks
            if tr.state is TrackState.CANDIDATE
            and tr.seen >= self.config.flush_min_frames
            and (tr.missed >= 1 or tr.displacement() > self.config.left_distance)
            and left_at is not None
            and tr.first_t <= left_at
        ]

    def _collector(self) -> int | None:
        """The seat whose side the trick was gathered and swept towards, if that was seen.

        A trick is gathered into a pile in front of the player who takes it and swept off
        their edge. When the pile was seen leaving (a card carried far from where it lay),
        the side of the table it was last seen on names the collector. Otherwise the
        centroid of the cards' last seen places has moved, from where they lay, towards
        the pile, which lies in front of the collector. None when neither was seen.
        """
        w, h = self._size
        centre = self.table_centre or (self.layout.centre[0] * w, self.layout.centre[1] * h)
        vx = vy = 0.0
        n = 0
        size = 0.0
        far: tuple[float, Track] | None = None
        for laid in self._trick:
            track = self._track(laid.track_id)
            if track is None:
                continue
            dx, dy = track.centre[0] - laid.placed[0], track.centre[1] - laid.placed[1]
            moved = (dx * dx + dy * dy) ** 0.5 / laid.size
            out = ((track.centre[0] - centre[0]) ** 2 + (track.centre[1] - centre[1]) ** 2) ** 0.5 / laid.size
            if (
                moved > self.config.left_distance
                and out > self.config.collector_out
                and (far is None or moved > far[0])
            ):
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
            for laid in self._trick
            if (tr := self._track(laid.track_id)) is not None
        ]
        if (
            far is not None
            and n == len(self._trick)
            and all(dx * mx + dy * my > 0 for dx, dy in moves)
            and all(
                math.hypot(dx, dy) > self.config.left_distance * laid.size
                for (dx, dy), laid in zip(moves, self._trick, strict=False)
            )
        ):
            # Every card went far the same way at once: swept as one, so the way they went
            # names the collector, wherever on the table a card lay (one led beside the last
            # trick lies off-centre).
            return self.layout.seat_towards((mx, my))
        if far is not None:
            track = far[1]
            return self.layout.seat_towards((track.centre[0] - centre[0], track.centre[1] - centre[1]))
        vx, vy, size = mx, my, size / n
        if (vx * vx + vy * vy) ** 0.5 <= self.config.collector_move * size:
            return None
        return self.layout.seat_towards((vx, vy))

    def _collect(self, t: float, collector: int | None, unseen: int | None = None) -> list[Event]:
        assert self._contract is not None
        self._done.append([(laid.seat, laid.card) for laid in self._trick])
        if len(self._trick) == 4 and len({laid.seat for laid in self._trick}) == 4:
            self._trick_centres.append(
                (
                    sum(laid.placed[0] for laid in self._trick) / 4,
                    sum(laid.placed[1] for laid in self._trick) / 4,
                )
            )
        for laid in self._trick:
            track = self._track(laid.track_id)
            if track is not None:
                track.state = TrackState.RETIRED
                count = self._counted.get(laid.card)
                if count is not None:
                    # Everything it was read as while it lay there: the evidence a later
                    # reread of this card is weighed on.
                    self._counted[laid.card] = replace(count, votes=dict(track.votes))
        gone = {laid.card for laid in self._trick}
        for track in self._tracks:
            identity = track.leading_identity()[0]
            if track.state is TrackState.CANDIDATE and identity in gone:
                # A card of this trick seen as a new track while it was gathered and swept
                # (overlapping cards moving fast): it must never take the next card's place.
                track.state, track.card = TrackState.IGNORED, identity
        self._trick = []
        self._recompute_constraints()
        self._tricks_done += 1
        self._last_collected_t = t
        return [TrickCollected(seat=collector, t=t, unseen=unseen)]
