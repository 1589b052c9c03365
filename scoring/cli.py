"""``python -m scoring``: score games given as JSON lines, one JSON line out per line in."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from scoring.game import (
    Declaration,
    InvalidGame,
    Outcome,
    Problem,
    ScoredGame,
    check_game,
    score_game,
)
from scoring.lists import (
    TABLE_SIZES,
    Entry,
    check_seat,
    check_table,
    role_points,
    seeger_fabian,
)
from scoring.messages import in_language
from scoring.ramsch import Ramsch, check_ramsch, score_ramsch
from scoring.rules import ListSystem, RulesError, RuleSet, rules_from_json
from scoring.shape import ShapeError, parse_game

HELP = """\
Score Skat games. Reads one game per line on standard input, as a JSON object in the
game shape of the skatliga archive format, and writes one JSON line per input line,
in order. Exits 0 when every line scored, 1 otherwise.

Input keys:
  game                 clubs, spades, hearts, diamonds, grand, null (revolution under nl)
  bid                  optional, the bid (a legal bid value: 18, 20, 22, 23, 24, 27, ...);
                       without it the game reached its bid (never overbid)
  matadors             signed matadors, suit and grand only (2 = with 2, -3 = without 3)
  hand, schneider_announced, schwarz_announced, ouvert    booleans
  kontra, re, supra, resupra    booleans, where the rule set allows them, each after the one before
  card_points          the declarer's card points (skat included): they decide won and schneider
  tricks               the declarer's tricks: needed only where schwarz is in question
                       (card points 0..22 or 120), and for null games
  won, schneider, schwarz   the outcome as written on a paper list (must agree with the above)
  declarer             optional, any string (ignored)
  rules                optional: a preset (isko, the default; isko-kontra, pre1999, grand20,
                       dsu, se, nl) or an object {"preset": "se", "lost_game": "add-level", ...}
  list_system          optional: seeger-fabian, classic or zero-sum; the answer then has
                       "points", each seat role's points for the game under that system
  table_size           optional, 3 (default), 4 or 5 (5 with classic or zero-sum only)
  dealer_declares      optional, under fourth_player shares-dealer: the dealer declared
                       (an error at a table where the dealer sits out)
A passed-in game is {"passed": true}; a Ramsch (where the rule set has ramsch) is
{"ramsch": {"card_points": [forehand, middlehand, rearhand], "tricks": [...]}}.
Blank lines are skipped; a line that is not JSON gets the column where it breaks.

Example:
  $ echo '{"game": "grand", "matadors": 2, "hand": true, "bid": 20,
          "card_points": 78, "tricks": 7}' | python -m scoring
  {"won": true, "overbid": false, "value": 96, "list_score": 96, "seeger_fabian": \
{"declarer": 146, "opponents_each": 0}, ...}

