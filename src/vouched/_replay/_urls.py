"""Store URLs in messages: never a password, and our own parameter taken out
without touching the others.

- :func:`safe_url`: the URL with its password replaced by ``***`` wherever it
  is (the user part, ``user:SECRET@host``, or a ``password=`` parameter); every
  other byte stays as written.
- :func:`scrub`: any text (a driver's message, say) with the URL and each
  spelling of its password (as written and percent-decoded) replaced the same
  way: what psycopg echoes back of a badly encoded password is caught too.
- :func:`split_parameter`: one ``?name=value`` parameter taken out of a URL,
  the other parameters left byte for byte (libpq ``options`` included).
"""

from __future__ import annotations

from urllib.parse import unquote

__all__ = ["safe_url", "scrub", "split_parameter"]

_HIDDEN = "***"


def _parts(url: str) -> tuple[str, str, str, str]:
    """``(scheme://, netloc, path, ?query#fragment)`` of ``url``, split by hand
    so that putting them together again gives back every byte."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "", "", url, ""
    cut = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=-1)
    netloc, tail = (rest, "") if cut < 0 else (rest[:cut], rest[cut:])
    path, mark, query = tail.partition("?")
    return scheme + sep, netloc, path, mark + query


def _secrets(url: str) -> list[str]:
    """Each password ``url`` carries, as written (the decoded form is added by scrub)."""
    _scheme, netloc, _path, query = _parts(url)
    found: list[str] = []
    userinfo, at, _host = netloc.rpartition("@")
    if at and ":" in userinfo:
        found.append(userinfo.partition(":")[2])
    for pair in query.lstrip("?").partition("#")[0].split("&"):
        key, eq, value = pair.partition("=")
        if eq and unquote(key) == "password":
            found.append(value)
    return [secret for secret in found if secret]


def safe_url(url: str) -> str:
    """``url`` with each password replaced by ``***`` (for messages and reprs)."""
    scheme, netloc, path, query = _parts(url)
    userinfo, at, host = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.partition(':')[0]}:{_HIDDEN}@{host}"
    if query:
        body, hash_, fragment = query[1:].partition("#")
        pairs = []
        for pair in body.split("&"):
            key, eq, _value = pair.partition("=")
            pairs.append(f"{key}={_HIDDEN}" if eq and unquote(key) == "password" else pair)
        query = "?" + "&".join(pairs) + hash_ + fragment
    return scheme + netloc + path + query


def scrub(text: str, url: str) -> str:
    """``text`` with ``url`` shown safely and each spelling of its passwords hidden."""
    if url and url in text:
        text = text.replace(url, safe_url(url))
    spellings = {form for secret in _secrets(url) for form in (secret, unquote(secret))}
    for secret in sorted(spellings, key=len, reverse=True):  # longest first
        if secret:
            text = text.replace(secret, _HIDDEN)
    return text


def split_parameter(url: str, name: str) -> tuple[str, list[str]]:
    """``url`` without its ``name=`` parameters, and their (decoded) values; the
    other parameters stay exactly as written."""
    scheme, netloc, path, query = _parts(url)
    if not query:
        return url, []
    body, hash_, fragment = query[1:].partition("#")
    kept: list[str] = []
    values: list[str] = []
    for pair in body.split("&"):
        key, _eq, value = pair.partition("=")
        if unquote(key.replace("+", " ")) == name:
            values.append(unquote(value.replace("+", " ")))
        else:
            kept.append(pair)
    rest = "&".join(kept)
    return scheme + netloc + path + ("?" + rest if rest else "") + hash_ + fragment, values
