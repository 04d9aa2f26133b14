"""The enrolment blueprint's page and JSON API (see ``web.enroll`` for the overview)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from flask import Blueprint, Response, current_app, jsonify, redirect, request, send_file, url_for

from scoring.cards import ALL_CARD_IDS, RANKS, SUITS
from vision.detection import BACK
from vision.enroll import (
    BUILTIN,
    CardNameError,
    DeckLibrary,
    Enroller,
    EnrollImageError,
    ProfileError,
    cards_in_image,
    decode_image,
    display_name,
    own_id,
    parse_label,
    pictures_from_frame,
)
from vision.enroll.enroller import DEFAULT_VIEWS
from vision.enroll.names import RANK_NAMES, SUIT_NAMES
from web.auth import authorize
from web.common import json_body, language, render_page
from web.enroll.i18n import ENROLL_STRINGS
from web.enroll.session import EnrollSession
from web.errors import ApiError
from web.i18n import STRINGS

#: Largest upload accepted (a phone photo).
MAX_UPLOAD = 20 * 1024 * 1024

blueprint = Blueprint(
    "enroll",
    __name__,
    url_prefix="/enroll",
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)


@dataclass
class EnrollState:
    """Everything the blueprint keeps per app (``app.extensions["enroll"]``)."""

    library: DeckLibrary | None
    frames: Callable[[], np.ndarray | None] | None = None
    recognizer: Any | None = None
    make_recognizer: Callable[[], Any] | None = None
    table: str = "main"
    views: int = DEFAULT_VIEWS
    session: EnrollSession | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get_recognizer(self) -> Any:
        with self.lock:
            if self.recognizer is None:
                try:
                    if self.make_recognizer is not None:
                        self.recognizer = self.make_recognizer()
                    else:
                        from vision.recognizer import Recognizer

                        self.recognizer = Recognizer()
                except (FileNotFoundError, ValueError) as exc:
                    raise ApiError(f"the card recogniser cannot be loaded: {exc}", 503) from None
            return self.recognizer


# -- helpers ---------------------------------------------------------------------------


def _state() -> EnrollState:
    state: EnrollState = current_app.extensions["enroll"]
    return state


def _library() -> DeckLibrary:
    library = _state().library
    if library is None:
        raise ApiError("deck enrolment needs a state directory (the dashboard was started without settings_path)", 503)
    return library


def _session() -> EnrollSession:
    session = _state().session
    if session is None:
        raise ApiError("no enrolment under way; start one with POST /enroll/api/session", 404)
    return session


def _label(value: Any) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise ApiError("label must be a card name such as 'kreuz-7' or 'rosen-ober', or null")
    try:
        return parse_label(value)[0]
    except CardNameError as exc:
        raise ApiError(str(exc)) from None


def _card_id(card: str) -> str:
    if card not in ALL_CARD_IDS and card != BACK:
        raise ApiError(f"unknown card {card!r}", 404)
    return card


def _enroller() -> Enroller:
    state = _state()
    return Enroller(state.get_recognizer(), views=state.views)


def _builtin_image(card: str) -> str:
    return url_for("static", filename=f"cards/{card}.png")


def deck_info(library: DeckLibrary | None, table: str, lang: str) -> dict[str, Any]:
    """The active deck of ``table`` as the dashboard shows it: its names and card pictures."""
    slug = library.active(table) if library is not None else BUILTIN
    profile = library.load(slug) if library is not None and slug != BUILTIN else None
    suits = profile.suits if profile is not None else "swiss"
    code = lang if lang in SUIT_NAMES[suits] else "de"
    cards = {}
    for card in (*ALL_CARD_IDS, BACK):
        enrolled = profile is not None and bool(profile.pictures.get(card))
        cards[card] = {
            "own_id": own_id(card, suits),
            "name": display_name(card, suits, code),
            "image": url_for("enroll.card_image", card=card) if enrolled else _builtin_image(card),
        }
    return {
        "deck": slug,
        "name": profile.name if profile is not None else BUILTIN,
        "suits": suits,
        "suit_names": SUIT_NAMES[suits][code],
        "rank_names": RANK_NAMES[suits][code],
        "cards": cards,
    }


# -- page ------------------------------------------------------------------------------


@blueprint.get("/")
def page() -> str:
    code = language()
    return render_page(
        "enroll/enroll.html",
        {**STRINGS[code], **ENROLL_STRINGS[code]},
        suits=SUITS,
        ranks=RANKS,
        has_camera=_state().frames is not None,
    )


# -- decks -----------------------------------------------------------------------------


@blueprint.get("/api/decks")
def api_decks() -> Response:
    state = _state()
    if state.library is None:
        return jsonify(active=BUILTIN, decks=[], table=state.table)
    return jsonify(**state.library.describe(state.table, language()), table=state.table)


@blueprint.post("/api/decks/active")
def api_set_active() -> Response:
    authorize()
    data = json_body(empty_ok=True)
    deck = data.get("deck")
    if not isinstance(deck, str) or not deck:
        raise ApiError("deck must name an enrolled deck or 'builtin'")
    try:
        _library().set_active(deck, _state().table)
    except ProfileError as exc:
        raise ApiError(str(exc), 404) from None
    return jsonify(active=_library().active(_state().table))


@blueprint.delete("/api/decks/<slug>")
def api_delete_deck(slug: str) -> Response:
    authorize()
    try:
        _library().delete(slug)
    except ProfileError as exc:
        raise ApiError(str(exc), 404) from None
    return jsonify(deleted=slug, active=_library().active(_state().table))


@blueprint.get("/api/active")
def api_active() -> Response:
    state = _state()
    try:
        return jsonify(deck_info(state.library, state.table, language()))
    except ProfileError as exc:  # a damaged profile: show the built-in deck and say why
        info = deck_info(None, state.table, language())
        info["error"] = str(exc)
        return jsonify(info)


@blueprint.get("/cards/<card>.png")
def card_image(card: str) -> Any:
    """The active deck's picture of ``card``: the enrolled one, else the built-in card's."""
    card = _card_id(card)
    state = _state()
    library = state.library
    slug = library.active(state.table) if library is not None else BUILTIN
    path = Path(current_app.static_folder or "") / "cards" / f"{card}.png"
    if library is not None and slug != BUILTIN:
        enrolled = library.root / slug / "thumbs" / f"{card}.png"
        path = enrolled if enrolled.is_file() else path
    if not path.is_file():
        return redirect(_builtin_image(card))
    # Revalidated on every use (ETag, 304): a change of deck shows at once, an unchanged one costs no bytes.
    response = send_file(path, mimetype="image/png", conditional=True, etag=True, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get("/decks/<slug>/cards/<card>.png")
def deck_card_image(slug: str, card: str) -> Response:
    card = _card_id(card)
    library = _library()
    if not library.exists(slug):
        raise ApiError(f"no deck {slug!r}", 404)
    path = Path(library.root / slug / "thumbs" / f"{card}.png")
    if not path.is_file():
        raise ApiError(f"deck {slug!r} has no picture of {card}", 404)
    return send_file(path, mimetype="image/png", max_age=0)


# -- a guided enrolment ----------------------------------------------------------------


@blueprint.post("/api/session")
def api_start() -> Response:
    authorize()
    data = json_body(empty_ok=True)
    name, suits = data.get("name"), data.get("suits", "swiss")
    if not isinstance(name, str) or not name.strip():
        raise ApiError("name must be the deck's name")
    from vision.enroll import slugify

    try:
        slugify(name)
    except ProfileError as exc:
        raise ApiError(str(exc)) from None
    state = _state()
    _library()
    if state.session is not None and state.session.build is not None and not state.session.build.done:
        raise ApiError("a deck is being built; wait for it to finish", 409)
    state.session = EnrollSession(name.strip(), str(suits))
    return jsonify(state.session.view(language()))


@blueprint.get("/api/session")
def api_session() -> Response:
    return jsonify(_session().view(language()))


@blueprint.delete("/api/session")
def api_cancel() -> Response:
    authorize()
    session = _session()
    if session.build is not None and not session.build.done:
        raise ApiError("the deck is being built; wait for it to finish", 409)
    _state().session = None
    return jsonify(cancelled=True)


def _cards_from_upload(data: bytes, recognizer: Any) -> list[tuple[np.ndarray, float | None]]:
    """The cards of an uploaded photo (several on a table, or one card filling the picture), with
    the card's proportions where the image shows its own outline (a scan, a card PNG)."""
    return cards_in_image(decode_image(data, "upload"), recognizer)


