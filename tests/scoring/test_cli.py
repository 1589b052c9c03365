"""``python -m scoring``: JSON lines in, one JSON line out per line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
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


# --- issue 9: robust input, rules objects, list systems and table sizes ---------------------


def cli_lines(*lines: str | bytes, expect: int = 0) -> list[dict]:
    raw = b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)
    result = run_cli(raw)
    assert result.stderr == b""
    assert result.returncode == expect
    return [json.loads(line) for line in result.stdout.decode().splitlines()]


def test_card_points_alone_score_through_the_process():
    # docs/rules.md section 3.4: '{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70}'
    # scores: won, with 1 game 2 x 12 = 24
    (out,) = cli_lines('{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70}')
    assert (out["won"], out["value"], out["list_score"]) == (True, 24, 24)


def test_blank_lines_get_no_answer_and_do_not_fail():
    out = cli_lines("", '{"passed": true}', "   ", "\t", "", '{"passed": true}', "")
    assert [o["passed"] for o in out] == [True, True]


def test_a_byte_order_mark_at_the_start_is_accepted():
    out = cli_lines(b'\xef\xbb\xbf{"game": "null", "bid": 23, "tricks": 0}', b'{"passed": true}')
    assert out[0]["value"] == 23 and out[1]["passed"] is True


def test_crlf_line_ends_are_accepted():
    result = run_cli(b'{"passed": true}\r\n{"game": "null", "bid": 23, "tricks": 0}\r\n')
    assert result.returncode == 0
    assert [json.loads(line).get("value") for line in result.stdout.splitlines()] == [0, 23]


def test_a_duplicate_key_is_an_error():
    out = cli_lines('{"game": "null", "bid": 23, "bid": 24, "tricks": 0}', expect=1)
    assert (out[0]["error"]["code"], out[0]["error"]["field"]) == ("duplicate_key", "bid")


def test_broken_json_names_the_column():
    # '{"game": "null",, ...': the second comma is the 17th character
    out = cli_lines('{"game": "null",, "bid": 23}', '{"passed": true', expect=1)
    assert out[0]["error"]["code"] == "invalid_json"
    assert out[0]["error"]["column"] == 17
    assert out[1]["error"]["column"] == 16  # the end of '{"passed": true' (15 characters)


def test_a_contradiction_is_an_error_line():
    # won: true with 50 card points -> outcome_contradiction on "won"
    out = cli_lines(
        '{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 50, "won": true}', expect=1
    )
    assert (out[0]["error"]["code"], out[0]["error"]["field"]) == ("outcome_contradiction", "won")
    out = cli_lines('{"game": "null", "bid": 23, "card_points": 0, "tricks": 0}', expect=1)
    assert out[0]["error"]["code"] == "card_points_not_for_null"


HEARTS_HAND_LOST = '"game": "hearts", "matadors": -2, "hand": true, "bid": 40, "card_points": 50'


def test_rules_preset_and_rules_object():
    out = cli_lines(
        # se: hearts hand without 2 lost: 4 x 10 = 40 -> -80 ("minus 80 totalt")
        "{" + HEARTS_HAND_LOST + ', "rules": "se"}',
        # "hade alltså förlorat 5*10=50 poäng"
        "{" + HEARTS_HAND_LOST + ', "rules": {"preset": "se", "lost_game": "add-level"}}',
        # nl: declarer 0, each opponent 40 (a hand game: once)
        "{" + HEARTS_HAND_LOST + ', "rules": {"preset": "nl"}}',
        # supra on isko: clubs with 1 = 24 x 8 = 192
        '{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70, "kontra": true, '
        '"re": true, "supra": true, "rules": {"doublings": "kontra-re-supra-resupra"}}',
        # Dutch null hand 29
        '{"game": "null", "hand": true, "bid": 29, "tricks": 0, '
        '"rules": {"preset": "nl", "null_values": "23/29/46/59"}}',
    )
    assert [o["list_score"] for o in out] == [-80, -50, 0, 192, 29]
    assert out[2]["opponents_list_score"] == 40


@pytest.mark.parametrize(
    ("rules", "code", "field"),
    [
        pytest.param('"xx"', "unknown_rules", "rules", id="unknown preset"),
        pytest.param('{"preset": "xx"}', "unknown_rules", "rules.preset", id="unknown in object"),
        pytest.param('{"kontra": true}', "unknown_option", "rules.kontra", id="unknown option"),
        pytest.param('{"grand_base": 21}', "option_value_invalid", "rules.grand_base", id="21"),
        pytest.param("[1]", "wrong_type", "rules", id="a list"),
    ],
)
def test_rules_errors(rules, code, field):
    out, ok = answer('{"game": "null", "bid": 23, "tricks": 0, "rules": ' + rules + "}")
    assert not ok
    assert (out["error"]["code"], out["error"]["field"]) == (code, field)


def test_supra_not_allowed_under_isko_kontra():
    line = (
        '{"game": "clubs", "matadors": 1, "bid": 18, "card_points": 70, "kontra": true, '
        '"re": true, "supra": true, "rules": "isko-kontra"}'
    )
    out = cli_lines(line, expect=1)
    assert (out[0]["error"]["code"], out[0]["error"]["field"]) == ("doubling_not_allowed", "supra")


def test_points_per_seat_role():
    out = cli_lines(
        # zero-sum, 3-table: (-80, +40, +40)
        "{" + HEARTS_HAND_LOST + ', "list_system": "zero-sum"}',
        # 4-table: the dealer who sits out settles too
        "{" + HEARTS_HAND_LOST + ', "list_system": "zero-sum", "table_size": 4}',
        # 5-table: "the declarer who wins 40 gets 4 x 40"; lost: -160
        "{" + HEARTS_HAND_LOST + ', "list_system": "zero-sum", "table_size": 5}',
        # Seeger-Fabian at a 4-table: -80 - 50; +30 to the others and the dealer
        "{" + HEARTS_HAND_LOST + ', "list_system": "seeger-fabian", "table_size": 4}',
        # classic at a 5-table: only the declarer writes
        "{" + HEARTS_HAND_LOST + ', "list_system": "classic", "table_size": 5}',
        # nl, the dealer declares: the sitter scores what the dealer scores
        "{" + HEARTS_HAND_LOST + ', "rules": "nl", "list_system": "classic", "table_size": 4, '
        '"dealer_declares": true}',
        # nl zero-sum, the dealer defends: credit 40 from the declarer to each opponent,
        # the sitter as the dealer
        "{" + HEARTS_HAND_LOST + ', "rules": "nl", "list_system": "zero-sum", "table_size": 4}',
        '{"passed": true, "list_system": "classic", "table_size": 4}',
    )
    assert [o["points"] for o in out] == [
        {"declarer": [-80], "opponents": [40, 40], "sitting_out": []},
        {"declarer": [-120], "opponents": [40, 40], "sitting_out": [40]},
        {"declarer": [-160], "opponents": [40, 40], "sitting_out": [40, 40]},
        {"declarer": [-130], "opponents": [30, 30], "sitting_out": [30]},
        {"declarer": [-80], "opponents": [0, 0], "sitting_out": [0, 0]},
        {"declarer": [0], "opponents": [40, 40], "sitting_out": [0]},
        {"declarer": [-80], "opponents": [40, 40], "sitting_out": [40]},
        {"players": [0, 0, 0], "sitting_out": [0]},
    ]
    assert all(o["list_system"] for o in out)


def test_ramsch_lines():
    se_ramsch = '"rules": {"preset": "se", "ramsch": true}'
    out = cli_lines(
        # middlehand has the most, 62: classic (0, -62, 0)
        '{"ramsch": {"card_points": [30, 62, 28], "tricks": [3, 5, 2]}, ' + se_ramsch + "}",
        # zero-sum at a 4-table: 62 to each of the three others
        '{"ramsch": {"card_points": [30, 62, 28], "tricks": [3, 5, 2]}, ' + se_ramsch + ", "
        '"list_system": "zero-sum", "table_size": 4}',
        # Jungfrau: 2 x 70
        '{"ramsch": {"card_points": [0, 70, 50], "tricks": [0, 6, 4]}, ' + se_ramsch + "}",
    )
    assert out[0]["list_scores"] == [0, -62, 0] and out[0]["charge"] == 62
    assert out[1]["points"] == {"players": [62, -186, 62], "sitting_out": [62]}
    assert (out[2]["charge"], out[2]["jungfrau"], out[2]["list_scores"]) == (
        140,
        True,
        [0, -140, 0],
    )


@pytest.mark.parametrize(
    ("line", "code", "field"),
    [
        pytest.param(
            '{"ramsch": {"card_points": [30, 62, 28], "tricks": [3, 5, 2]}}',
            "ramsch_not_in_rules",
            "ramsch",
            id="isko plays no Ramsch",
        ),
        pytest.param(
            '{"ramsch": {"card_points": [30, 62, 27], "tricks": [3, 5, 2]}, '
            '"rules": {"ramsch": true}}',
            "ramsch_card_points_sum",
            "ramsch.card_points",
            id="119 points",
        ),
        pytest.param(
            '{"ramsch": {"card_points": [30, 62, 28], "tricks": [3, 5, 2]}, '
            '"rules": {"ramsch": true}, "list_system": "seeger-fabian"}',
            "ramsch_not_with_seeger_fabian",
            "ramsch",
            id="Ramsch with Seeger-Fabian",
        ),
        pytest.param(
            '{"passed": true, "list_system": "seeger-fabian", "table_size": 5}',
            "five_table_not_with_seeger_fabian",
            "table_size",
            id="5-table with Seeger-Fabian",
        ),
        pytest.param(
            '{"passed": true, "table_size": 5}',
            "five_table_not_with_seeger_fabian",
            "table_size",
            id="5-table without a list system",
        ),
        pytest.param('{"passed": true, "table_size": 6}', "table_size_invalid", "table_size"),
        pytest.param('{"passed": true, "table_size": "4"}', "wrong_type", "table_size"),
        pytest.param('{"passed": true, "list_system": "x"}', "unknown_list_system", "list_system"),
        pytest.param('{"passed": true, "list_system": 1}', "wrong_type", "list_system"),
        pytest.param('{"passed": true, "dealer_declares": 1}', "wrong_type", "dealer_declares"),
        # "At a 4-table the dealer sits out the game: the dealer can never be the declarer."
        pytest.param(
            "{" + HEARTS_HAND_LOST + ', "list_system": "classic", "table_size": 4, '
            '"dealer_declares": true}',
            "declarer_is_dealer",
            "dealer_declares",
            id="the dealer declares where he sits out",
        ),
        pytest.param(
            "{" + HEARTS_HAND_LOST + ', "list_system": "zero-sum", "table_size": 5, '
            '"rules": "nl", "dealer_declares": true}',
            "declarer_is_dealer",
            "dealer_declares",
            id="nl at a 5-table: the dealer sits out",
        ),
    ],
)
def test_list_and_table_errors(line, code, field):
    out = cli_lines(line, expect=1)
    assert (out[0]["error"]["code"], out[0]["error"]["field"]) == (code, field)
    assert out[0]["error"]["message"] != code
