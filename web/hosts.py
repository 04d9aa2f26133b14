"""Which ``Host`` the dashboard answers, and which ``Origin`` may write (DNS rebinding, CSRF).

Why: a web page a phone on the table's Wi-Fi opens elsewhere can point its own domain
name at the appliance's address (DNS rebinding) and then read the dashboard as if it
were its own site. Its requests still carry its domain in ``Host``. So only hosts the
appliance is known by are served:

- IP literals (v4 or v6): a rebinding page cannot make the browser send one for its
  own domain, so any address the appliance is reached at is fine;
- ``localhost``, this machine's host name and ``<name>.local`` (mDNS), the host of
  ``public_url`` and any names configured in ``dashboard.allowed_hosts``;
- this machine's name under the suffixes no one can own on the internet
  (``PRIVATE_SUFFIXES``: ``home.arpa``, RFC 8375, and ``internal``, reserved by ICANN for
  private networks). A router's own suffix (``fritz.box``, ``lan``, ``home``) is not
  taken on trust: ``box`` is a public top-level domain where a stranger registered
  ``fritz.box`` in 2024, and the others may be delegated one day; whoever owns such a
  name in public DNS could rebind it for phones that ask a public resolver (a VPN,
  "private DNS"). Those names must be listed in ``dashboard.allowed_hosts``, and the
  refusal says exactly which value to add (``refusal``).

Writes (anything but GET/HEAD/OPTIONS) that carry an ``Origin`` must come from the
same origin as the request, and ``Sec-Fetch-Site: cross-site`` is refused, so another
site's page cannot post with a phone's session cookie (SameSite=Strict stops that too;
this holds for browsers that ignore it).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Name suffixes reserved for private networks, never delegated in public DNS.
PRIVATE_SUFFIXES = ("home.arpa", "internal")


def lan_address() -> str | None:
    """This machine's address on its default route, for the links and QR codes a phone
    on the table's network can open; None offline. No packet is sent: connecting a UDP
    socket only asks the kernel which source address it would use."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") else address


def loopback(host: str | None) -> bool:
    """Whether the server listens on this machine only (``--host 127.0.0.1``): then a
    phone cannot reach it at the LAN address, and the QR code must not offer that."""
    return host in ("127.0.0.1", "localhost", "::1") or bool(host and host.startswith("127."))


def host_name(host: str) -> str:
    """The name or address of a ``Host`` header value, without port and brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    return True


class HostCheck:
    """The names the appliance answers to; see the module docstring."""

    def __init__(self, public_url: str | None = None, extra: Iterable[str] = ()) -> None:
        names = {"localhost"}
        hostname = socket.gethostname().lower()
        if hostname:
            short = hostname.split(".", 1)[0]
            names |= {hostname, f"{hostname}.local", short}
            names |= {f"{short}.{suffix}" for suffix in PRIVATE_SUFFIXES}
        if public_url:
            public = urlsplit(public_url).hostname
            if public:
                names.add(public.lower())
        names |= {host_name(h) for h in extra if h}
        self.names = frozenset(n for n in names if n)

    def host_allowed(self, host: str | None) -> bool:
        if not host:
            return False
        name = host_name(host)
        return is_ip_literal(name) or name in self.names or name.endswith(".localhost")

    def refusal(self, host: str) -> str:
        """What a phone refused for ``host`` reads: why, and the exact setting that lets the name in."""
        name = host_name(host)
        return (
            f"this appliance does not answer to the host name {name!r}: names other than its own are refused "
            f"(DNS rebinding). Open it by its address, or, if {name!r} is the name your router gives it, add it "
            f'to the set-up file (jasscam.toml) under [dashboard] as allowed_hosts = "{name}" '
            "(several names comma-separated) and restart the appliance"
        )

    def write_allowed(self, method: str, host: str, scheme: str, origin: str | None, fetch_site: str | None) -> bool:
        """False for a write from another site: a foreign ``Origin`` or ``Sec-Fetch-Site: cross-site``."""
        if method.upper() in SAFE_METHODS:
            return True
        if fetch_site is not None and fetch_site.lower() == "cross-site":
            return False
        if origin is None:
            return True  # not a browser's cross-origin request (curl, the appliance's own tools)
        return origin.lower().rstrip("/") == f"{scheme}://{host}".lower()
