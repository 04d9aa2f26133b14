"""The checks of an enrolment: missing, mislabelled and duplicate cards, told in the deck's own words.

A player who left out a card, labelled one wrong or photographed one twice hears so
before the deck is used; the report names the cards ("kreuz-7 (Kreuz 7)") and the
files, and the dashboard shows a flagged pair side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.detection import BACK
from vision.enroll.head import unit
from vision.enroll.names import named
from vision.enroll.same_card import same_print

#: Two labels whose held-out views go to each other this often (summed both ways) are one card:
#: about 1.0 for one picture under two labels, at most 0.6 for a 7 and an 8 of one suit at 8 views.
DUPLICATE_SHARE = 0.75
#: A picture this much closer (cosine) to another card's picture than to its own card's other
#: pictures shows that other card. Two phone photos of one card, taken in other light, lie
#: further apart than some decks' look-alike cards: on correctly labelled decks photographed
#: twice (four decks, two photo seeds; cut-outs gone wrong aside) the largest such lead was
#: 0.25 (a flat-coloured deck's Schilten and Rosen Under); a photo named as a card drawn at
#: random would lead by this much in 79-100 % of cases (79-92 % on that deck). A smaller
#: lead is told as a warning, the two pictures side by side (models/README.md, "The
#: mislabel check with several photos a card").
MISLABEL_MARGIN = 0.3
#: A lead below this is the spread of two photos of one card, not worth a warning: of
#: flat-swiss's 74 photos (seed 11) 17 lay nearer another card's photo than their own card's
#: other photo, 11 of them by less than this.
CONFUSABLE_MARGIN = 0.1


@dataclass(frozen=True)
class Issue:
    """Something wrong with the enrolment, naming the cards.

    ``kind`` is missing, mislabelled, duplicate (errors) or confusable (a warning)."""

    kind: str
    cards: tuple[str, ...]
    message: str
    sources: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.kind in ("missing", "mislabelled", "duplicate")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "message": self.message,
            "sources": list(self.sources),
            "error": self.is_error,
        }


@dataclass
class EnrollReport:
    """The checks' findings and per-card margins (how far each card is from its nearest other card)."""

    issues: list[Issue] = field(default_factory=list)
    nearest: dict[str, tuple[str, float]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not any(i.is_error for i in self.issues)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "issues": [i.to_json() for i in self.issues],
            "nearest": {k: {"card": v[0], "cosine": round(v[1], 4)} for k, v in self.nearest.items()},
            "seconds": round(self.seconds, 2),
        }