@blueprint.post("/api/session/capture")
def api_capture() -> Response:
    """Capture from the camera (no body) or from an uploaded photo (multipart field ``image``)."""
    authorize()
    session = _session()
    state = _state()
    recognizer = state.get_recognizer()
    upload = request.files.get("image")
    try:
        if upload is not None:
            data = upload.read(MAX_UPLOAD + 1)
            if len(data) > MAX_UPLOAD:
                raise ApiError(f"the photo is larger than {MAX_UPLOAD // (1024 * 1024)} MB", 413)
            cards = _cards_from_upload(data, recognizer)
            pictures, aspects = [p for p, _ in cards], [a for _, a in cards]
            source = upload.filename or "photo"
        else:
            frame = state.frames() if state.frames is not None else None
            if frame is None:
                raise ApiError("no camera picture available; upload a photo instead", 503)
            pictures = [p for p, _ in pictures_from_frame(frame, recognizer)]
            aspects = [None] * len(pictures)  # the networks drew these outlines
            source = "camera"
    except EnrollImageError as exc:
        raise ApiError(str(exc)) from None
    if not pictures:
        raise ApiError("no face-up card found; lay the cards flat, apart, in good light", 422, code="no_card")
    expected = session.next_group()
    labelled = len(pictures) == len(expected)
    items = session.add(pictures, expected if labelled else None, source, aspects)
    return jsonify(
        found=len(items),
        expected=list(expected),
        labelled=labelled,
        added=[i.id for i in items],
        session=session.view(language()),
    )


@blueprint.get("/api/session/samples/<int:sample_id>.png")
def api_sample_png(sample_id: int) -> Response:
    item = _session().samples.get(sample_id)
    if item is None:
        raise ApiError(f"no captured picture {sample_id}", 404)
    return Response(item.png, mimetype="image/png")


@blueprint.post("/api/session/samples/<int:sample_id>")
def api_relabel(sample_id: int) -> Response:
    authorize()
    data = json_body(empty_ok=True)
    if "label" not in data:
        raise ApiError("give the picture's card as label (or null for none)")
    _session().relabel(sample_id, _label(data["label"]))
    return jsonify(_session().view(language()))


@blueprint.delete("/api/session/samples/<int:sample_id>")
def api_remove(sample_id: int) -> Response:
    authorize()
    _session().remove(sample_id)
    return jsonify(_session().view(language()))


@blueprint.post("/api/session/finish")
def api_finish() -> Response:
    """Start building and storing the profile; poll GET /enroll/api/session for ``build``."""
    authorize()
    data = json_body(empty_ok=True)
    session = _session()
    state = _state()
    session.start_build(
        _enroller(),
        _library(),
        replace=bool(data.get("replace", False)),
        force=bool(data.get("force", False)),
        activate=state.table if data.get("activate") else None,
    )
    response = jsonify(session.view(language()))
    response.status_code = 202
    return response
