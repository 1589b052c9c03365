"""The referee's one-line notation (skatliga/forms/notation.py, docs/guide.md "Kurzeingabe"):
seat, game letter, matadors, flags, card points. The values are worked out from the rules
(docs/rules.md): a suit game's value is (matadors + 1 + levels) × base value, clubs 12,
diamonds 9, grand 24; null 23, null ouvert 46; a lost game counts double on the list."""

import pytest
from django.core.exceptions import ValidationError

import scoring
from skatliga.forms.notation import parse_notation
from skatliga.models import Game
from tests.web.factories import make_table
from tests.web.test_referee_entry import codes, row, url

KONTRA = scoring.RULE_SETS["isko-kontra"]


def parsed(text, rules=scoring.ISKO, size=4):
    """The fields the notation sets, without the ones it leaves blank."""
    fields = parse_notation(text, size=size, rules=rules)
    return {name: value for name, value in fields.items() if value not in ("", False)}


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        # The example: seat 2, clubs with 1, hand, 61 card points.
        (
            "2 k 1 h 61",
            dict(declarer="2", game="clubs", matadors="1", hand=True, card_points="61"),
        ),
        # The same without spaces but the one between two numbers: 6 keys.
        ("2k1 61", dict(declarer="2", game="clubs", matadors="1", card_points="61")),
        # English letters: c clubs, s spades, d diamonds; "-2" is "without 2".
        ("3c-2 40", dict(declarer="3", game="clubs", matadors="-2", card_points="40")),
        ("1s1 90", dict(declarer="1", game="spades", matadors="1", card_points="90")),
        ("4 d 3 70", dict(declarer="4", game="diamonds", matadors="3", card_points="70")),
        ("1p1 61", dict(declarer="1", game="spades", matadors="1", card_points="61")),
        # Grand hand with 2, Schneider announced.
        (
            "3g2hs 95",
            dict(
                declarer="3",
                game="grand",
                matadors="2",
                hand=True,
                announced="schneider",
                card_points="95",
            ),
        ),
        # Null games: no matadors, won (+) or lost (-); o = ouvert.
        ("4n+", dict(declarer="4", game="null", won="won")),
        ("2 n o h -", dict(declarer="2", game="null", ouvert=True, hand=True, won="lost")),
        # Overbid: the bid after b; the game lost by its tricks (t).
        (
            "1d1 b22 +",
            dict(declarer="1", game="diamonds", matadors="1", bid="22", won="won"),
        ),
        (
            "2h1 t3 30",
            dict(declarer="2", game="hearts", matadors="1", tricks="3", card_points="30"),
        ),
        # Passed in: 0 or p alone.
        ("0", dict(declarer="0")),
        ("p", dict(declarer="0")),
        # Capitals and the minus sign of a phone keyboard.
        ("2 K −1 61", dict(declarer="2", game="clubs", matadors="-1", card_points="61")),
    ],
)
def test_a_notation_sets_the_fields_of_a_row(text, fields):
    assert parsed(text) == fields


def test_kontra_and_re_step_up_where_the_rules_play_them():
    assert parsed("2g1 k 70", KONTRA)["doubling"] == "kontra"
    assert parsed("2g1 kk 70", KONTRA)["doubling"] == "re"


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("5k1 61", "5"),  # no seat 5 at a table of four
        ("2x1 61", "x"),  # no game x
        ("2 k 1 61 70", "70"),  # card points twice
        ("2k1 hh 61", "h"),  # hand twice
        ("2g1 k 70", "k"),  # no Kontra in these rules
        ("k1 61", "k"),  # no seat
        ("2k1 61 #", "#"),
        ("2k1 6²", "²"),  # a superscript two is a digit to str.isdigit, not to int
        ("²k1 61", "²"),
        ("2k1 ٦١", "٦١"),  # Arabic-Indic digits: only 0-9 are read
    ],
)
def test_a_wrong_notation_names_the_part_not_understood(text, part):
    with pytest.raises(ValidationError) as raised:
        parse_notation(text, size=4, rules=scoring.ISKO)

    assert raised.value.code == "notation_invalid"
    assert f"„{part}“" in raised.value.messages[0]


# --- through the referee's page -------------------------------------------------------


@pytest.fixture
def table(client, django_user_model):
    """A 3-table (every seat plays) whose referee is logged in."""
    table = make_table(size=3, rounds=1)
    user = django_user_model.objects.create_user("anna", password="kreuz-bube-11")
    table.series.tournament.referees.add(user)
    client.force_login(user)
    return table


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "value", "list_score"),
    [
        ("1k1 61", 24, 24),  # (1 + 1) × 12, won
        ("1g2h 78", 96, 96),  # (2 + 1 game + 1 hand) × 24, won
        ("1n+", 23, 23),  # null, won
        ("1no-", 46, -92),  # null ouvert, lost: doubled
        ("1d1 b22 +", 27, -54),  # diamonds with 1 = 18 < 22: overbid, 3 × 9 = 27, lost
    ],
)
def test_the_server_saves_a_row_typed_as_a_notation_alone(client, table, text, value, list_score):
    response = client.post(url(table), row(1, notation=text))

    assert response.status_code == 302
    game = Game.objects.get(table=table, number=1)
    assert (game.value, game.list_score) == (value, list_score)


@pytest.mark.django_db
def test_the_notation_wins_over_the_fields_it_covers(client, table):
    client.post(url(table), row(1, notation="2k1 61", declarer=3, game="grand", hand=True))

    game = Game.objects.get(table=table, number=1)
    assert (game.declarer, game.game, game.hand, game.list_score) == (2, "clubs", False, 24)


@pytest.mark.django_db
def test_a_wrong_notation_is_refused_and_nothing_typed_is_lost(client, table):
    response = client.post(
        url(table), row(1, notation="2x1 61", declarer=2, game="clubs", matadors=1)
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert codes(form, "notation") == ["notation_invalid"]
    assert not Game.objects.exists()
    html = response.content.decode()
    assert 'value="2x1 61"' in html
    assert form["matadors"].value() == "1" and form["game"].value() == "clubs"


@pytest.mark.django_db
def test_the_preview_answers_with_the_fields_and_the_value(client, table):
    data = client.post(url(table, "referee:preview"), row(1, notation="2 g 2 h 78")).json()

    assert (data["ok"], data["value"], data["list_score"]) == (True, 96, 96)
    assert data["fields"]["game"] == "grand" and data["fields"]["hand"] is True
    assert data["fields"]["card_points"] == "78" and data["fields"]["bid"] == ""


@pytest.mark.django_db
def test_the_preview_of_a_wrong_notation_names_it_in_english(client, table):
    data = client.post("/en" + url(table, "referee:preview"), row(1, notation="2 q")).json()

    assert data["ok"] is False and data["fields"] is None
    notation = [p for p in data["problems"] if p["field"] == "notation"]
    assert [p["code"] for p in notation] == ["notation_invalid"]
    assert notation[0]["message"].startswith("Shorthand not understood at “q”")
