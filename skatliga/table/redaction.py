"""Keep table tokens out of the logs: a filter that blanks ``/t/<token>`` in every record."""

from __future__ import annotations

import logging
import re

TOKEN_PATH = re.compile(r"/t/[A-Za-z0-9_-]+")


def redact(text: str) -> str:
    """
    >>> redact('"GET /t/AbC_d-9/preview/ HTTP/1.1" 200')
    '"GET /t/…/preview/ HTTP/1.1" 200'
    """
    return TOKEN_PATH.sub("/t/…", text)


class RedactTableTokens(logging.Filter):
    """Rewrites the message of a record that names a table link's path."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/t/" in message:
            record.msg = redact(message)
            record.args = ()
        return True


def install() -> None:
    """Attach the filter to the loggers that name request paths or Referer headers:
    runserver's, Django's 404s and security warnings, gunicorn's access log."""
    for name in ("django.server", "django.request", "django.security", "gunicorn.access"):
        logging.getLogger(name).addFilter(RedactTableTokens())
