"""What every request to the dashboard goes through, whichever blueprint answers it.

- A ``Host`` the appliance is not known by is refused (DNS rebinding), and so is a write
  from another web site (web.hosts).
- A JSON write may be ``MAX_JSON_BYTES`` at most; only a photo upload for deck enrolment
  (multipart) may be larger, so nobody makes the server parse 50 MB of JSON.
- A session the request opened (a right PIN, web.auth) goes back as an HttpOnly cookie.
- Every answer says ``nosniff`` and sends no referrer; API answers are never cached.
"""

from __future__ import annotations

from flask import Flask, Response, g, request

from web.auth import COOKIE, SESSION_MAX_AGE_S
from web.errors import ApiError
from web.hosts import HostCheck

#: The largest body a JSON write may have (a set-up form is well under 2 KB).
MAX_JSON_BYTES = 64 * 1024
#: The largest body at all: a phone photo for deck enrolment (web.enroll checks it again).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024 + 64 * 1024


def install(app: Flask, hosts: HostCheck) -> None:
    """Put the checks and headers above on every request of ``app``."""
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    app.config["MAX_FORM_MEMORY_SIZE"] = MAX_JSON_BYTES

    @app.before_request
    def limits() -> None:
        if not hosts.host_allowed(request.host):
            raise ApiError(hosts.refusal(request.host), 421)
        if not hosts.write_allowed(
            request.method,
            request.host,
            request.scheme,
            request.headers.get("Origin"),
            request.headers.get("Sec-Fetch-Site"),
        ):
            raise ApiError("a write from another web site is refused", 403)
        if request.mimetype != "multipart/form-data":
            request.max_content_length = MAX_JSON_BYTES

    app.after_request(set_session_cookie)
    app.after_request(safe_headers)


def set_session_cookie(response: Response) -> Response:
    token = g.pop("jasscam_session", None)
    if token is not None:
        response.set_cookie(COOKIE, token, max_age=SESSION_MAX_AGE_S, httponly=True, samesite="Strict", path="/")
    return response


def safe_headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