A scored game's answer has "steps": its counted levels in order, each with the count so
far, e.g. [["with", 2], ["game", 3], ["hand", 4]] for a grand hand with 2 (none for null).
A line that cannot be scored gives {"error": {"code": ..., "field": ..., "message": ...}}
and, for a game the rules reject, "problems" with every problem found.
"""


class LineError(Exception):
    """A line that cannot be scored, with the code and field to report."""

    def __init__(
        self,
        code: str,
        field: str | None = None,
        problems: list[Problem] | None = None,
        column: int | None = None,
    ):
        super().__init__(code)
        self.code = code
        self.field = field
        self.problems = problems or []
        self.column = column


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise LineError("duplicate_key", key)
        data[key] = value
    return data


OPTION_KEYS = ("rules", "list_system", "table_size", "dealer_declares")
"""Keys of a line that say how to score it, not what was played."""


@dataclass(frozen=True, slots=True)
class Request:
    """One line parsed: what was played, and how to score it."""

    played: tuple[Declaration, Outcome] | Ramsch | None
    """A declared game, a Ramsch, or None for a passed-in game (``parse_game``)."""
    rules: RuleSet
    system: ListSystem | None
    table_size: int
    dealer_declares: bool


def score_line(line: str) -> dict[str, Any]:
    """The output object for one input line; raises :class:`LineError` if it cannot be scored.

    >>> score_line('{"passed": true}')["list_score"]
    0
    >>> score_line('{"game": "null", "bid": 23, "tricks": 0}')["value"]
    23
    >>> score_line('{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70}')["value"]
    24
    """
    return score_request(parse_line(line))


def parse_line(line: str) -> Request:
    """One input line as a :class:`Request`; raises :class:`LineError` where its JSON, its
    options or the shape of its game are wrong, or its table cannot be played."""
    try:
        data = json.loads(line, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise LineError("invalid_json", column=error.colno) from None
    except (ValueError, RecursionError):
        raise LineError("invalid_json") from None
    if not isinstance(data, dict):
        raise LineError("not_an_object")
    options = {key: data.pop(key) for key in OPTION_KEYS if key in data}
    try:
        rules = rules_from_json(options.get("rules", "isko"))
    except RulesError as error:
        field = "rules" if error.field is None else f"rules.{error.field}"
        raise LineError(error.code, field) from None
    system_name = options.get("list_system")
    if system_name is not None and not isinstance(system_name, str):
        raise LineError("wrong_type", "list_system")
    try:
        system = None if system_name is None else ListSystem(system_name)
    except ValueError:
        raise LineError("unknown_list_system", "list_system") from None
    table_size = options.get("table_size", 3)
    if not isinstance(table_size, int) or isinstance(table_size, bool):
        raise LineError("wrong_type", "table_size")
    if table_size not in TABLE_SIZES:
        raise LineError("table_size_invalid", "table_size")
    dealer_declares = options.get("dealer_declares", False)
    if not isinstance(dealer_declares, bool):
        raise LineError("wrong_type", "dealer_declares")
    if dealer_declares:
        # The dealer (seat 0 here) must be one of the three who play.
        for problem in check_seat(0, 0, table_size, rules):
            raise LineError(problem.code, "dealer_declares")
    if system is not None or table_size == 5:
        # Without a list system a line is scored as a game; a 5-table needs one.
        for problem in check_table(table_size, system or ListSystem.SEEGER_FABIAN, rules):
            raise LineError(problem.code, problem.field)
    try:
        played = parse_game(data)
    except ShapeError as error:
        raise LineError(error.code, error.field) from None
    return Request(played, rules, system, table_size, dealer_declares)


def score_request(request: Request) -> dict[str, Any]:
    """The output object for a parsed line; raises :class:`LineError` where the rules reject
    its game."""
    played, rules = request.played, request.rules
    result: dict[str, Any]
    entry: Entry
    if played is None:
        result = {
            "passed": True,
            "won": False,
            "overbid": False,
            "value": 0,
            "list_score": 0,
            "seeger_fabian": {"declarer": 0, "opponents_each": 0},
        }
        entry = None
    elif isinstance(played, Ramsch):
        if not rules.ramsch:
            raise LineError("ramsch_not_in_rules", "ramsch")
        problems = check_ramsch(played)
        if problems:
            raise LineError(problems[0].code, f"ramsch.{problems[0].field}", problems)
        entry = score_ramsch(played)
        result = {
            "ramsch": True,
            "charge": entry.charge,
            "jungfrau": entry.jungfrau,
            "durchmarsch": entry.durchmarsch is not None,
            "list_scores": list(entry.points),
        }
    else:
        result, entry = _score_game(*played, request.rules, request.table_size)
    if request.system is not None:
        result["list_system"] = str(request.system)
        result["points"] = role_points(
            entry,
            table_size=request.table_size,
            system=request.system,
            rules=rules,
            dealer_declares=request.dealer_declares,
        )
    return result


def _score_game(
    declaration: Declaration, outcome: Outcome, rules: RuleSet, table_size: int
) -> tuple[dict[str, Any], ScoredGame]:
    try:
        scored = score_game(declaration, outcome, rules)
    except InvalidGame as invalid:
        first = invalid.problems[0]
        raise LineError(first.code, first.field, check_game(declaration, outcome, rules)) from None
    declarer_sf, opponents_sf = seeger_fabian(scored, min(table_size, 4))
    return {
        "won": scored.won,
        "overbid": scored.overbid,
        "value": scored.value,
        "list_score": scored.list_score,
        "seeger_fabian": {"declarer": declarer_sf, "opponents_each": opponents_sf},
        "level": scored.level,
        "base": scored.base,
        "schneider": scored.schneider,
        "schwarz": scored.schwarz,
        "opponents_list_score": scored.opponents_list_score,
        "steps": [list(step) for step in scored.steps],
        "warnings": [_problem_json(p) for p in scored.warnings],
    }, scored


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "code": problem.code,
        "field": problem.field,
        "message": in_language(problem.code),
    }


def answer(line: str) -> tuple[dict[str, Any], bool]:
    """The output object for a line, and whether it scored; never raises.

    >>> answer('{"game": "hearts", "bid": 19, "matadors": 1, "won": true}')[0]["error"]["code"]
    'bid_not_legal'
    """
    try:
        return score_line(line), True
    except LineError as error:
        out: dict[str, Any] = {
            "error": {
                "code": error.code,
                "field": error.field,
                "message": in_language(error.code),
            }
        }
        if error.column is not None:
            out["error"]["column"] = error.column
        if error.problems:
            out["problems"] = [_problem_json(p) for p in error.problems]
        return out, False
    except Exception:  # the last guard: a line must never end the run with a traceback
        return {
            "error": {
                "code": "internal_error",
                "field": None,
                "message": in_language("internal_error"),
            }
        }, False


def _lines(stream: IO[bytes]) -> Iterator[str | None]:
    for number, raw in enumerate(stream):
        if number == 0 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]  # a UTF-8 byte-order mark
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            yield None


def run(lines: Iterable[str | None], out: IO[str]) -> int:
    """Answer every line on ``out``; 0 if every line scored, else 1. Blank lines are skipped.

    >>> import io
    >>> out = io.StringIO()
    >>> run(['{"passed": true}', "{"], out)
    1
    >>> [line[:20] for line in out.getvalue().splitlines()]
    ['{"passed": true, "wo', '{"error": {"code": "']
    """
    status = 0
    for line in lines:
        if line is None:
            result: dict[str, Any] = {
                "error": {
                    "code": "invalid_utf8",
                    "field": None,
                    "message": in_language("invalid_utf8"),
                }
            }
            ok = False
        elif not line.strip():
            continue
        else:
            result, ok = answer(line)
        if not ok:
            status = 1
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m scoring``: standard input to standard output.

    Its example is ``python -m scoring --help``.
    """
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(argv)
    try:
        return run(_lines(sys.stdin.buffer), sys.stdout)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
