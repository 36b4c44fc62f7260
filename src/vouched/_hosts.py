"""Which host names a local service answers to: the one home of the loopback
names and the Host-header reading that ``vouched serve`` and the review pages
both check (below both, so neither imports the other for them)."""

from __future__ import annotations

import ipaddress

__all__ = ["LOOPBACK_NAMES", "host_name", "is_loopback"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
"""Host header names always accepted: a loopback service answers to its own names."""


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the service on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The name of a Host header, without its port (``[::1]:8787`` is ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header
