"""League standings on hand-checked examples: points, Buchholz, Sonneborn-Berger, wins and shared ranks."""

from __future__ import annotations

import pytest

from bot.leagues.pairing import Bye, Played
from bot.leagues.standings import Standing, standings


def test_five_player_swiss_hand_checked() -> None:
    played = [
        Played(1, ("A", "B"), (1.0, 0.0)),
        Played(1, ("C", "D"), (0.5, 0.5)),
        Played(2, ("E", "A"), (1.0, 0.0)),
        Played(2, ("D", "B"), (0.0, 1.0)),
        Played(3, ("A", "C"), (0.0, 1.0)),
        Played(3, ("B", "E"), (0.5, 0.5)),
    ]
    byes = [Bye(1, "E"), Bye(2, "C"), Bye(3, "D")]
    # points:   A 1 + 0 + 0 = 1;  B 0 + 1 + 0.5 = 1.5;  C 0.5 + bye 1 + 1 = 2.5;  D 0.5 + 0 + bye 1 = 1.5;
    #           E bye 1 + 1 + 0.5 = 2.5
    # Buchholz: A: B 1.5 + E 2.5 + C 2.5 = 6.5;  B: A 1 + D 1.5 + E 2.5 = 5;  C: D 1.5 + A 1 = 2.5;
    #           D: C 2.5 + B 1.5 = 4;  E: A 1 + B 1.5 = 2.5
    # S-B:      A: 1 x 1.5 = 1.5;  B: 1 x 1.5 + 0.5 x 2.5 = 2.75;  C: 0.5 x 1.5 + 1 x 1 = 1.75;  D: 0.5 x 2.5 = 1.25;
    #           E: 1 x 1 + 0.5 x 1.5 = 1.75
    # C and E are equal on points, Buchholz, S-B and wins (1 each): both rank 1, C first by sign-up order;
    # B and D are equal on points, B has the higher Buchholz.
    table = standings(["A", "B", "C", "D", "E"], played, byes, dropped={"D"})
    assert table == [
        Standing("C", 1, 2.5, 2.5, 1.75, wins=1, games=2, byes=1, dropped=False),
        Standing("E", 1, 2.5, 2.5, 1.75, wins=1, games=2, byes=1, dropped=False),
        Standing("B", 3, 1.5, 5.0, 2.75, wins=1, games=3, byes=0, dropped=False),
        Standing("D", 4, 1.5, 4.0, 1.25, wins=0, games=2, byes=1, dropped=True),
        Standing("A", 5, 1.0, 6.5, 1.5, wins=1, games=3, byes=0, dropped=False),
    ]


def test_pods_use_the_mean_of_the_others_at_the_table() -> None:
    played = [
        Played(1, ("a", "b", "c"), (1.0, 0.0, 0.0)),
        Played(2, ("b", "c", "d"), (0.5, 0.5, 0.0)),
    ]
    byes = [Bye(1, "d"), Bye(2, "a")]
    # points:   a 1 + bye 1 = 2;  b 0 + 0.5 = 0.5;  c 0 + 0.5 = 0.5;  d bye 1 + 0 = 1
    # Buchholz: a: mean(b 0.5, c 0.5) = 0.5;  b: mean(a 2, c 0.5) + mean(c 0.5, d 1) = 1.25 + 0.75 = 2;  c: 2 too;
    #           d: mean(b, c) = 0.5
    # S-B:      a: 1 x 0.5 = 0.5;  b: 0 x 1.25 + 0.5 x 0.75 = 0.375;  c: 0.375;  d: 0 x 0.5 = 0
    # a shared win is not a win: b and c tie on everything and share rank 3
    table = standings(["a", "b", "c", "d"], played, byes)
    assert [(row.player, row.rank, row.wins) for row in table] == [
        ("a", 1, 1),
        ("d", 2, 0),
        ("b", 3, 0),
        ("c", 3, 0),
    ]
    by_player = {row.player: row for row in table}
    assert by_player["b"].buchholz == pytest.approx(2.0)
    assert by_player["b"].sonneborn_berger == pytest.approx(0.375)
    assert by_player["d"].buchholz == pytest.approx(0.5)
    assert by_player["a"].sonneborn_berger == pytest.approx(0.5)


def test_thirds_summed_in_different_orders_still_tie() -> None:
    third = 1 / 3
    played = [
        Played(1, ("a", "b", "c"), (third, third, third)),
        Played(1, ("d", "e", "f"), (third, third, third)),
    ]
    table = standings(["a", "b", "c", "d", "e", "f"], played, [])
    assert {row.rank for row in table} == {1}
    assert [row.player for row in table] == ["a", "b", "c", "d", "e", "f"]


def test_forfeits_count_as_games_and_unknown_or_idle_players_are_listed() -> None:
    played = [Played(1, ("x", "y"), (1.0, 0.0), forfeit=True)]
    table = standings(["y", "z"], played, [], dropped={"y"})
    assert [(row.player, row.rank, row.points, row.games, row.wins, row.dropped) for row in table] == [
        ("x", 1, 1.0, 1, 1, False),
        ("y", 2, 0.0, 1, 0, True),
        ("z", 3, 0.0, 0, 0, False),
    ]
    assert table[1].buchholz == 1.0


def test_an_empty_league_lists_everyone_equal() -> None:
    table = standings(["a", "b"], [], [])
    assert [(row.player, row.rank, row.points, row.games) for row in table] == [
        ("a", 1, 0.0, 0),
        ("b", 1, 0.0, 0),
    ]
