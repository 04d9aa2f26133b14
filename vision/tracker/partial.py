"""Cards a hand partly hides: views of part of a card, and cards hidden before they counted.

Why apart: while a hand lays a card the recogniser often sees only part of it, off its
true place and misread, and that view becomes a track of its own; a card laid overlapping
another can be hidden before it lay still long enough to count. Telling such views from
new cards takes how big a whole card looks on this table, which only the cards counted so
far say. This keeps that measure and the judgements that rest on it.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Literal

from scoring.cards import CARD_INDEX, RANKS, parse_card
from vision.tracker.identity import resolve
from vision.tracker.ledger import COVERING_DISTANCE, Count, Laid
from vision.tracker.misreads import Misreads
from vision.tracker.state import CLEAR_SHARE, TableState, TrackerEvent
from vision.tracker.tracks import SAME_OUTLINE, Track, TrackState, card_size, outline_shift

#: A counted card that vanished at once, outlined smaller than this share of the card
#: then lying in its place (and of a whole card here), was a view of that card under the
#: hand (``take_over``).
PUSHED_SIZE_RATIO = 0.95
#: At most this share of the votes of a card that showed up where a hidden counted card
#: lies may name cards not of earlier tricks for it to be that card misread
#: (``misread_in_its_place``): a stray vote in a blur is no new card.
FRESH_SHARE = 0.1
#: ... and its outline may lie at most this share of a card's size off the counted card's:
#: a hand over part of a card moves the outline drawn around the rest a little (0.18 of the
#: card in a rendered game), a card laid over it lies further off (0.35-0.45 in three).
MISREAD_SHIFT = 0.25
#: The share of a counted card's own vote that a card must have had for a read of it in the
#: counted card's place to be that card misread (``runner_up_in_its_place``): 0.077 for the
#: Eicheln 9 an Eicheln 8 was now and then read as.
RUNNER_UP_SHARE = 0.03
#: What ``take_over`` returns while the whole card's read is not yet clear enough.
WAIT: Literal["wait"] = "wait"
#: Seconds a glimpsed card is kept in mind after it was last seen (``glimpsed_under``): the
#: next player's card lands on it within the "together" of two cards laid at once.
GLIMPSE_KEEP = 2.0
#: The share of its vote a glimpsed card's leading read needs: a card half under the next
#: one is read vaguely, and its seat in the turn matters more than its name (which the
#: table is asked for when unsure).
GLIMPSE_SHARE = 0.5
#: The read (mean confidence at rest) that makes a card the turn's player's arm brought
#: onto the card before another card (``PartialViews.laid_by_turns_hand``): less than a
#: clear read (``TrackerConfig.clear_read_confidence``), since the arm says more than the
#: read, and the upper of two cards overlapping by a third is read less surely.
TURNS_HAND_READ = 0.5
#: A counted card that lay still this many decision windows, read as itself as many
#: times, was no view of a card under a hand (``PartialViews.take_over``).
LAY_AS_ITSELF = 3


@dataclass(frozen=True)
class Glimpse:
    """A card seen a moment, surely read and whole, while the player whose turn it was
    reached in, then hidden before it lay still long enough to count; ``turn`` is (tricks done,
    cards counted in the trick) when it was seen."""

    track: Track
    turn: tuple[int, int]


def alike(a: str | None, b: str | None) -> bool:
    """Do card ids ``a`` and ``b`` share a suit or a rank (what a part of a card shows)?"""
    if a not in CARD_INDEX or b not in CARD_INDEX:
        return False
    card_a, card_b = parse_card(a), parse_card(b)
    return card_a.suit == card_b.suit or card_a.rank == card_b.rank


_PIPS = RANKS[:5]  # 6 to 10, in order
_COURT = frozenset({"under", "ober", "koenig"})


def look_alike(a: str | None, b: str | None) -> bool:
    """Could what shows of card ``a`` be read as card ``b``? Cards of one rank, neighbours
    of one suit (an 8 and a 9: one row of pips more or less), or two court cards of one
    suit; not, say, a 9 and an Ober of one suit."""
    if a not in CARD_INDEX or b not in CARD_INDEX:
        return False
    card_a, card_b = parse_card(a), parse_card(b)
    if card_a.rank == card_b.rank:
        return True
    if card_a.suit != card_b.suit:
        return False
    if card_a.rank in _PIPS and card_b.rank in _PIPS:
        return abs(_PIPS.index(card_a.rank) - _PIPS.index(card_b.rank)) == 1
    return card_a.rank in _COURT and card_b.rank in _COURT


class PartialViews:
    """The size of a whole card here, and the views of cards under a hand."""

    def __init__(self, state: TableState, misreads: Misreads) -> None:
        self._state = state
        self._misreads = misreads
        #: Sizes (pixels) of recently counted cards: how big a whole card looks here.
        self._card_sizes: deque[float] = deque(maxlen=16)
        #: Cards seen a moment before a card laid almost together hid them (``note_dropped``).
        self._glimpses: list[Glimpse] = []

    def looks_partial(self, track: Track) -> bool:
        """The card looks clearly smaller than the cards counted so far: part of it is
        hidden (a hand still over it), so neither its read nor its place can be trusted yet.
        """
        whole = self.whole_card_size()
        return whole is not None and track.rest_size < self._state.config.partial_size_ratio * whole

    def lay_whole(self, track: Track) -> bool:
        """Did ``track`` come to rest as a whole card read clearly as one card (seen a few
        frames), not as a view of a card under the hand that lays it?"""
        _, share = track.leading_identity()
        return (
            track.arrived_t is not None
            and track.seen >= 3
            and share >= CLEAR_SHARE
            and track.rest_read_confidence >= self._state.config.clear_read_confidence
            and not self.looks_partial(track)
        )

    def hidden_under(self, laid: Laid) -> Track | None:
        """The card that came to rest whole where the counted ``laid`` lies, before it, and
        has been hidden since: the card ``laid`` was laid straight on, still uncounted."""
        state = self._state
        over = state.track(laid.track_id)
        if over is None:
            return None
        under = [
            track
            for track in state.tracks
            if track.state is TrackState.CANDIDATE
            and track.missed > 0
            and track.first_t < over.first_t
            and track.leading_identity()[0] not in (None, *state.ledger.played)
            and math.dist(track.settled, laid.placed) <= laid.size
            and self.lay_whole(track)
        ]
        return under[0] if len(under) == 1 else None  # two such cards there: no telling which

    def whole_card_size(self, min_cards: int = 1) -> float | None:
        """How big a whole card looks here: the median size of the recently counted cards
        (None with fewer than ``min_cards``)."""
        if len(self._card_sizes) < min_cards:
            return None
        sizes = sorted(self._card_sizes)
        return sizes[len(sizes) // 2]

    def counted(self, track: Track, place: tuple[float, float]) -> None:
        """``track`` counted, lying at ``place``: it measures a whole card, and the views
        of it seen while it was laid are known for what they were."""
        self._card_sizes.append(track.rest_size)
        self._drop_partial_views(track, place)

    def _drop_partial_views(self, counted: Track, place: tuple[float, float]) -> None:
        """Forget vanished candidates that lay where ``counted`` now lies.

        While a hand lays a card, the recogniser often sees only part of it, off its true
        place and misread; that view becomes a track of its own, which vanishes when the
        hand withdraws and the whole card is seen. Once the card counts, such a track is
        known to have been that card, and must never be counted itself later.
        """
        cfg = self._state.config
        for track in self._state.tracks:
            if track is counted or track.state is not TrackState.CANDIDATE or track.missed == 0:
                continue
            name, share = track.leading_identity()
            if (
                counted.id in track.seen_with
                and share >= CLEAR_SHARE
                and track.rest_read_confidence >= cfg.clear_read_confidence
                and not alike(name, counted.card)
            ):
                # Seen beside it, and read clearly as a card sharing neither suit nor rank
                # with it (what shows of a card under a hand reads like that card): another
                # card, laid almost together with it and hidden since, not a view of it.
                continue
            if name != counted.card and self.lay_whole(track):
                # Came to rest whole, read clearly as another card, and hidden since: the
                # card the counted one was laid straight on (two laid almost together),
                # not a view of it under the hand.
                continue
            dx, dy = track.settled[0] - place[0], track.settled[1] - place[1]
            if (dx * dx + dy * dy) ** 0.5 <= counted.size:
                track.state = TrackState.IGNORED

    def take_over(self, track: Track, t: float, *, forced: bool) -> list[TrackerEvent] | Literal["wait"] | None:
        """A card counted from a partial view (a hand still over it, so smaller than the
        card) that vanished, with ``track`` now lying whole in its place: it was this card.

        The hand that lays a card can hide most of it for a few frames; that view may
        count (and be misread) before the hand withdraws and the whole card shows. Then
        ``track`` takes the counted card's place and seat, and if it reads as another card
        the counted one is reread. None when ``track`` is no such card; ``WAIT`` while its
        read is not yet clear enough.

        It was such a view when it looked clearly smaller than ``track``, or somewhat
        smaller and it vanished within a moment of coming to rest with ``track`` showing
        up in its place at that very moment: a card resting a few frames under the hand,
        then pushed into place. The outline the detector draws around a card half under a
        hand need not be much smaller (a game's Ober read as Under looked 0.85 of the
        whole card); a whole card that another player's card covers at once is not taken,
        nor one that a card still held above the table (so bigger) is laid over, nor one
        that ``track`` was detected beside in a frame (a card is never seen beside itself).
        """
        state = self._state
        cfg = state.config
        # Smaller than the card lying there now and, once a trick's worth of cards has
        # been counted (fewer could be mostly this very view), than the cards counted on
        # this table: a card still held above the table looks bigger than the one under it.
        typical = self.whole_card_size(min_cards=4)
        whole = track.rest_size if typical is None else min(track.rest_size, typical)
        for laid in state.ledger.trick:
            old = state.track(laid.track_id)
            if old is track or (old is not None and old.missed == 0):
                continue
            interrupted = old is not None and self._interrupted(track, old)
            if laid.track_id > track.id and not interrupted:
                continue
            dx, dy = track.anchor[0] - laid.placed[0], track.anchor[1] - laid.placed[1]
            near = (dx * dx + dy * dy) ** 0.5 <= cfg.match_distance * track.size
            smaller = laid.size < cfg.partial_size_ratio * whole
            # Shown again (or, interrupted, back at rest) the moment the counted view vanished.
            back = track.arrival if interrupted else track.first_t
            pushed = (
                old is not None
                and laid.size < PUSHED_SIZE_RATIO * whole
                and old.rest_frames <= cfg.maximum_decision_frames
                and old.last_t <= back <= old.last_t + 2.5 * state.frame_dt
                and not self._next_hand_since(laid)
            )
            if not near or not (smaller or pushed) or self.looks_partial(track):
                continue
            if old is not None and old.id in track.seen_with:
                # Detected in one frame with the counted card: another card, landing on it
                # as it vanished (the next player's, brought in while the last hand still
                # withdrew), not a view of the counted card pushed into place.
                continue
            if old is not None and self._lay_as_itself(old):
                continue
            reading = resolve(track.votes, state.ledger.played - {laid.card}, replay_share=2.0)
            if reading is None:
                return None
            if (
                not forced
                and track.rest_frames < cfg.maximum_decision_frames
                and reading.confidence < cfg.decide_confidence
            ):
                return WAIT
            if old is not None:
                old.state = TrackState.RETIRED
            events: list[TrackerEvent] = []
            laid.track_id, laid.placed, laid.size = track.id, track.anchor, track.rest_size
            if reading.card != laid.card:
                events.append(
                    self._misreads.reread(
                        laid.card, reading.card, t, Count(laid.seat, reading.confidence, dict(track.votes))
                    )
                )
            track.state = TrackState.PLAYED
            track.card = laid.card
            return events
        return None

    def _lay_as_itself(self, counted: Track) -> bool:
        """Did the counted card lie still for seconds, read as itself again and again? A
        view of a card under the hand laying it lasts as long as the hand lingers, a
        moment; a card that lay that long was the whole card, and what shows up beside it
        once it is hidden is the next card, not it. Where it lay still the longest counts
        (``longest_rest``, kept though it has shown a little off since), not where it was
        last seen: nudged, or following the first vague reads of the card landing on it, it
        has lain still there only a moment."""
        most = self._state.config.maximum_decision_frames
        return counted.longest_rest >= LAY_AS_ITSELF * most and counted.confirmed >= LAY_AS_ITSELF * most

    @staticmethod
    def _interrupted(track: Track, counted: Track) -> bool:
        """Was ``counted`` seen only while ``track``, on its way in before it, was lost: the
        card in the hand read for a few frames as another card near where it came to rest,
        then followed again as it settled? Never seen together, the two are one card's
        reads taking turns. (An Eicheln Ass carried in under the hand was outlined a little
        off and read as the Eicheln Ober for three frames, which counted; the Ass then lay
        whole there and counted as the next player's card, and every later card of the
        round went one seat off.)"""
        return (
            counted.first_t > track.first_t
            and counted.id not in track.seen_with
            and track.arrived_t is not None
            and track.arrived_t >= counted.last_t
        )

    def lies_on_counted(self, track: Track) -> tuple[Laid, Track] | None:
        """The counted card of this trick (and its track) lying where ``track`` lies (and
        hidden by it, or read again instead of it), if any: of several within reach, the
        nearest (cards laid close together each lie within reach of the others)."""
        cfg = self._state.config
        near: list[tuple[float, Laid, Track]] = []
        for laid in self._state.ledger.trick:
            old = self._state.track(laid.track_id)
            if old is None or old is track:
                continue
            gap = math.dist(old.centre, track.anchor)
            if (
                old.state is TrackState.PLAYED
                and old.covered_by != track.id  # laid squarely on it (``piles``): known to be new
                and gap <= cfg.match_distance * laid.size
            ):
                near.append((gap, laid, old))
        if not near:
            return None
        _, laid, old = min(near, key=lambda n: n[0])
        return laid, old

    def clearly_another(self, track: Track, counted: Track, least: float | None = None) -> bool:
        """``track`` was read clearly, at an outline that is not ``counted``'s own: another
        card laid overlapping it, not what still shows of it misread. ``least``: the read
        confidence that counts as clear, when other evidence says more than the read."""
        return (
            track.rest_read_confidence >= (self._state.config.clear_read_confidence if least is None else least)
            and track.leading_identity()[1] >= CLEAR_SHARE
            and outline_shift(counted.settled_corners, track.settled_corners) >= SAME_OUTLINE * counted.size
        )

    def beside(self, track: Track, counted: Track) -> bool:
        """Were ``track`` and the counted card detected in one frame, at outlines well apart
        (twice the shift within which two outlines are taken for one card)? Then they are two
        cards, however unsurely ``track`` is read and however often it drops out (a card laid
        overlapping the counted one, part of it under that card's edge): not the counted card
        misread for a moment, which is never seen beside itself. A track read as a card
        already played is left to the rules for old cards (a trick left lying lies beside it)."""
        return (
            track.leading_identity()[0] not in self._state.ledger.played
            and counted.id in track.seen_with
            and outline_shift(counted.settled_corners, track.settled_corners) >= 2 * SAME_OUTLINE * counted.size
        )

    def _next_hand_since(self, laid: Laid) -> bool:
        """Since ``laid``, the last card counted, the arm of the player whose turn it is has
        reached in and its own player's has not: a card showing where it lay came in that
        hand, laid over it, not ``laid`` pushed into place by the hand that laid it."""
        state = self._state
        ledger = state.ledger
        expected = ledger.expected_seat()
        if expected is None or not ledger.trick or ledger.trick[-1] is not laid:
            return False
        least = state.config.arm_min_frames
        edges = state.layout.edges
        return state.turn_arms.get(edges[expected], 0) >= least and state.turn_arms.get(edges[laid.seat], 0) < least

    def takes_turns(self, track: Track, counted: Track) -> bool:
        """``track``, lying on the counted card, was never detected in a frame with it, and the
        counted card is read again at its own outline: one card whose reads took turns (the
        next player's hand over part of it made it look like another card for a moment),
        however clear the other read was. A card laid over another shows beside the part of
        it left in view, which then is outlined smaller, never at its whole outline."""
        return counted.id not in track.seen_with and outline_shift(
            counted.corners, counted.settled_corners
        ) < SAME_OUTLINE * card_size(counted.settled_corners)

    def misread_in_its_place(self, track: Track, counted: Track) -> bool:
        """Did ``track`` show up where the hidden counted card lies the moment that card
        vanished (or the two took turns for a frame), never seen with it, at nearly its
        outline, and name only cards of earlier tricks? Then it is that card outlined anew
        and misread while the next hand covers part of it, not a new card: a card still to
        come is read as one still to come, and a card laid squarely on the counted one as
        the card under it on its way in, a card of this trick. (The next player's Ober laid
        over a counted Rosen 7 made the 7 read as the Rosen 6 of an earlier trick; counted
        as the Ober's player's card, it took their seat.) What still shows of a card is read
        as a card like it, of its suit or its rank: a read of an unlike old card is the
        next card on its way in, seen over the counted one (a Schilten 6 covered by the
        Eicheln 10 coming in, read as the Eicheln Under), and taken for the 6 it was
        reread as the 10, leaving its own player's card to the next seat."""
        state = self._state
        ledger = state.ledger
        earlier = {card for card in ledger.played - {laid.card for laid in ledger.trick} if alike(card, counted.card)}
        total = sum(track.votes.values())
        stale = sum(share for card, share in track.votes.items() if card in earlier)
        return (
            counted.id not in track.seen_with
            and abs(track.first_t - counted.last_t) <= 2.5 * state.frame_dt
            and outline_shift(counted.settled_corners, track.settled_corners) < MISREAD_SHIFT * counted.size
            and total > 0
            and stale >= (1.0 - FRESH_SHARE) * total
        )

    def runner_up_in_its_place(self, track: Track, counted: Track) -> bool:
        """Once the trick is full, did ``track`` show up where the hidden counted card lies,
        after it vanished and never with it, at nearly its outline, read as a card like it
        that the counted card itself was read as now and then? Then it is that card misread
        while the hand that gathers the trick covers part of it, not the next trick's lead.

        ``seen_again`` takes a fifth card for a lead once the winner's arm has reached in;
        but the winner's arm also gathers the trick, and the player who laid the fourth card
        often won it, so that arm is in view all the while. (A counted Eicheln 8, under the
        Rosen Under that won the trick, read as the Eicheln 9, its own runner-up, as the
        winner's hand gathered the cards: counted as a lead, it closed the trick early and
        put the next trick's cards one seat off.) A lead is another card: laid on a counted
        card, it shows at its own outline, and it is seldom one the counted card was
        mistaken for.
        """
        ledger = self._state.ledger
        if len(ledger.trick) < 4 or counted.card is None:
            return False
        read, _ = track.leading_identity()
        own = sum(v for c, v in counted.votes.items() if c in CARD_INDEX)
        return (
            read is not None
            and read != counted.card
            and read not in ledger.played
            and alike(read, counted.card)
            and own > 0
            and counted.votes.get(read, 0.0) >= RUNNER_UP_SHARE * own
            and counted.id not in track.seen_with
            and track.first_t > counted.last_t
            and outline_shift(counted.settled_corners, track.settled_corners) < MISREAD_SHIFT * counted.size
        )

    def read_by_turns(self, track: Track, counted: Track) -> bool:
        """Once the trick is full, was ``track``, lying by the hidden counted card, detected
        only in frames the counted card was not, and the counted card detected again after
        ``track`` first showed? Then the two are one card whose reads took turns: the
        counted card outlined a little off while a hand or a card hid part of it, and read
        as a card like it (a counted Schellen 8 read as the Schellen 6 with two rows of
        pips hidden, in the frames it was not read as itself). Left to count, it led the
        next trick once the trick was swept, and that trick's cards went one seat off. A
        lead laid on the trick left lying hides the card under it from then on, and is
        brought in by a hand and read clearly (``leads_over_full_trick``): not this.
        """
        ledger = self._state.ledger
        if len(ledger.trick) < 4 or counted.card is None:
            return False
        read, _ = track.leading_identity()
        return (
            read is not None
            and math.dist(track.settled, counted.settled) <= self._state.config.match_distance * counted.size
            and read != counted.card
            and read not in ledger.played
            and alike(read, counted.card)
            and counted.id not in track.seen_with
            and counted.last_t > track.first_t + 1e-6
            and not self.leads_over_full_trick(track, counted)
        )

    def before_the_trick_was_full(self, track: Track) -> bool:
        """Did ``track`` show up, with the trick now full, before the last of its cards could
        count? The next trick's lead comes after the fourth card has counted; what showed
        before that is no lead: on a counted card hidden since, that card misread while the fourth landed over
        it (a counted König read as the Schilten König of an earlier trick, half under the
        fourth card and outlined well off its own outline: counted as a fifth card, it
        closed the trick and put every later card one seat off)."""
        state = self._state
        trick = state.ledger.trick
        if len(trick) < 4:
            return False
        # A card counts ``minimum_consecutive_frames`` at the earliest after it showed: one
        # that showed within that time of the fourth was there before the fourth could
        # count, so before anyone knew who leads next. (The lead of a trick left lying can
        # come soon after the fourth card has counted, so the margin stays that short.)
        soon = state.config.minimum_consecutive_frames * state.frame_dt + 1e-6
        return track.first_t <= max(laid.shown_t for laid in trick) + soon

    def leads_over_full_trick(self, track: Track, counted: Track) -> bool:
        """Is ``track``, lying on the counted card ``counted`` of a full trick, the next
        trick's lead laid on the trick left lying?

        It is when it showed after the fourth card could count, a hand brought it, and it
        is read clearly as a card not yet played, off ``counted``'s outline. The counted
        card it covers often takes its outline for a frame or two (the card under it shows
        no more), which makes the two look like one card whose reads took turns; taken so,
        the lead never counts, the trick stays open until the next card, and every later
        trick of the round comes one late."""
        state = self._state
        if len(state.ledger.trick) < 4 or self.before_the_trick_was_full(track):
            return False
        return (
            track.leading_identity()[0] not in state.ledger.played
            and self.clearly_another(track, counted)
            and bool(track.arms(state.config.arm_min_frames))
        )

    def laid_by_turns_hand(self, track: Track, counted: Track) -> bool:
        """Is ``track``, lying on the counted card ``counted``, the next card, brought by the
        hand of the player whose turn it is?

        It is when that player's arm brought it, and it is read as a card not yet played,
        off ``counted``'s outline, and as no card that what shows of ``counted`` could be
        read as (``look_alike``). Its read need not be as sure as a card's with no such
        evidence (``TURNS_HAND_READ``): two cards overlapping by a third are outlined by
        turns, the covering one read less surely. A card laid squarely on the one before
        hides it, whose track then takes the new card's outline for a frame or two; the two
        then look like one card whose reads took turns, and taken so, the new card waits,
        the card after it counts in its place, and the two swap seats."""
        state = self._state
        expected = state.ledger.expected_seat()
        if expected is None:
            return False
        name = track.leading_identity()[0]
        return (
            state.layout.edges[expected] in track.arms(state.config.arm_min_frames)
            and name not in state.ledger.played
            and not look_alike(name, counted.card)
            and self.clearly_another(track, counted, least=TURNS_HAND_READ)
        )

    def seen_again(self, track: Track, counted: Track, laid: Laid, leader: int | None = None) -> bool:
        """Is ``track``, lying where the counted card ``laid`` (shown by ``counted``, hidden
        since) lay, that card seen again rather than a new card laid on it?

        It is when a card laid after it lies over part of it, and ``track`` showed up there
        after ``counted`` vanished, read unsurely, at rest from the first, and no hand came
        for it: what still shows of a half-covered card, outlined anew and misread (an Ass
        read as the Nell of its suit). The only arms seen are those that brought the cards
        laid over it, which came in before it showed (the hand that covers a card hides it,
        and uncovers part of it as it withdraws), and the player whose turn it is has not
        reached in since the last card counted. Before the trick is full, the card laid
        over it may be one come to rest there that has not counted yet.

        Once the trick is full, a clear read counts too: ``track`` would be a fifth card,
        and a card led onto a trick left lying comes in the hand of ``leader`` (the trick's
        winner), whose arm has not been seen; what showed is the counted card, misread
        while a hand hid part of it (a König read as the Ass of another suit).
        """
        state = self._state
        cfg = state.config
        ledger = state.ledger
        later = ledger.trick[ledger.trick.index(laid) + 1 :]
        brought = {
            state.layout.edges[other.seat]
            for other in later
            if (shown := state.track(other.track_id)) is not None and shown.first_t < track.first_t
        }
        full = len(ledger.trick) >= 4
        expected = leader if full else ledger.expected_seat()
        # The card laid over it may not have counted yet (read unsurely so far): one that
        # came to rest on it after it was laid, before ``track`` showed, covers it as well,
        # and the hands that brought it, the turn's among them, reached in for it.
        pending = [
            other
            for other in state.tracks
            if not full
            and other is not track
            and other.state is TrackState.CANDIDATE
            and other.id not in ledger.shown
            and other.arrived_t is not None
            and counted.first_t < other.first_t < track.first_t
            and math.dist(other.settled, laid.placed) < COVERING_DISTANCE * laid.size
        ]
        for other in pending:
            brought |= other.arms(cfg.arm_min_frames)
        turn_edge = state.layout.edges[expected] if expected is not None else None
        return (
            (ledger.covered_by_later(laid) or bool(pending))
            and (track.rest_read_confidence < cfg.clear_read_confidence or (full and expected is not None))
            and track.first_t > counted.last_t
            and track.arrived_t == track.first_t
            and set(track.arm_frames) <= brought
            and (
                turn_edge is None
                or state.turn_arms.get(turn_edge, 0) < cfg.arm_min_frames
                or any(turn_edge in other.arms(cfg.arm_min_frames) for other in pending)
            )
        )

    def overlooked(self, track: Track) -> list[Track]:
        """Cards laid before ``track`` and read clearly (or, once seen a card's size away from
        ``track``, or glimpsed as the turn's card, ``_turns_glimpse``, read as one card at
        least half the time), that a hand hid before they had lain still long enough to
        count (two cards laid overlapping show in turns, as the detector keeps one outline
        of the two): they were laid first, so they count first. Not one seen only in the
        hand that brought ``track`` (``_same_hand``), and one where ``track`` lies only if
        ``track`` was laid over it (``_laid_over``) or another hand brought it
        (``_other_hand``)."""
        state = self._state
        cfg = state.config
        out = []
        for other in state.tracks:
            if (
                other is track
                or other.state is not TrackState.CANDIDATE
                or other.id in state.ledger.shown
                or other.missed == 0
                or (other.rest_frames < 2 and not self._turns_glimpse(other, track))
                or other.arrival >= track.arrival
                or not (
                    (
                        other.rest_read_confidence >= cfg.clear_read_confidence
                        and other.leading_identity()[1] >= CLEAR_SHARE
                    )
                    or self._turns_own_card(other, track)
                    or self._turns_glimpse(other, track)
                    # Seen at rest while ``track`` was a card's size away: a card of its
                    # own, whose seat in the turn matters more than a vague name.
                    or (self._seen_apart(other, track) and other.leading_identity()[1] >= GLIMPSE_SHARE)
                )
                or other.leading_identity()[0] == track.leading_identity()[0]
                or not state.layout.in_play_area(other.settled, *state.size)
                or self.looks_partial(other)  # part of a card under a hand: take_over
                or (
                    math.dist(other.settled, track.settled) <= cfg.match_distance * track.size
                    and (
                        not (self._laid_over(other, track) or self._other_hand(other, track))
                        or self._same_hand(other, track)
                    )
                )
            ):
                continue
            out.append(other)
        return sorted(out, key=lambda tr: (tr.arrival, tr.id))

    def _turns_glimpse(self, other: Track, track: Track) -> bool:
        """Was ``other`` the card of the player whose turn it is, glimpsed a moment where it
        landed before ``track``, another player's card, was laid over it? Brought in by the
        turn's hand alone, seen more than once, read at least half the time as one card
        still to come, and gone before ``track`` first showed, which came with another
        player's hand in view too: two hands, two cards, though the first lay too briefly to
        count, and too briefly to be read clearly. (The turn's hand, withdrawing, is often
        still in view as the next card comes, so which hand stayed longest says nothing.)
        """
        least = self._state.config.arm_min_frames
        edge = self._turns_edge()
        if edge is None or other.seen < 2 or other.arms(least) != {edge} or not track.arms(least) - {edge}:
            return False
        card, share = other.leading_identity()
        return (
            card is not None
            and card not in self._state.ledger.played
            and share >= GLIMPSE_SHARE
            and card != track.leading_identity()[0]
            and other.last_t < track.first_t
        )

    def _turns_edge(self) -> str | None:
        """The table edge of the player whose turn it is to lay the trick's next card; None
        when the trick is full or nobody knows whose turn it is."""
        ledger = self._state.ledger
        if ledger.contract is None or len(ledger.trick) >= 4:
            return None
        expected = ledger.expected_seat()
        return None if expected is None else self._state.layout.edges[expected]

    def _seen_apart(self, other: Track, track: Track) -> bool:
        """Was ``other`` seen at rest while ``track`` was still in the hand a card's size
        away? By its track, or by its name when the hand of the player whose card comes
        next brought ``other``: the card in the hand may be lost and found again as a new
        track where it is laid. (A card lying from before, of a trick gathered and misread
        as a card to come, came with no hand.)"""
        if track.id in other.seen_apart:
            return True
        state = self._state
        seat = state.ledger.upcoming_seat() if state.ledger.contract is not None else None
        return (
            seat is not None
            and track.leading_identity()[0] in other.seen_apart_cards
            and state.layout.edges[seat] in other.arms(state.config.arm_min_frames)
        )

    def _turns_own_card(self, other: Track, track: Track) -> bool:
        """Was ``other``, read only vaguely, the card of the player whose turn it is, and
        ``track`` another player's? ``other`` lay still a moment, brought in by the turn's
        hand, and ``track`` first showed with only other hands in view. Two hands, two
        cards: the turn's card, hidden under its player's withdrawing hand and then under
        the next card laid straight on it, is read only from what shows (a Schellen 10 as
        the Schellen Under and König), yet it was laid first, in that seat."""
        state = self._state
        ledger = state.ledger
        edge = self._turns_edge()
        if edge is None or other.rest_frames < 3 or edge not in other.arms(state.config.arm_min_frames):
            return False
        # Read mostly as a card already played, it is that card seen again; a vote only
        # led by one (half under the next card, a 6 read now as the 9 of its suit) still
        # names an unplayed card.
        reading = resolve(other.votes, ledger.played, replay_share=state.config.replay_share)
        if reading is None or reading.replay or reading.card in ledger.played:
            return False
        at_first = [arms for t, arms in state.arm_history if t <= track.first_t + 1e-6]
        return bool(at_first) and bool(at_first[-1]) and edge not in at_first[-1]

    def note_dropped(self, tracks: list[Track], t: float) -> None:
        """Keep in mind the ``tracks`` the tracker forgets now that were glimpses of the card
        whose turn it is: each read sure (the vote between cards may still be split,
        ``GLIMPSE_SHARE``), whole, in the trick's area, while that player's arm was in
        view. Two cards laid almost together: the second lands on the first before the
        first has lain still for the frames a card needs to count, and the first is gone
        from view for good."""
        state = self._state
        ledger = state.ledger
        cfg = state.config
        turn = (len(ledger.done), len(ledger.trick))
        self._glimpses = [g for g in self._glimpses if g.turn == turn and t - g.track.last_t <= GLIMPSE_KEEP]
        edge = self._turns_edge()
        if edge is None:
            return
        for track in tracks:
            card, share = track.leading_identity()
            if (
                track.state is TrackState.CANDIDATE
                and track.missed > 0
                and track.id not in ledger.shown
                and edge in track.arm_frames
                and track.first_t > (ledger.last_collected_t or -math.inf)  # not of the trick swept
                and card is not None
                and card not in ledger.played
                and share >= GLIMPSE_SHARE
                and track.rest_read_confidence >= cfg.clear_read_confidence
                and state.layout.in_play_area(track.anchor, *state.size)
                and not self.looks_partial(track)
            ):
                self._glimpses.append(Glimpse(track, turn))

    def glimpsed_under(self, track: Track) -> list[Track]:
        """Glimpsed cards (``note_dropped``) that ``track``, about to count, lies on: laid
        before it, in this turn, and hidden by it. They count first."""
        ledger = self._state.ledger
        turn = (len(ledger.done), len(ledger.trick))
        name = track.leading_identity()[0]
        size = card_size(track.settled_corners)
        under = [
            g.track
            for g in self._glimpses
            if g.turn == turn
            and g.track.last_t < track.first_t <= g.track.last_t + GLIMPSE_KEEP
            and g.track.leading_identity()[0] not in (name, *ledger.played)
            # Never at rest and read as a card that looks like this one: this card itself,
            # seen a moment in the hand that laid it.
            and not (g.track.arrived_t is None and look_alike(g.track.leading_identity()[0], name))
            and math.dist(g.track.anchor, track.settled) <= self._state.config.match_distance * track.size
            and outline_shift(g.track.anchor_corners, track.settled_corners) >= SAME_OUTLINE * size
        ]
        taken = {tr.id for tr in under}
        self._glimpses = [g for g in self._glimpses if g.track.id not in taken]
        return sorted(under, key=lambda tr: (tr.first_t, tr.id))[:1]

    def _same_hand(self, hidden: Track, track: Track) -> bool:
        """Did the hand that brought ``track`` bring ``hidden`` too, and no other hand?
        Each player lays their own card: a card hidden under another player's card came in
        another hand, and one seen only in the hand that laid ``track`` was ``track``
        itself, seen a moment under that hand a little off its place and misread."""
        least = self._state.config.arm_min_frames
        brought, own = hidden.arms(least), track.arms(least)
        return len(brought) == 1 and brought == own

    def _other_hand(self, hidden: Track, track: Track) -> bool:
        """Was ``hidden`` brought by one hand, not the one that laid ``track``, and at rest
        before ``track`` showed? Then it is another player's card that ``track`` came to
        cover, not a view of ``track`` in the hand that laid it."""
        least = self._state.config.arm_min_frames
        brought, own = hidden.arms(least), track.arms(least)
        if len(brought) != 1 or not own or hidden.rest_t >= track.first_t:
            return False
        # The hand that stayed longest over ``track`` laid it; the one leaving as it came
        # may show for a frame or two.
        return max(own, key=lambda edge: track.arm_frames[edge]) not in brought

    @staticmethod
    def _laid_over(under: Track, track: Track) -> bool:
        """Was ``under``, a whole card read clearly where ``track`` now lies, hidden by
        ``track`` laid over it? It lay still at an outline of its own and was last seen
        before ``track`` first showed, or was seen at rest while ``track`` was detected a
        card's size away (in the hand bringing it): the next card laid almost together on
        top of it. A view of ``track`` itself in the hand that laid it lies where ``track``
        ends up, or is still seen as ``track`` shows, never apart from it."""
        return (under.last_t < track.first_t or track.id in under.seen_apart) and outline_shift(
            under.settled_corners, track.settled_corners
        ) >= SAME_OUTLINE * card_size(track.settled_corners)
