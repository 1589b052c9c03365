"""A list's rows are written in one pass (``views.sheet``): their text is exactly what the
template loops they replaced wrote, kept here as the oracles, over played, passed, lost,
overbid, doubled, Ramsch and unplayed rows and a substitute's, in German and English."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from scoring import Ramsch
from skatliga import services
from skatliga.views.public.lists import readonly_rows
from skatliga.views.sheet import build_sheet, list_rows_html, readonly_rows_html
from tests.web.factories import entry, make_player, make_table, play

pytestmark = pytest.mark.django_db

LANGUAGES = pytest.mark.parametrize("language", ["de", "en"])

READONLY_LOOP = Template(
    "{% load i18n %}{% for row, declarer, label in rows %}\n"
    '    <tr{% if not row.game %} class="empty"{% endif %}>\n'
    '      <td class="number">{{ row.number }}</td>\n'
    "      <td>{% if row.game and not row.game.passed %}{{ declarer }}{% endif %}</td>\n"
    '      <td>{% if row.game %}{% if row.game.passed %}<em>{% translate "eingepasst" %}</em>'
    '{% else %}{{ label }}<small class="breakdown">{{ row.breakdown }}</small>{% endif %}'
    "{% endif %}</td>\n"
    '      <td class="number">{{ row.entry }}</td>\n'
    '      {% for cell in row.cells %}<td class="number{% if cell.declarer %} declarer{% endif %}'
    '{% if cell.sits_out %} sits-out{% endif %}">{% if cell.running is not None %}'
    "{{ cell.running }}{% endif %}</td>{% endfor %}\n"
    "    </tr>\n"
    "  {% endfor %}"
)
"""The loop ``public/table.html`` wrote the read-only list's rows with."""

LIST_LOOP = Template(
    """{% load i18n %}{% for row in sheet.rows %}
            {% with g=row.game s=row.scored %}
            <tr id="row-{{ row.number }}" data-number="{{ row.number }}"
                class="{% if g %}is-saved{% else %}is-empty{% endif %}{% if row.number == editing %} is-editing{% endif %}{% if g.passed %} is-passed{% endif %}{% if s and not s.won %} is-lost{% endif %}"
                {% if g and not table.is_closed %}data-href="?game={{ row.number }}#entry"{% endif %}>
              <th scope="row" class="c-num">{% if g and not table.is_closed %}<a href="?game={{ row.number }}#entry" title="{% blocktranslate with number=row.number %}Spiel {{ number }} bearbeiten{% endblocktranslate %}">{{ row.number }}</a>{% else %}{{ row.number }}{% endif %}</th>
              <td class="c-dealer">{{ row.dealer }}</td>
              {% if g.passed %}
                <td class="c-passed" colspan="{{ middle_span }}">{% translate "eingepasst" %}</td>
                <td class="c-value">{{ row.entry }}</td>
              {% elif g.ramsch is not None %}
                <td class="c-passed c-ramsch" colspan="{{ middle_span }}">{{ row.breakdown }}</td>
                <td class="c-value">{{ row.entry }}</td>
              {% else %}
                <td class="c-declarer">{% if g %}{{ g.declarer }}{% endif %}</td>
                <td class="c-game">{% if g %}<span class="suit suit-{{ g.game }}" aria-hidden="true"></span>{{ g.get_game_display }}{% endif %}</td>
                <td class="c-mat">{% if g.matadors is not None %}{{ g.matadors|stringformat:"+d" }}{% endif %}</td>
                <td class="c-flag">{% if g.hand %}{% translate "H" %}{% endif %}</td>
                <td class="c-flag">{% if g.schwarz_announced %}{% translate "Sw" %}{% elif g.schneider_announced %}{% translate "S" %}{% endif %}</td>
                <td class="c-flag">{% if g.ouvert %}{% translate "O" %}{% endif %}</td>
                {% if kontra %}<td class="c-flag">{% if g.resupra %}{% translate "Rs" %}{% elif g.supra %}{% translate "Su" %}{% elif g.re %}{% translate "Re" %}{% elif g.kontra %}{% translate "K" %}{% endif %}</td>{% endif %}
                <td class="c-bid">{% if g %}{{ g.bid }}{% endif %}</td>
                <td class="c-cp">{% if g.card_points is not None %}{{ g.card_points }}{% endif %}</td>
                <td class="c-tricks">{% if g.tricks is not None %}{{ g.tricks }}{% endif %}</td>
                <td class="c-result">{% if s %}{% if s.won %}+{% else %}−{% endif %}{% if s.schwarz %} {% translate "Sw" %}{% elif s.schneider %} {% translate "S" %}{% endif %}{% endif %}</td>
                <td class="c-value{% if s %}{% if s.won %} won{% else %} lost{% endif %}{% endif %}"{% if row.breakdown %} title="{{ row.breakdown }}"{% endif %}>{% if s %}{{ row.entry }}{% if s.overbid %}<abbr class="overbid" title="{% translate 'überreizt' %}">ü</abbr>{% endif %}{% endif %}</td>
              {% endif %}
              {% for cell in row.cells %}<td class="c-total{% if cell.declarer %} is-declarer{% endif %}{% if cell.sits_out %} sits-out{% endif %}" data-seat="{{ forloop.counter }}">{% if cell.running is not None %}{{ cell.running }}{% endif %}</td>{% endfor %}
            </tr>
            {% endwith %}
          {% endfor %}"""  # noqa: E501 - the template's lines as they were
)
"""The loop ``referee/list.html`` wrote the list's rows with (the table link's page too)."""


