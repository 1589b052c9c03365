"""A request's Python frames in one block of memory of their own (CPython 3.11 and 3.12).

CPython 3.11 keeps the frames of running Python functions in chunks of 16 KB, allocates a new
chunk (``mmap``) when a call does not fit in the current one and frees it (``munmap``) as soon
as its first frame returns. A loop whose calls sit at that boundary allocates and frees a
chunk on every call: the season page's 200 rows, rendered at a depth of about 95 frames,
cost 93 to 208 ``mmap`` and ``munmap`` pairs per request under gunicorn, and writing the
team table's rows there took 25 ms instead of 7 (``strace -k``: every one from
``_PyThreadState_BumpFramePointerSlow``; CPython gh-142183, mended from 3.13 on by keeping
one spare chunk).

:class:`OwnFrameStackMiddleware`, first in ``MIDDLEWARE``, runs the rest of each request
inside a frame too large for any chunk in use: CPython allocates it a chunk of 256 KB, with
room left for about 17,000 slots (a request needs a few thousand), so that no call of the
request crosses a chunk's boundary. One ``mmap`` and ``munmap`` per request instead of
hundreds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase

CHUNK_SLOTS = 256 * 1024 // 8
"""The chunk CPython allocates for the frame below: 256 KB, in slots of 8 bytes."""
FRAME_SLOTS = CHUNK_SLOTS // 2 - 1000 + 100
"""The frame's own size: past half the chunk less CPython's minimum room (1,000 slots), so
that CPython doubles its chunks' 16 KB up to 256 KB for it, leaving the other half free."""


def _call(function: Callable[[Any], Any], argument: Any) -> Any:
    return function(argument)


if sys.version_info < (3, 13):
    # Room on the frame's evaluation stack that it never uses: the frame's size is its
    # locals plus its stack (``co_framesize``), and only the size is wanted.
    _call.__code__ = _call.__code__.replace(co_stacksize=FRAME_SLOTS)


class OwnFrameStackMiddleware:
    """Runs the rest of the request in a chunk of frames of its own (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = _call(self.get_response, request)
        return response
