"""Keep link tokens out of the logs: a filter that blanks ``/t/<token>`` (a table link),
``/c/<token>`` (check-in: the poster's link, and after it a phone's claim) and
``/me/<token>`` (a player's personal link) in every record."""

from __future__ import annotations

import logging
import re

TOKEN = r"[A-Za-z0-9_-]+"
# A check-in path may carry a second token, the phone's claim (its page, waiting for the desk).
TOKEN_PATH = re.compile(rf"/(t|me)/{TOKEN}|/(c)/{TOKEN}(/(?!search/){TOKEN})?")


def _blank(found: re.Match[str]) -> str:
    return f"/{found[1] or found[2]}/…" + ("/…" if found[3] else "")


def redact(text: str) -> str:
    """
    >>> redact('"GET /t/AbC_d-9/preview/ HTTP/1.1" 200')
    '"GET /t/…/preview/ HTTP/1.1" 200'
    >>> redact('"GET /en/me/AbC_d-9/status.json HTTP/1.1" 304')
    '"GET /en/me/…/status.json HTTP/1.1" 304'
    >>> redact("GET /c/Poster_1/search/?q=Anna"), redact("GET /c/Poster_1/Arrival-2/")
    ('GET /c/…/search/?q=Anna', 'GET /c/…/…/')
    """
    return TOKEN_PATH.sub(_blank, text)


class RedactTableTokens(logging.Filter):
    """Rewrites the message of a record that names a link's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if TOKEN_PATH.search(message):
            record.msg = redact(message)
            record.args = ()
        return True


def install() -> None:
    """Attach the filter to the loggers that name request paths or Referer headers:
    runserver's, Django's 404s and security warnings, gunicorn's access log."""
    for name in ("django.server", "django.request", "django.security", "gunicorn.access"):
        logging.getLogger(name).addFilter(RedactTableTokens())
