"""Keep link tokens out of the logs: a filter that blanks the token of a table link
(``/t/<token>``) and of a check-in link (``/c/<token>``) in every record."""

from __future__ import annotations

import logging
import re

TOKEN_PATH = re.compile(r"/([tc])/[A-Za-z0-9_-]+")
"""The paths whose next segment is a secret, in any language (``/en/t/…`` contains ``/t/``)."""


def redact(text: str) -> str:
    """
    >>> redact('"GET /t/AbC_d-9/preview/ HTTP/1.1" 200')
    '"GET /t/…/preview/ HTTP/1.1" 200'
    >>> redact("Not Found: /da/c/Zq8-x_/search/")
    'Not Found: /da/c/…/search/'
    """
    return TOKEN_PATH.sub(r"/\1/…", text)


class RedactTableTokens(logging.Filter):
    """Rewrites the message of a record that names a table link's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/t/" in message or "/c/" in message:
            record.msg = redact(message)
            record.args = ()
        return True


def install() -> None:
    """Attach the filter to the loggers that name request paths or Referer headers:
    runserver's, Django's 404s and security warnings, gunicorn's access log."""
    for name in ("django.server", "django.request", "django.security", "gunicorn.access"):
        logging.getLogger(name).addFilter(RedactTableTokens())