def sheet_of(table):
    seats = list(table.seats.select_related("player", "substitute").order_by("position"))
    games = list(table.games.order_by("number"))
    per_list = table.series.tournament.games_per_list(table.size)
    return build_sheet(table, games, games_per_list=per_list, seats=seats), seats


SCHWARZ_ANNOUNCED = {"schneider_announced": True, "schwarz_announced": True}
DOUBLED = {"kontra": True, "re": True, "supra": True}


@pytest.fixture
def doubled():
    """A 4-table under Kontra, Re, Supra and Resupra, its second player's name to escape: a
    hand game won, a pass, a null lost, an overbid grand, a Schneider announced, a grand
    with Kontra and Re, a null ouvert won, Schwarz announced and won, Resupra, Supra; the
    rest of the list unplayed."""
    players = [make_player(), make_player("<Kurt & Co>"), make_player(), make_player()]
    table = make_table(players=players, rule_options={"doublings": "kontra-re-supra-resupra"})
    play(
        table,
        entry(2, "clubs", matadors=2, card_points=70, tricks=7, hand=True),
        entry(),
        entry(4, "null", bid=23, won=False),
        entry(1, "grand", bid=50, matadors=1, card_points=70, tricks=7),
        entry(
            2, "hearts", matadors=-1, card_points=95, tricks=9, hand=True, schneider_announced=True
        ),
        entry(3, "grand", matadors=1, card_points=70, tricks=6, kontra=True, re=True),
        entry(4, "null", bid=23, ouvert=True, tricks=0),
        entry(1, "diamonds", 18, 1, card_points=120, tricks=10, hand=True, **SCHWARZ_ANNOUNCED),
        entry(2, "grand", matadors=1, card_points=70, tricks=6, **DOUBLED, resupra=True),
        entry(3, "spades", matadors=1, card_points=70, tricks=6, **DOUBLED),
    )
    return table


@pytest.fixture
def ramsch():
    """A 3-table with Ramsch: a Ramsch, a grand lost by the seat a substitute takes over."""
    table = make_table(size=3, rounds=2, scoring="classic", rule_options={"ramsch": True})
    play(
        table,
        services.GameEntry(ramsch=Ramsch((30, 62, 28), (3, 5, 2))),
        entry(2, "grand", bid=24, matadors=1, card_points=50, tricks=4),
    )
    services.appoint_substitute(table, 2, 2, player=make_player("Emil"))
    return table


@LANGUAGES
def test_the_read_only_rows_are_the_template_loops_text(client, language, doubled, ramsch):
    for table in (doubled, ramsch):
        with translation.override(language):
            rows = readonly_rows(*sheet_of(table))
            written = readonly_rows_html(rows)
            assert written == READONLY_LOOP.render(Context({"rows": rows}))
            url = reverse("table", args=[table.series.tournament.slug, 1, table.number])
        assert written in client.get(url).content.decode()
        assert ("empty" in written, "sits-out" in written) == (True, table is doubled)
        assert ("&lt;Kurt &amp; Co&gt;" if table is doubled else "<td>Emil</td>") in written


@LANGUAGES
def test_the_referees_rows_are_the_template_loops_text(language, doubled, ramsch):
    for table in (doubled, ramsch):
        kontra = table.series.tournament.rule_set.kontra
        assert kontra == (table is doubled)
        with translation.override(language):
            sheet, _seats = sheet_of(table)
            for editing in (None, 3, sheet.recorded + 1):
                for closed in (False, True):
                    written = list_rows_html(sheet, editing=editing, closed=closed, kontra=kontra)
                    context = {
                        "sheet": sheet,
                        "editing": editing,
                        "table": {"is_closed": closed},
                        "middle_span": 10 + kontra,
                        "kontra": kontra,
                    }
                    assert written == LIST_LOOP.render(Context(context))
        marks = ("overbid", "is-lost", "c-ramsch", "is-declarer", "sits-out")
        assert [mark in written for mark in marks] == [table is doubled, True] + [
            table is not doubled,
            True,
            table is doubled,
        ]


def test_the_referees_page_shows_the_rows(client, django_user_model, doubled):
    referee = django_user_model.objects.create_user("anna")
    doubled.series.tournament.referees.add(referee)
    client.force_login(referee)
    series = doubled.series
    url = reverse("referee:list", args=[series.tournament.slug, series.number, doubled.number])
    with translation.override("de"):
        sheet, _seats = sheet_of(doubled)
        written = list_rows_html(sheet, editing=sheet.recorded + 1, closed=False, kontra=True)
    page = client.get(url).content.decode()
    assert f"<tbody>\n          {written}\n        </tbody>" in page
