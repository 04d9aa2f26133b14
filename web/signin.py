"""Signing a phone in: the table PIN once, then a session cookie (web.auth says why and how).

``POST /api/pin`` with the PIN in ``X-Table-Pin`` opens the session; ``GET /api/session``
tells the page whether this phone is signed in and whether the appliance still waits for
its first set-up (which may then choose the PIN, web.setup).
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.auth import authorize, current_guard, signed_in

blueprint = Blueprint("signin", __name__, url_prefix="/api")


@blueprint.post("/pin")
def api_pin() -> Response:
    """Sign a phone in: the right PIN in ``X-Table-Pin`` gets it a session cookie."""
    authorize()
    return jsonify(ok=True)


@blueprint.get("/session")
def api_session() -> Response:
    """Whether this phone is signed in, and whether the appliance still waits for its first set-up."""
    return jsonify(signed_in=signed_in(), claimed=current_guard().claimed)
