"""Each request's Python frames in a chunk of their own (``skatliga.ops.stack``).

CPython 3.11 allocates a chunk of memory for frames when a call does not fit in the current
one and frees it when that call returns: a loop of calls at exactly that depth maps and
unmaps memory on every call, and each new mapping costs a page fault when first written.
The page faults show it: 2,000 calls at the wrong depth, about 2,000 faults."""

from __future__ import annotations

import resource
import sys
from collections.abc import Callable

import pytest
from django.conf import settings

from skatliga.ops.stack import _call

CALLS = 2_000


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _noop(value: int) -> int:
    return value


def _calls() -> int:
    """Page faults while calling a function ``CALLS`` times."""
    before = _faults()
    for _ in range(CALLS):
        _noop(1)
    return _faults() - before


def _at_depth(depth: int, then: Callable[[], int]) -> int:
    return then() if depth == 0 else _at_depth(depth - 1, then)


def _worst(run: Callable[[int], int]) -> int:
    """The most page faults of ``CALLS`` calls at any depth from 0 to 400 frames."""
    return max(run(depth) for depth in range(400))


def test_the_frame_stack_middleware_is_first() -> None:
    assert settings.MIDDLEWARE[0] == "skatliga.ops.stack.OwnFrameStackMiddleware"


@pytest.mark.skipif(sys.version_info >= (3, 13), reason="CPython 3.13 keeps a spare chunk")
def test_calls_at_a_chunks_edge_fault_on_every_call_but_not_in_a_requests_own_chunk() -> None:
    # Without: at some depth each call allocates a chunk anew (CPython 3.11 and 3.12).
    assert _worst(lambda depth: _at_depth(depth, _calls)) >= CALLS * 9 // 10
    # In the middleware's chunk: no depth of a request's size faults per call.
    assert _worst(lambda depth: _call(lambda _: _at_depth(depth, _calls), None)) < CALLS // 20


@pytest.mark.django_db
def test_a_page_answers_through_it(client):
    assert client.get("/").status_code == 200
