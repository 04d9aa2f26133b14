"""``weis_declared`` naming each Weis on its own (``weis``: a list of card lists).

000: «Ein Kartenblatt darf gleichzeitig zu einer Sequenz und zu einem Vierling
gehören». The older flat ``cards`` form is still read.
"""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed, Event, EventError, WeisDeclared, dumps, event_to_dict, loads, parse_event
from scoring.game import RuleError, fold
from tests.scoring.support import configured, scripted_round

SEQ = ["rosen-9", "rosen-10", "rosen-under"]
FOUR_UNDER = ["eicheln-under", "schilten-under", "rosen-under", "schellen-under"]
HAND = ["rosen-9", "rosen-10", "rosen-under", "eicheln-under", "schilten-under", "schellen-under"]


def with_declaration(event: WeisDeclared, **config: object) -> list[Event]:
    """A Schellen round (factor 2) in which seat 0 holds ``HAND``, ``event`` right after its first card."""
    events = configured(**config) + scripted_round({0: HAND}, "schellen", seed=2)
    first = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.seat == 0)
    return [*events[: first + 1], event, *events[first + 1 :]]


def test_000_one_card_in_a_sequence_and_a_four_of_a_kind_named_separately_counts_both() -> None:
    """000: «Ein Kartenblatt darf gleichzeitig zu einer Sequenz und zu einem Vierling gehören»."""
    event = parse_event({"type": "weis_declared", "seat": 0, "weis": [SEQ, FOUR_UNDER]})
    assert isinstance(event, WeisDeclared) and event.weis == (tuple(SEQ), tuple(FOUR_UNDER))
    state = fold(with_declaration(event))
    assert sorted((w.kind, w.points, w.status) for w in state.rounds[0].weis) == [
        ("four", 200, "counts"),
        ("sequence", 20, "counts"),
    ]
    assert state.sheet[0].written[0].weis == 220 * 2


def test_the_old_flat_form_is_still_read_and_split_into_its_weis() -> None:
    """000: «Ein Kartenblatt darf gleichzeitig zu einer Sequenz und zu einem Vierling gehören» (flat form)."""
    event = parse_event({"type": "weis_declared", "seat": 0, "cards": HAND})
    state = fold(with_declaration(event))  # type: ignore[arg-type]
    assert state.sheet[0].written[0].weis == 220 * 2


def test_003_one_card_one_weis_also_applies_to_weis_named_separately() -> None:
    """003: «Eine Karte kann nicht für mehrere Weise verwendet werden. Nur der höhere Weis zählt.»"""
    event = WeisDeclared(seat=0, weis=(tuple(SEQ), tuple(FOUR_UNDER)))
    state = fold(with_declaration(event, weis_card_once=True))
    assert {w.kind: w.status for w in state.rounds[0].weis} == {"sequence": "shares_card", "four": "counts"}


def test_each_listed_weis_must_be_one_weis() -> None:
    """003: «Es gibt zwei Hauptarten von Weisen: Blätter und Gleiche.» Each list is one of them."""
    with pytest.raises(RuleError, match="name each Weis on its own"):
        fold(with_declaration(WeisDeclared(seat=0, weis=(tuple(HAND),))))
    with pytest.raises(RuleError, match="no Weis"):
        fold(with_declaration(WeisDeclared(seat=0, weis=(("rosen-9", "rosen-10"),))))


def test_two_sequences_cannot_share_a_card() -> None:
    """000 allows a card in «einer Sequenz und ... einem Vierling», not in two sequences (that is one longer Blatt)."""
    overlapping = (("rosen-8", "rosen-9", "rosen-10"), ("rosen-9", "rosen-10", "rosen-under"))
    with pytest.raises(RuleError, match="not in two sequences"):
        fold(with_declaration(WeisDeclared(seat=0, weis=overlapping)))


def test_a_declaration_has_either_weis_or_cards_and_lists_each_weis_once() -> None:
    with pytest.raises(EventError, match="either weis"):
        parse_event({"type": "weis_declared", "seat": 0, "cards": SEQ, "weis": [SEQ]})
    with pytest.raises(EventError, match="either weis"):
        parse_event({"type": "weis_declared", "seat": 0})
    with pytest.raises(EventError, match="same Weis twice"):
        parse_event({"type": "weis_declared", "seat": 0, "weis": [SEQ, list(reversed(SEQ))]})
    with pytest.raises(EventError, match="different cards"):
        parse_event({"type": "weis_declared", "seat": 0, "weis": [["rosen-9", "rosen-9", "rosen-10"]]})
    with pytest.raises(EventError, match=r"weis\[1\]"):
        parse_event({"type": "weis_declared", "seat": 0, "weis": [SEQ, ["rosen-zehn"]]})


def test_the_new_form_round_trips_through_json_and_the_old_form_stays_as_it_was() -> None:
    new = WeisDeclared(seat=0, weis=(tuple(SEQ), tuple(FOUR_UNDER)))
    assert loads(dumps(new)) == parse_event(event_to_dict(new))
    assert "cards" not in event_to_dict(new)
    old = {"type": "weis_declared", "v": 1, "seat": 0, "cards": SEQ}
    assert event_to_dict(parse_event(old)) == old


def test_a_weis_declared_again_is_a_duplicate_while_the_new_one_in_the_same_event_counts() -> None:
    """003: «Punkte erhält jedoch nur der Spieler mit dem höchsten Weis»: a Weis counts once, however
    often it is said."""
    events = with_declaration(WeisDeclared(seat=0, weis=(tuple(SEQ),)))
    at = next(i for i, e in enumerate(events) if isinstance(e, WeisDeclared))
    events.insert(at + 1, WeisDeclared(seat=0, weis=(tuple(SEQ), tuple(FOUR_UNDER))))
    state = fold(events)
    assert [(w.kind, w.status) for w in state.rounds[0].weis] == [
        ("sequence", "counts"),
        ("sequence", "duplicate"),
        ("four", "counts"),
    ]
    assert state.sheet[0].written[0].weis == 220 * 2
    assert [f.code for f in state.flags] == ["weis_duplicate"]
