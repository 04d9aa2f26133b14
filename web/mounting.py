"""Is the camera hung well? The set-up page's mounting check: the card length the recogniser
measured at this mounting, a verdict, and a live view with what it sees outlined.

``/api/mounting`` (readable without the PIN: a length and a verdict say nothing about the
cards) and ``/api/mounting/view.jpg`` (the live picture shows the table, so it needs the
table PIN like every write). The appliance registers it with its camera, its recogniser's
learnt card scale (``vision.recognizer.scale.CardScale``) and the last detections.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from flask import Blueprint, Flask, Response, current_app, jsonify

from vision.detection import BACK, Detection
from vision.recognizer.scale import CardScale
from web.auth import authorize
from web.errors import ApiError

#: The live view's width: enough to judge the framing, small for a phone over Wi-Fi.
VIEW_WIDTH = 640

blueprint = Blueprint("mounting", __name__)


class MountingState:
    def __init__(
        self,
        frames: Callable[[], np.ndarray | None],
        scale: CardScale | None,
        detections: Callable[[], list[Detection]] | None = None,
    ) -> None:
        self.frames = frames
        self.scale = scale
        self.detections = detections or (lambda: [])


def register_mounting(
    app: Flask,
    *,
    frames: Callable[[], np.ndarray | None],
    scale: CardScale | None,
    detections: Callable[[], list[Detection]] | None = None,
) -> None:
    """Mount the mounting check on the dashboard ``app`` (the appliance calls this with its camera)."""
    app.extensions["mounting"] = MountingState(frames, scale, detections)
    if "mounting" not in app.blueprints:
        app.register_blueprint(blueprint)


def _state() -> MountingState | None:
    return current_app.extensions.get("mounting")


@blueprint.get("/api/mounting")
def mounting() -> Response:
    state = _state()
    if state is None or state.scale is None:
        return jsonify(available=False)
    frame = state.frames()
    verdict = state.scale.verdict()
    size = None if frame is None else {"width": int(frame.shape[1]), "height": int(frame.shape[0])}
    return jsonify(available=True, frame=size, **verdict)


def view(frame: np.ndarray, detections: list[Detection], length: float | None) -> np.ndarray:
    """The frame at ``VIEW_WIDTH`` with each card outlined (green: named, orange: a back) and the
    card length written on it."""
    scale = min(1.0, VIEW_WIDTH / frame.shape[1])
    out = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    for d in detections:
        pts = (np.asarray(d.corners, np.float32) * scale).round().astype(np.int32)
        colour = (0, 160, 255) if d.card == BACK else (60, 200, 60)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
    label = "card length: measuring..." if length is None else f"card length {length:.0f} px"
    cv2.putText(out, label, (10, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, label, (10, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
    return out


@blueprint.get("/api/mounting/view.jpg")
def live_view() -> Response:
    try:
        authorize()  # the phone's session, or the table PIN once
    except ApiError as exc:  # the dashboard's PIN refusal, in its own words and status
        return Response(exc.message, status=exc.status, mimetype="text/plain")
    state = _state()
    frame = None if state is None else state.frames()
    if state is None or frame is None:
        return Response("no camera picture yet", status=503, mimetype="text/plain")
    length = state.scale.length if state.scale is not None else None
    ok, jpg = cv2.imencode(".jpg", view(frame, list(state.detections()), length), [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        return Response("the picture could not be encoded", status=500, mimetype="text/plain")
    return Response(jpg.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
