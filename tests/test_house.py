"""The rules of the house (docs/architecture.md), checked on the source: floors that only go
down, no circle between rooms, HTML only in templates, SQL by hand in few modules, no long
module. Reads the files as text and syntax trees; imports nothing of the project."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 600
MOST_SQL_MODULES = 5

# The floors of docs/architecture.md: a room imports rooms on its own floor or below, never
# above. A room is a module directly under skatliga/ (or scoring/ as a whole), or a
# sub-package of skatliga/ taken whole.
FLOORS: dict[str, int] = {
    "scoring": 0,
    "skatliga.rating": 0,
    # 1: the data and its words
    "skatliga.models": 1,
    "skatliga.words": 1,
    "skatliga.messages": 1,
    "skatliga.change_log": 1,
    "skatliga.collation": 1,
    "skatliga.formats": 1,
    "skatliga.languages": 1,
    "skatliga.revisions": 1,
    "skatliga.settings": 1,
    # 2: use cases, read models, printouts and the archive
    "skatliga.services": 2,
    "skatliga.sheet": 2,
    "skatliga.standings": 2,
    "skatliga.entries": 2,
    "skatliga.archive": 2,
    "skatliga.pdf": 2,
    "skatliga.printing": 2,
    "skatliga.export": 2,
    # 3: the ways in, one area per audience
    "skatliga.forms": 3,
    "skatliga.views": 3,
    "skatliga.table": 3,
    "skatliga.api": 3,
    "skatliga.money": 3,
    "skatliga.league": 3,
    "skatliga.checkin": 3,
    "skatliga.personal": 3,
    "skatliga.list_page": 3,
    "skatliga.ops": 3,
    "skatliga.tasks": 3,
    "skatliga.admin": 3,
    "skatliga.management": 3,
    # 4: what ties the areas together
    "skatliga.urls": 4,
    "skatliga.wsgi": 4,
    "skatliga.apps": 4,
}

SQL = re.compile(r"\.cursor\(|\.raw\(|RawSQL\(|\.execute\(|\bextra\(")
COMPILER = re.compile(r"\b(get_compiler|as_sql|execute_sql)\b")
"""The ORM's private compiler API: statements come from QuerySets or are written by hand."""
HTML_ROWS = re.compile(r"<(tr|td|th)[\s>/]", re.IGNORECASE)


def sources() -> list[Path]:
    return sorted(
        path
        for top in ("scoring", "skatliga")
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
    )


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "scoring":
        return "scoring"
    if parts[0] != "skatliga" or len(parts) < 2:
        return None
    return f"skatliga.{parts[1]}"


def imported(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_of(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield module
            # "from skatliga import views" imports the room views/
            yield from (f"{module}.{alias.name}" for alias in node.names)


def edges() -> dict[str, dict[str, set[str]]]:
    found: dict[str, dict[str, set[str]]] = {}
    rooms = {room_of(module_of(path)) for path in sources()}
    for path in sources():
        source = room_of(module_of(path))
        for module in imported(path):
            target = room_of(module)
            if source and target and target != source and target in rooms:
                name = str(path.relative_to(ROOT))
                found.setdefault(source, {}).setdefault(target, set()).add(name)
    return found


def test_every_room_has_a_floor():
    rooms = {room_of(module_of(path)) for path in sources()} - {None}
    assert rooms - set(FLOORS) == set(), "give each new room its floor in docs/architecture.md"


def test_floors_only_go_down():
    upward = [
        f"{source} (floor {FLOORS[source]}) imports {target} (floor {FLOORS[target]}): "
        + ", ".join(sorted(files))
        for source, targets in edges().items()
        for target, files in targets.items()
        if FLOORS.get(target, 0) > FLOORS.get(source, 0)
    ]
    assert upward == []


def test_no_import_circle_between_rooms():
    graph = edges()
    circles = []

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, {}):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                if reaches(nxt, goal, seen):
                    return True
        return False

    for room in graph:
        if reaches(room, room, set()):
            circles.append(room)
    assert circles == []


def test_templates_own_the_rows_and_cells():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HTML_ROWS.search(line)
    ]
    assert found == []


def test_sql_by_hand_in_few_modules():
    modules = sorted(
        str(path.relative_to(ROOT))
        for path in sources()
        if path.parts[-2:] != ("skatliga", "__init__.py")
        and module_of(path).startswith("skatliga")
        and SQL.search(path.read_text(encoding="utf-8"))
    )
    assert len(modules) <= MOST_SQL_MODULES, modules


def test_no_module_reaches_into_the_compiler():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COMPILER.search(line)
    ]
    assert found == []


WAYS_IN = ("forms", "views", "table", "api", "money", "league", "checkin", "personal", "list_page")
"""The rooms a request comes in by: they parse, call a service, render."""
TRANSACTION = re.compile(r"\btransaction\.\w|from django\.db import[^\n]*\btransaction\b|@atomic\b")


def test_the_ways_in_leave_transactions_to_the_services():
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources()
        if module_of(path).split(".")[1:2] and module_of(path).split(".")[1] in WAYS_IN
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TRANSACTION.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("path", sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_long(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LONGEST, f"{lines} lines: split it along its seams"


# --- the specs are in the repository (docs/rules.md, docs/archive-format.md) ----------------

SPECS = ("rules.md", "archive-format.md")
CITATION = re.compile(
    r"(rules\.md|archive-format\.md)(?:`{0,2}|\]\([^)]*\))\)?,?\s+(?:sections?\s+|§\s*)?"
    r"((?:§?\d+(?:\.\d+)?(?:\s*(?:-|–|,|and|to)\s*)?)+)"
)
OUTSIDE = re.compile(r"shared/|rules-notes\.md|(?<![\w/.-])(rules|archive-format)\.md")


def cited_files() -> list[Path]:
    found = [ROOT / "README.md"]
    for top in ("scoring", "skatliga", "tests", "bench", "docs"):
        found += [
            path
            for path in (ROOT / top).rglob("*")
            if path.suffix in (".py", ".md", ".json", ".html") and ".axe" not in path.parts
        ]
    return sorted(found)


def sections_of(name: str) -> set[str]:
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    return {m.group(1) for m in re.finditer(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", text, re.M)}


def test_every_citation_of_the_specs_names_a_section_there():
    sections = {name: sections_of(name) for name in SPECS}
    missing = []
    for path in cited_files():
        text = path.read_text(encoding="utf-8")
        for match in CITATION.finditer(text):
            spec, cited = match.group(1), match.group(2)
            numbers = re.findall(r"\d+(?:\.\d+)?", cited)
            if re.search(r"\d\s*(?:-|–|to)\s*\d", cited):  # a range: each section in it
                low, high = (int(numbers[i].split(".")[0]) for i in (0, -1))
                numbers = [str(n) for n in range(low, high + 1)]
            line = text.count("\n", 0, match.start()) + 1
            rel = path.relative_to(ROOT)
            missing += [f"{rel}:{line}: {spec} §{n}" for n in numbers if n not in sections[spec]]
    assert missing == []


def test_nothing_cites_a_file_the_repository_lacks():
    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in cited_files()
        if path.parent.name != "docs" and path != Path(__file__)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert outside == []