def check(
    labels: list[str],
    sources: list[str],
    means: np.ndarray,
    per_view: np.ndarray,
    suits: str,
    view_labels: np.ndarray | None = None,
    pictures: list[np.ndarray] | None = None,
) -> EnrollReport:
    """Missing, mislabelled and duplicate cards, from the pictures' embeddings.

    A picture nearer another card's picture than its own card's other pictures is
    mislabelled (an error) only when it leads by ``MISLABEL_MARGIN`` and, where
    ``pictures`` are given, its print could be that card's and is not its own card's;
    a lead of ``CONFUSABLE_MARGIN`` or more is a warning naming the two cards, once per
    pair. Two photos of a card in other light differ more than some decks' look-alike
    cards, and a player cannot fix a label that is right.

    ``same-card`` closeness is measured on the pictures themselves: a picture's camera
    views lie within some cosine of its mean; a picture of another label that close is
    the same card seen again. ``view_labels`` (P, V), how the finished deck reads each
    view, is the sharper test where available: two labels that split one picture's
    views between them cannot be told apart, so they name the same card. ``pictures``
    (one per label), where given, have the last word on a pair called the same card: two
    pictures whose print differs by a pip or an index numeral (``same_card.same_print``)
    are two cards, however alike they look overall.
    """
    report = EnrollReport()
    lab = np.array(labels)
    names = [c for c in (*ALL_CARD_IDS, BACK) if c in set(labels)]
    for c in ALL_CARD_IDS:
        if c not in set(labels):
            report.issues.append(Issue("missing", (c,), f"missing: no picture of {named(c, suits)}"))
    # How close camera views of one picture stay to its mean: the "same card" radius.
    view_sims = np.einsum("pvd,pd->pv", per_view, means)
    radius = np.quantile(view_sims, 0.5, axis=1)
    sims = means @ means.T
    # Mislabelled: closer to another card than to the other pictures of its own card.
    flagged: set[int] = set()
    alike: set[frozenset[str]] = set()
    for i, c in enumerate(labels):
        own = [j for j in range(len(labels)) if j != i and labels[j] == c]
        if not own:
            continue
        own_sim = float(sims[i, own].max())
        others = {
            n: (float(sims[i, lab == n].max()), int(np.argmax(np.where(lab == n, sims[i], -2))))
            for n in names
            if n != c
        }
        if not others:
            continue
        best = max(others, key=lambda n: others[n][0])
        best_sim, j = others[best]
        # Closer to another card than to its own, and as close to it as one card's own views.
        if best_sim <= own_sim or best_sim < 0.5 * (radius[i] + radius[j]):
            continue
        if best_sim - own_sim >= MISLABEL_MARGIN and _print_says_other(i, j, own, pictures):
            flagged.add(i)
            report.issues.append(
                Issue(
                    "mislabelled",
                    (c, best),
                    f"{sources[i]} is labelled {named(c, suits)} but looks like {named(best, suits)} ({sources[j]});"
                    f" if it does show {named(c, suits)}, {', '.join(sources[k] for k in own)} may be cut out wrong"
                    " (see the pictures side by side)",
                    (sources[i], *(sources[k] for k in own), sources[j]),
                )
            )
        elif best_sim - own_sim >= CONFUSABLE_MARGIN and frozenset((c, best)) not in alike:
            alike.add(frozenset((c, best)))
            report.issues.append(
                Issue(
                    "confusable",
                    (c, best),
                    f"{sources[i]} ({named(c, suits)}) looks more like {sources[j]} ({named(best, suits)}) than like"
                    f" its other pictures: if both labels are right, the appliance may mix up {named(c, suits)} and"
                    f" {named(best, suits)} at the table; a clearer photo of each, in even light, helps",
                    (sources[i], sources[j]),
                )
            )
    # Duplicates: two pictures with different labels as close as views of one picture.
    flagged_labels = {labels[i] for i in flagged}
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            # A label with a mislabelled picture teaches that picture's look: already reported.
            if labels[i] == labels[j] or labels[i] in flagged_labels or labels[j] in flagged_labels:
                continue
            # The two pictures themselves must be as close as views of one picture; where the
            # held-out reads are available they must also confuse the two labels. Either test
            # alone flags a 7 and an 8 of one suit that an identifier barely tells apart.
            same = bool(sims[i, j] >= 0.5 * (radius[i] + radius[j]))
            if same and view_labels is not None:
                shared = float(np.mean(view_labels[i] == labels[j]) + np.mean(view_labels[j] == labels[i]))
                same = shared >= DUPLICATE_SHARE
            if same and pictures is not None:
                same = same_print(pictures[i], pictures[j])
            if same:
                report.issues.append(
                    Issue(
                        "duplicate",
                        (labels[i], labels[j]),
                        f"{sources[i]} ({named(labels[i], suits)}) and {sources[j]} ({named(labels[j], suits)})"
                        " look like the same card; one of the two labels is wrong",
                        (sources[i], sources[j]),
                    )
                )
    # Per card: its nearest other card, and a warning where they are barely apart.
    card_means = {n: unit(means[lab == n].mean(axis=0)) for n in names}
    for n in names:
        best_n, best_s = "", -2.0
        for m in names:
            if m != n:
                s = float(card_means[n] @ card_means[m])
                if s > best_s:
                    best_n, best_s = m, s
        if best_n:
            report.nearest[n] = (best_n, best_s)
    return report


def _print_says_other(i: int, j: int, own: list[int], pictures: list[np.ndarray] | None) -> bool:
    """Does picture ``i``'s print allow it to be picture ``j``'s card and rule out its own card's
    pictures ``own``? True where no pictures are given (the embedding alone decides)."""
    if pictures is None:
        return True
    return same_print(pictures[i], pictures[j]) and not any(same_print(pictures[i], pictures[k]) for k in own)
