"""``python -m scoring``: score games given as JSON lines, one JSON line out per line in."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from scoring.breakdown import format_breakdown
from scoring.game import InvalidGame, Problem, check_game, score_game
from scoring.lists import seeger_fabian
from scoring.rules import RULE_SETS
from scoring.shape import ShapeError, parse_game

HELP = """\
Score Skat games. Reads one game per line on standard input, as a JSON object in the
game shape of the skatliga archive format, and writes one JSON line per input line,
in order. Exits 0 when every line scored, 1 otherwise.

Input keys:
  game                 clubs, spades, hearts, diamonds, grand, null (revolution under nl)
  bid                  the bid (a legal bid value: 18, 20, 22, 23, 24, 27, ...)
  matadors             signed matadors, suit and grand only (2 = with 2, -3 = without 3)
  hand, schneider_announced, schwarz_announced, ouvert, kontra, re    booleans
  card_points, tricks  the declarer's card points (skat included) and tricks, and/or
  won, schneider, schwarz   the outcome as written on a paper list
  declarer             optional, any string (ignored)
  rules                optional rule set: isko (default), isko-kontra, pre1999, grand20, dsu, nl
  table_size           optional, 3 (default) or 4
A passed-in game is {"passed": true}.

Example:
  $ echo '{"game": "grand", "matadors": 2, "hand": true, "bid": 20,
          "card_points": 78, "tricks": 7}' | python -m scoring
  {"won": true, "overbid": false, "value": 96, "list_score": 96, "seeger_fabian": \
{"declarer": 146, "opponents_each": 0}, ...}

A line that cannot be scored gives {"error": {"code": ..., "field": ..., "message": ...}}
and, for a game the rules reject, "problems" with every problem found.
"""

MESSAGES = {
    "invalid_json": "the line is not valid JSON",
    "invalid_utf8": "the line is not valid UTF-8",
    "not_an_object": "the line must be a JSON object",
    "unknown_key": "unknown key",
    "wrong_type": "wrong type",
    "required": "required",
    "unknown_game": "unknown game",
    "unknown_rules": "unknown rule set",
    "table_size_invalid": "table_size must be 3 or 4",
    "game_not_in_rules": "this rule set has no such game",
    "matadors_missing": "matadors are required for suit and grand games",
    "matadors_out_of_range": "matadors must be 1..11 or -11..-1 (grand 1..4 or -4..-1)",
    "matadors_not_allowed": "null games have no matadors",
    "announcement_requires_hand": "schneider or schwarz can only be announced in a hand game",
    "ouvert_requires_hand": "an ouvert suit or grand game must be a hand game",
    "announcement_not_for_null": "null games have no announcements",
    "null_hand_not_in_rules": "this rule set has no null hand without ouvert",
    "kontra_not_allowed": "this rule set has no kontra or re",
    "re_without_kontra": "re needs kontra",
    "bid_not_legal": "not a legal bid value",
    "card_points_out_of_range": "card points must be 0..120",
    "tricks_out_of_range": "tricks must be 0..10",
    "card_points_contradict_tricks": "these card points are impossible with that many tricks",
    "outcome_missing": "give card_points and tricks, or won",
    "tricks_missing": "card_points need tricks",
    "card_points_missing": "tricks need card_points",
    "schwarz_without_schneider": "schwarz implies schneider",
    "level_not_for_null": "null games have no schneider or schwarz",
    "outcome_contradicts": "the flags contradict card_points and tricks",
    "won_contradicts_announcement": "won, but an announced level was not reached",
    "null_below_bid": (
        "the null game is worth less than the bid (the opponents should have refused it)"
    ),
    "internal_error": "this line could not be scored",
}


class LineError(Exception):
    """A line that cannot be scored, with the code and field to report."""

    def __init__(self, code: str, field: str | None = None, problems: list[Problem] | None = None):
        super().__init__(code)
        self.code = code
        self.field = field
        self.problems = problems or []


def score_line(line: str) -> dict[str, Any]:
    """The output object for one input line; raises :class:`LineError` if it cannot be scored.

    >>> score_line('{"passed": true}')["list_score"]
    0
    >>> score_line('{"game": "null", "bid": 23, "tricks": 0}')["value"]
    23
    """
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise LineError("invalid_json") from None
    if not isinstance(data, dict):
        raise LineError("not_an_object")
    options = {key: data.pop(key) for key in ("rules", "table_size") if key in data}
    rules_name = options.get("rules", "isko")
    if not isinstance(rules_name, str):
        raise LineError("wrong_type", "rules")
    rules = RULE_SETS.get(rules_name)
    if rules is None:
        raise LineError("unknown_rules", "rules")
    table_size = options.get("table_size", 3)
    if not isinstance(table_size, int) or isinstance(table_size, bool):
        raise LineError("wrong_type", "table_size")
    if table_size not in (3, 4):
        raise LineError("table_size_invalid", "table_size")
    try:
        parsed = parse_game(data)
    except ShapeError as error:
        raise LineError(error.code, error.field) from None
    if parsed is None:
        return {
            "passed": True,
            "won": False,
            "overbid": False,
            "value": 0,
            "list_score": 0,
            "seeger_fabian": {"declarer": 0, "opponents_each": 0},
        }
    declaration, outcome = parsed
    try:
        scored = score_game(declaration, outcome, rules)
    except InvalidGame as invalid:
        first = invalid.problems[0]
        raise LineError(first.code, first.field, check_game(declaration, outcome, rules)) from None
    declarer_sf, opponents_sf = seeger_fabian(scored, table_size)
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
        "breakdown": format_breakdown(scored, "en"),
        "warnings": [_problem_json(p) for p in scored.warnings],
    }


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "code": problem.code,
        "field": problem.field,
        "message": MESSAGES.get(problem.code, problem.code),
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
                "message": MESSAGES.get(error.code, error.code),
            }
        }
        if error.problems:
            out["problems"] = [_problem_json(p) for p in error.problems]
        return out, False
    except Exception:  # the last guard: a line must never end the run with a traceback
        return {
            "error": {
                "code": "internal_error",
                "field": None,
                "message": MESSAGES["internal_error"],
            }
        }, False


def _lines(stream: IO[bytes]) -> Iterator[str | None]:
    for raw in stream:
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            yield None


def run(lines: Iterable[str | None], out: IO[str]) -> int:
    """Answer every line on ``out``; 0 if every line scored, else 1.

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
                    "message": MESSAGES["invalid_utf8"],
                }
            }
            ok = False
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
