"""What the dashboard's blueprints share inside a request: the app's store and settings, the
JSON body, a game that must exist, the one way an event is appended, and page rendering.

Why here: every screen (the Schieber dashboard, Coiffeur and Differenzler rows, Speck Jass,
deck enrolment, the statistics) refuses the same faults with the same words and writes
under the same lock, so a phone gets one answer for one mistake wherever it made it.
The app factory (web.app) puts the shared objects into ``app.extensions``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, current_app, make_response, render_template, request

from scoring.events import Event, EventError, parse_event
from scoring.game import RuleError
from web.errors import ApiError
from web.i18n import LANGUAGES, STRINGS, pick_language
from web.live import Hub
from web.settings import TableSettings
from web.store import EventStore
from web.trickshot import Pictures


def _shared(key: str) -> Any:
    """An object the app factory (web.app) shares with every blueprint through ``app.extensions``."""
    return current_app.extensions[key]


def store() -> EventStore:
    return _shared("jasscam_store")


def table_settings() -> TableSettings:
    return _shared("jasscam_table")


def hub() -> Hub:
    return _shared("jasscam_hub")


def pictures() -> Pictures:
    return _shared("jasscam_pictures")


def write_lock() -> threading.Lock:
    """The app's one write lock: every write to the store checks and appends under it."""
    return _shared("jasscam_write_lock")


def language() -> str:
    return pick_language(request.cookies.get("lang"))


def json_body(*, empty_ok: bool = False) -> dict[str, Any]:
    """The request's JSON object; with ``empty_ok`` no body at all reads as ``{}``."""
    data = request.get_json(silent=True)
    if data is None and empty_ok and not request.data:
        return {}
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


def known_game(game_id: int) -> list[Event]:
    """The events of ``game_id``, or ApiError 404."""
    try:
        return list(store().events(game_id))
    except LookupError:
        raise ApiError(f"no game {game_id}", 404) from None


def parsed(data: Mapping[str, Any]) -> Event:
    """``data`` as an event, or ApiError 400 with the parser's reason."""
    try:
        return parse_event(dict(data))
    except EventError as exc:
        raise ApiError(str(exc)) from None


def append(
    game_id: int,
    build: Callable[[list[Event]], Event],
    *,
    by_hand: bool = True,
    events_of: Callable[[int], list[Event]] = known_game,
) -> tuple[int, Event]:
    """Append the event ``build(events)`` makes to ``game_id``, checked by the rules engine.

    Under the write lock, so ``build`` sees the events the append goes after. A phone that
    sends ``X-Expect-Count`` (the events it saw) gets 409 if the game moved on meanwhile,
    so two phones fixing the same card do not both land. ``events_of`` reads the game
    (and refuses it, as the Speck screens refuse a game of another variant).
    """
    expect = request.headers.get("X-Expect-Count")
    with write_lock():
        events = events_of(game_id)
        if expect is not None and expect != str(len(events)):
            raise ApiError(
                f"the game changed meanwhile ({len(events)} events, you saw {expect}); look again and retry",
                409,
                "changed",
            )
        event = build(events)
        try:
            position = int(store().append(game_id, event, by_hand=by_hand))
        except (EventError, RuleError) as exc:
            raise ApiError(str(exc)) from None
        except OSError as exc:  # the disk is full and the store's reserve used up
            raise ApiError(str(exc), 507) from None
    return position, event


def render_page(template: str, words: Mapping[str, str], **context: Any) -> str:
    """``template`` in the phone's language with ``words`` (``t``, and as JSON for the scripts)."""
    return render_template(
        template,
        lang=language(),
        t=words,
        strings_json=json.dumps(words, ensure_ascii=False),
        languages=[(code, STRINGS[code]["lang_name"]) for code in LANGUAGES],
        **context,
    )


def download(body: bytes | str, mimetype: str, filename: str) -> Response:
    """``body`` as a file the browser saves as ``filename``."""
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
