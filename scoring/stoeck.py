"""Stöck: trump König + Ober laid by one seat, called in time.

The call counts only if it comes from the seat that laid both cards, after the second of
the two was laid and before anything covers it: the next card (from anyone), the trick
being collected, or the round's last card (the round is complete and counted at once,
so a call at the count is too late however late the camera reports the collection:
000 «Eine nachträgliche Ansage beim Ende des Stichs oder bei der Abrechnung gilt
nicht»). That span is the *window*; a call recorded just before the second card (the
player says «Stöck» as the card goes down, and the phone is quicker than the camera)
counts too when that seat's other card is the very next card laid, which is the only
way to call on the round's last card. That span is the *window*; the dashboard
enables its «Stöck» button while ``window_seat`` is set. Stöck exist only in trump
contracts and never in Speck Jass, and belong to the holder's team whatever the Weis
comparison says. Worth 20 before the multiplier.

The tracker is internal to the fold (mutable); the fold freezes it into
:class:`StoeckState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

STOECK_POINTS: Final[int] = 20


@dataclass(frozen=True)
class StoeckState:
    """Stöck in one round.

    ``status``: ``unavailable`` (no trump contract / Speck), ``none`` (nobody has laid
    both cards yet, or they came from different hands), ``open`` (the window is open now,
    see ``window_seat``), ``called`` (written for ``team``), ``missed`` (the window closed
    without a valid call).
    """

    status: str
    holder: int | None = None
    team: int | None = None
    window_seat: int | None = None
    card_ref: int | None = None
    call_ref: int | None = None
    closed_by: str | None = None


@dataclass
class StoeckTracker:
    """Watches one round's cards for the trump König/Ober pair and judges calls."""

    trump: str | None
    enabled: bool
    laid: dict[int, set[str]] = field(default_factory=dict)
    holder: int | None = None
    window_open: bool = False
    card_ref: int | None = None
    call_ref: int | None = None
    closed_by: str | None = None
    #: A call said with the second card but recorded before it: (seat, ref, the flag it
    #: gets if the next card is not that seat's other Stöck card).
    pending: tuple[int, int, tuple[str, str]] | None = None

    @property
    def active(self) -> bool:
        return self.enabled and self.trump is not None

    def _close(self, reason: str) -> None:
        if self.window_open:
            self.window_open = False
            self.closed_by = reason

    def on_card(self, seat: int, card: str, ref: int) -> tuple[int, int, str, str] | None:
        """A card was laid: it covers an open window, and may open one. Returns the flag
        (call ref, seat, code, reason) of a call made before it that this card shows was
        not made with the second Stöck card."""
        self._close(f"gedeckt durch {card} (Ereignis {ref})")
        pending, self.pending = self.pending, None
        if not self.active or self.holder is not None:
            return self._refuse(pending)
        if card in (f"{self.trump}-koenig", f"{self.trump}-ober"):
            mine = self.laid.setdefault(seat, set())
            mine.add(card)
            if len(mine) == 2:
                self.holder, self.window_open, self.card_ref = seat, True, ref
                if pending is not None and pending[0] == seat:
                    self.accept(pending[1])
                    return None
        return self._refuse(pending)

    @staticmethod
    def _refuse(pending: tuple[int, int, tuple[str, str]] | None) -> tuple[int, int, str, str] | None:
        if pending is None:
            return None
        seat, ref, (code, reason) = pending
        return ref, seat, code, reason

    def defer(self, seat: int, ref: int, verdict: tuple[str, str]) -> bool:
        """Keep an early call open until the next card, if that card could make it count:
        the seat has laid one of the two cards. True when deferred."""
        if verdict[0] != "stoeck_early" or self.pending is not None:
            return False
        self.pending = (seat, ref, verdict)
        return True

    def flush(self) -> tuple[int, int, str, str] | None:
        """The trick was collected or the round ended before the next card: an early
        call stays early."""
        pending, self.pending = self.pending, None
        return self._refuse(pending)

    def on_collect(self) -> None:
        self._close("Stich schon eingezogen")

    def on_round_end(self) -> None:
        self._close("Runde schon vorbei")

    def on_round_counted(self) -> None:
        """The round's 36th card: the last trick is complete and the round counted."""
        self._close("letzter Stich schon gezählt (Abrechnung)")

    def on_call(self, seat: int) -> tuple[str, str] | None:
        """Judge a call by ``seat``; None if it counts, else (flag code, German reason)."""
        if not self.active:
            return ("stoeck_no_trump", "Stöck gibt es nur in einem Trumpfspiel (nicht Obenabe/Undenufe, nicht Speck)")
        if self.call_ref is not None:
            return ("stoeck_duplicate", "Stöck wurden in dieser Runde schon angesagt")
        if self.window_open and self.holder == seat:
            return None
        if self.holder == seat:
            return ("stoeck_late", f"Stöck zu spät angesagt: {self.closed_by}")
        if self.window_open:
            return ("stoeck_not_holder", "nur wer König und Ober selbst gelegt hat, darf Stöck ansagen")
        if len(self.laid.get(seat, ())) == 1:
            return ("stoeck_early", "Stöck werden beim Ausspielen der zweiten Karte angesagt, nicht bei der ersten")
        return ("stoeck_not_holder", "dieser Platz hat Trumpf-König und -Ober nicht beide gelegt")

    def accept(self, ref: int) -> None:
        self.call_ref = ref

    def state(self) -> StoeckState:
        if not self.active:
            return StoeckState("unavailable")
        team = self.holder % 2 if self.holder is not None else None
        if self.call_ref is not None:
            return StoeckState("called", self.holder, team, None, self.card_ref, self.call_ref)
        if self.window_open:
            return StoeckState("open", self.holder, team, self.holder, self.card_ref)
        if self.holder is not None:
            return StoeckState("missed", self.holder, team, None, self.card_ref, None, self.closed_by)
        return StoeckState("none")
