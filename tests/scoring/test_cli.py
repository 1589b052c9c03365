"""``python -m scoring``: JSON lines in, one JSON line out per line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cli import answer

ROOT = Path(__file__).resolve().parents[2]


def run_cli(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


def test_scores_lines_in_order_and_exits_0():
    lines = [
        # grand hand with 2: with 2, game 3, hand 4 -> 4 x 24 = 96; SF 96 + 50
        {"game": "grand", "matadors": 2, "hand": True, "bid": 20, "card_points": 78, "tricks": 7},
        {"passed": True},
        # hearts without 2 = 3 x 10 = 30 at bid 30, lost on paper -> -60; SF -110 / +30 at a 4-table
        {"game": "hearts", "matadors": -2, "bid": 30, "won": False, "table_size": 4},
    ]
    result = run_cli("".join(json.dumps(line) + "\n" for line in lines).encode())
    assert result.returncode == 0
    assert result.stderr == b""
    out = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [o["value"] for o in out] == [96, 0, 30]
    assert [o["list_score"] for o in out] == [96, 0, -60]
    assert out[0]["seeger_fabian"] == {"declarer": 146, "opponents_each": 0}
    assert out[2]["seeger_fabian"] == {"declarer": -110, "opponents_each": 30}
    assert out[0]["won"] is True and out[2]["won"] is False


def test_overbid_line():
    # diamonds without 1 (18) at bid 22: charged 3 x 9 = 27, list -54, SF -104 / +40
    (out, ok) = answer(
        '{"game": "diamonds", "matadors": -1, "bid": 22, "card_points": 70, "tricks": 6}'
    )
    assert ok
    assert (out["won"], out["overbid"], out["value"], out["list_score"]) == (False, True, 27, -54)
    assert out["seeger_fabian"] == {"declarer": -104, "opponents_each": 40}


def test_rules_and_table_size_keys():
    # pre1999: a lost hand game counts single: clubs hand with 1 = 3 x 12 = 36 -> -36
    line = '{"game": "clubs", "matadors": 1, "hand": true, "bid": 18, "won": false, '
    out, ok = answer(line + '"rules": "pre1999"}')
    assert ok and out["list_score"] == -36


def test_a_bad_line_gives_an_error_and_exit_1_but_later_lines_still_score():
    stdin = b'{"game": "grand", "matadors": 1, "bid": 19, "won": true}\n{"passed": true}\n'
    result = run_cli(stdin)
    assert result.returncode == 1
    first, second = (json.loads(line) for line in result.stdout.decode().splitlines())
    assert first["error"]["code"] == "bid_not_legal"
    assert first["error"]["field"] == "bid"
    assert first["error"]["message"]
    assert second["passed"] is True


def test_blank_lines_are_skipped_and_non_utf8_lines_get_an_answer():
    result = run_cli(b"\n\xff\xfe\n  \n{}\n")
    codes = [json.loads(line)["error"]["code"] for line in result.stdout.decode().splitlines()]
    assert codes == ["invalid_utf8", "required"]
    assert result.returncode == 1


def test_help_explains_the_format():
    result = run_cli(b"", "--help")
    assert result.returncode == 0
    assert b"card_points" in result.stdout and b"Example" in result.stdout


def _code(line: str) -> tuple[str, str | None]:
    out, ok = answer(line)
    assert not ok
    return out["error"]["code"], out["error"]["field"]


def test_type_errors():
    assert _code('{"game": "hearts", "matadors": true, "bid": 18, "won": true}') == (
        "wrong_type",
        "matadors",
    )
    assert _code('{"game": "hearts", "matadors": 1, "bid": 18.0, "won": true}') == (
        "wrong_type",
        "bid",
    )
    assert _code('{"game": "hearts", "matadors": 1, "bid": 18, "won": 1}') == ("wrong_type", "won")
    assert _code('{"game": "hearts", "matadors": 1, "bid": 18, "wonn": true}') == (
        "unknown_key",
        "wonn",
    )
    assert _code('{"game": "hearts", "matadors": 1, "bid": 18, "won": true, "rules": "x"}') == (
        "unknown_rules",
        "rules",
    )
    assert _code('{"game": "hearts", "matadors": 1, "bid": 18, "won": true, "table_size": 0}') == (
        "table_size_invalid",
        "table_size",
    )
    assert _code('{"game": "herz", "bid": 18, "won": true}') == ("unknown_game", "game")
    assert _code('{"passed": true, "game": "null"}') == ("unknown_key", "game")
    assert _code("[1, 2]") == ("not_an_object", None)
    assert _code('{"bid": NaN}')[0] in {"wrong_type", "required"}


def test_engine_problems_are_all_listed():
    out, ok = answer('{"game": "hearts", "matadors": 0, "bid": 19, "schneider_announced": true}')
    assert not ok
    codes = {p["code"] for p in out["problems"]}
    assert codes == {
        "bid_not_legal",
        "matadors_out_of_range",
        "announcement_requires_hand",
        "outcome_missing",
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["game", "bid", "matadors", "hand", "won", "tricks", "card_points", "x"]
            )
            | st.text(max_size=6),
            children,
            max_size=6,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values.map(json.dumps), st.text(max_size=40)))
def test_random_junk_always_gets_an_answer_object(line):
    out, ok = answer(line)
    assert isinstance(out, dict)
    if not ok:
        assert (
            {"code", "field", "message"}
            <= set(out["error"])
            <= {
                "code",
                "field",
                "message",
                "column",
            }
        )
        assert out["error"]["code"] != "internal_error"
    json.dumps(out)


def test_random_bytes_through_the_real_process_never_traceback():
    junk = b"\n".join(
        [b"{", b'{"game": []}', b"\x00\x01", b'{"game": "null", "bid": 23, "tricks": 99}', b"1"]
    )
    result = run_cli(junk + b"\n")
    assert result.stderr == b""
    assert len(result.stdout.splitlines()) == 5
    assert all("error" in json.loads(line) for line in result.stdout.decode().splitlines())
