"""Text that leaves the program: secrets masked, terminal controls removed, links made safe.

One home for three defences every output path (CLI, ``--json``, UI notices,
Markdown export, logs) shares:

* :func:`redact` masks credentials: URL userinfo, secret-looking query
  parameters, ``sk-…`` keys, ``Bearer …`` tokens and any secret the caller
  names (the configured API key). Endpoint error bodies echo keys, so every
  text that came from an endpoint goes through it.
* :func:`strip_control` removes ANSI/OSC escape sequences and other control
  characters (keeping newlines and tabs) so an abstract or a model answer can't
  retitle the terminal or clear the screen.
* :func:`safe_url` keeps only http(s) links; ``javascript:`` and friends become
  plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"

# Query parameters whose value is a credential (matched case-insensitively, as substrings).
_SECRET_PARAMS = ("key", "token", "secret", "password", "passwd", "auth", "signature", "sig")
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{8,}")
_BEARER = re.compile(r"(?i)\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{6,}")
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@]+@")
_SECRET_QUERY = re.compile(
    r"(?i)([?&;](?:[a-z0-9_\-]*(?:" + "|".join(_SECRET_PARAMS) + r")[a-z0-9_\-]*)=)[^&#\s\"']+"
)
# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte escapes, then C0/C1 controls.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every credential it may carry replaced by ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    text = _USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", text)
    text = _SECRET_QUERY.sub(lambda m: f"{m.group(1)}{MASK}", text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)
    return _KEY_LIKE.sub(MASK, text)


def redact_url(url: str) -> str:
    """An endpoint URL fit to show: no userinfo, no secret query parameters."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    if "@" in parts.netloc:
        netloc = f"{MASK}@{netloc}"
    query = urlencode(
        [(k, MASK if any(s in k.lower() for s in _SECRET_PARAMS) else v)
         for k, v in parse_qsl(parts.query, keep_blank_values=True)],
        safe="*",
    )
    return redact(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))


def url_secrets(url: str | None) -> list[str]:
    """The credentials a URL carries (userinfo, secret query values), to mask wherever they are echoed.

    An endpoint's error text may repeat a key that came in the URL without the
    URL around it, where :func:`redact`'s patterns can't recognise it.
    """
    if not url:
        return []
    try:
        parts = urlsplit(url)
        # http://user:KEY@host or http://KEY@host: the key is the password, else the only userinfo part.
        found = [parts.password or parts.username or ""] if "@" in parts.netloc else []
        found += [v for k, v in parse_qsl(parts.query) if any(s in k.lower() for s in _SECRET_PARAMS)]
    except ValueError:
        return []
    return [secret for secret in found if secret]


def strip_control(text: str) -> str:
    """Text safe to print to a terminal: escape sequences and control characters removed."""
    return _CONTROL.sub("", _ANSI.sub("", text))


def safe_url(url: str | None) -> str | None:
    """The URL when it is an http(s) link, else None (``javascript:``, ``data:``, ``file:`` …)."""
    if not url:
        return None
    candidate = strip_control(url).strip()
    scheme = urlsplit(candidate).scheme.lower() if "://" in candidate or ":" in candidate else ""
    return candidate if scheme in ("http", "https") and " " not in candidate else None
