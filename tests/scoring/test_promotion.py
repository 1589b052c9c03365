"""Promotion and relegation (docs/rules.md section 11.7), worked out by hand from the rule."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.promotion import Line, Rule, moves

# The reform year of the notes (shared league notes, "Season's end"): ten divisions of 16,
# places 10–16 go down, and with them the four weakest ninth-placed teams, compared by match
# points, then game points.
NINTH = {  # division: (match points, game points) of its ninth-placed team
    "D1": (Fraction(30), 21000),
    "D2": (Fraction(28), 20000),
    "D3": (Fraction(28), 19500),  # level with D2 on match points, fewer game points
    "D4": (Fraction(35), 18000),
    "D5": (Fraction(27, 2) * 2, 22000),  # 27
    "D6": (Fraction(31), 15000),
    "D7": (Fraction(29), 25000),
    "D8": (Fraction(33), 17000),
    "D9": (Fraction(32), 16000),
    "D10": (Fraction(30), 20500),
}


def division(name: str) -> list[Line]:
    mp, gp = NINTH[name]
    lines = []
    for place in range(1, 17):
        if place == 9:
            lines.append(Line(f"{name}-9", 9, mp, gp))
        else:  # above the ninth more, below it less: the order the places say
            lines.append(Line(f"{name}-{place}", place, mp + 9 - place, gp + (9 - place) * 100))
    return lines


def test_the_reform_year_sends_down_places_10_to_16_and_the_four_weakest_ninths():
    result = moves({name: division(name) for name in NINTH}, Rule(down=7, down_compared=4))
    direct = {f"{name}-{place}" for name in NINTH for place in range(10, 17)}
    # Ninths by match points: D5 27, D2 28, D3 28, D7 29, D1 30, D10 30, D6 31, ...
    # The four weakest: D5 (27), D3 (28, 19500 < 20000), D2 (28), D7 (29).
    assert set(result.down) == direct | {"D5-9", "D3-9", "D2-9", "D7-9"}
    assert result.down[-4:] == ("D5-9", "D3-9", "D2-9", "D7-9")  # weakest first
    assert result.up == ()
    [comparison] = result.comparisons
    assert [line.team for line in comparison.lines][-5:] == [
        "D10-9",
        "D7-9",
        "D2-9",
        "D3-9",
        "D5-9",
    ]
    assert not comparison.tied_at_cut


def test_the_best_second_placed_teams_go_up_too():
    a = [
        Line("A1", 1, Fraction(40), 9000),
        Line("A2", 2, Fraction(30), 8000),
        Line("A3", 3, Fraction(1), 1),
    ]
    b = [
        Line("B1", 1, Fraction(41), 9100),
        Line("B2", 2, Fraction(31), 7000),
        Line("B3", 3, Fraction(1), 1),
    ]
    c = [
        Line("C1", 1, Fraction(39), 9100),
        Line("C2", 2, Fraction(31), 7500),
        Line("C3", 3, Fraction(1), 1),
    ]
    result = moves({"A": a, "B": b, "C": c}, Rule(up=1, up_compared=1))
    # Seconds: C2 31/7500, B2 31/7000, A2 30: C2 is best on game points.
    assert result.up == ("A1", "B1", "C1", "C2")
    assert result.down == ()


def test_teams_equal_on_both_across_the_cut_are_left_to_the_official():
    a = [Line("A1", 1, Fraction(9), 100), Line("A2", 2, Fraction(3), 50)]
    b = [Line("B1", 1, Fraction(9), 100), Line("B2", 2, Fraction(3), 50)]
    result = moves({"A": a, "B": b}, Rule(up_compared=1))
    [comparison] = result.comparisons
    assert comparison.tied_at_cut
    assert len(comparison.chosen) == 1


def test_halves_count_exactly():
    a = [Line("A1", 1, Fraction(21, 2), 0), Line("A2", 2, Fraction(10), 900)]
    b = [Line("B1", 1, Fraction(11), 0), Line("B2", 2, Fraction(10), 0)]
    # A2 has 10 match points and 900 game points, B2 10 and 0: B2 is the weaker second.
    assert moves({"A": a, "B": b}, Rule(down_compared=1)).down == ("B2",)


@st.composite
def tables(draw):
    result = {}
    for d in range(draw(st.integers(1, 5))):
        size = draw(st.integers(1, 12))
        points = sorted(
            draw(
                st.lists(
                    st.tuples(st.integers(0, 60), st.integers(-2000, 9000)),
                    min_size=size,
                    max_size=size,
                )
            ),
            reverse=True,
        )
        result[d] = [Line((d, i), i + 1, Fraction(mp, 2), gp) for i, (mp, gp) in enumerate(points)]
    return result


@given(tables(), st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.integers(0, 4))
def test_no_team_moves_twice_and_each_division_keeps_its_order(tables, up, down, upc, downc):
    result = moves(tables, Rule(up, down, upc, downc))
    assert len(set(result.up)) == len(result.up)
    assert len(set(result.down)) == len(result.down)
    assert not set(result.up) & set(result.down)
    for lines in tables.values():
        places = {line.team: line.place for line in lines}
        ups = [places[t] for t in result.up if t in places]
        downs = [places[t] for t in result.down if t in places]
        # a team goes up only if every team above it does; down only if every team below
        assert sorted(ups) == list(range(1, len(ups) + 1))
        assert sorted(downs) == list(range(len(lines) - len(downs) + 1, len(lines) + 1))
