"""Stöck: trump König + Ober laid by one seat, called in time.

The call counts only if it comes from the seat that laid both cards, after the second of
the two was laid and before anything covers it: the next card (from anyone), the trick
being collected, or the end of the round. That span is the *window*; the dashboard
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

    @property
    def active(self) -> bool:
        return self.enabled and self.trump is not None

    def _close(self, reason: str) -> None:
        if self.window_open:
            self.window_open = False
            self.closed_by = reason

    def on_card(self, seat: int, card: str, ref: int) -> None:
        """A card was laid: it covers an open window, and may open one."""
        self._close(f"gedeckt durch {card} (Ereignis {ref})")
        if not self.active or self.holder is not None:
            return
        if card in (f"{self.trump}-koenig", f"{self.trump}-ober"):
            mine = self.laid.setdefault(seat, set())
            mine.add(card)
            if len(mine) == 2:
                self.holder, self.window_open, self.card_ref = seat, True, ref

    def on_collect(self) -> None:
        self._close("Stich schon eingezogen")

    def on_round_end(self) -> None:
        self._close("Runde schon vorbei")

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
