"""Pieces of pages a process keeps rendered: a list's row, a table's status block, a
standings row. While a tournament runs, a save changes one row of a list, one status block of
150 and a few players' lines of a standing, while the pages around them are built anew: the
rest is rendered once (:func:`rendered_once`).

Below the views: the standings tables (``skatliga.standings.tables``) and the views both
keep their pieces here; :func:`rendered_each` writes the pieces of one template for a
page's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from django.template import Context, Engine

_Item = TypeVar("_Item")

KEPT_MOST = 25_000
"""Pieces a process keeps rendered: every row of 150 lists of 48 games in two languages, the
referees' status blocks and the standings' rows of a tournament of 600 players, about 12 MB;
when full, it starts afresh."""
_KEPT: dict[Hashable, str] = {}


def rendered_once(key: Hashable, render_piece: Callable[[], str]) -> str:
    """A piece of a page as ``render_piece()`` renders it, kept in this process under
    ``key``, which must hold everything the piece shows: its kind, the language, the address
    prefix where it links, its figures and words. A piece with a CSRF token (a form) is the
    request's own and is never kept."""
    found = _KEPT.get(key)
    if found is None:
        found = render_piece()
        if "csrfmiddlewaretoken" not in found:
            if len(_KEPT) >= KEPT_MOST:
                _KEPT.clear()
            _KEPT[key] = found
    return found


def rendered_each(
    template_name: str,
    items: Iterable[_Item],
    key: Callable[[_Item], Hashable | None],
    values: Callable[[_Item], dict[str, Any]],
    context: Context | None = None,
) -> list[str]:
    """Each item as ``template_name`` renders it with ``values(item)``, kept in this process
    under ``key(item)`` with the template's name (:func:`rendered_once`); ``values`` is
    called only for an item not kept yet, and an item whose key is None is rendered every
    time. One template and one context for all of them (``context``: the request's, where
    the pieces need it), a layer pushed per item."""
    template = Engine.get_default().get_template(template_name)
    if context is None:
        context = Context(autoescape=True)
    written: list[str] = []
    with context.bind_template(template):
        for item in items:

            def render(item: _Item = item) -> str:
                with context.push(values(item)):
                    return template.render(context)

            found = key(item)
            written.append(
                render() if found is None else rendered_once((template_name, found), render)
            )
    return written
