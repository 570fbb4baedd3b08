"""League pairing: whole simulated Swiss tournaments checked round by round against a brute force, pods, Berger
tables, elimination and divisions."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.leagues.pairing import (
    Bye,
    Pairing,
    Played,
    divisions,
    elimination_remaining,
    game_points,
    pair_elimination,
    pair_swiss,
    promote_relegate,
    round_robin,
    round_robin_rounds,
)

# --------------------------------------------------------------------------------------------------------------
# an independent account of a Swiss history, kept by the tests themselves


class Ledger:
    """Meetings, byes and seat balance of a simulated league, counted from the pairings as they are played."""

    def __init__(self) -> None:
        self.played: list[Played] = []
        self.byes: list[Bye] = []
        self.met: Counter[frozenset[str]] = Counter()
        self.bye_count: Counter[str] = Counter()
        self.balance: Counter[str] = Counter()
        self.seat_positions: Counter[tuple[str, int]] = Counter()

    def record(self, pairing: Pairing, rng: random.Random) -> None:
        for table in pairing.tables:
            self.played.append(Played(pairing.round, table, random_points(len(table), rng)))
            for a, b in itertools.combinations(table, 2):
                self.met[frozenset((a, b))] += 1
            for position, player in enumerate(table):
                self.seat_positions[player, position] += 1
            if len(table) == 2:
                self.balance[table[0]] += 1
                self.balance[table[1]] -= 1
        for player in pairing.byes:
            self.byes.append(Bye(pairing.round, player))
            self.bye_count[player] += 1


def random_points(seats: int, rng: random.Random) -> tuple[float, ...]:
    """A win for one seat, or (one time in five) a draw."""
    if rng.random() < 0.2:
        return game_points(seats, [], draw=True)
    return game_points(seats, [rng.randrange(seats)])


def perfect_matchings(nodes: Sequence[str | None]) -> Iterator[list[tuple[str | None, str | None]]]:
    """Every way to pair up ``nodes`` (an even count)."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, partner in enumerate(rest):
        for matching in perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *matching]


def colour_conflict(a: str, b: str, ledger: Ledger) -> bool:
    """Both players need the same seat: one of them would leave [-1, 1] whoever moves first."""
    return (ledger.balance[a] >= 1 and ledger.balance[b] >= 1) or (
        ledger.balance[a] <= -1 and ledger.balance[b] <= -1
    )


def swiss_key(pairs: Sequence[tuple[str | None, str | None]], ledger: Ledger) -> tuple[int, int, int]:
    """(byes the bye's receiver already had, colour conflicts, rematches): the first three priorities."""
    bye_level = rematches = conflicts = 0
    for a, b in pairs:
        if a is None or b is None:
            bye_level = ledger.bye_count[a or b or ""]
            continue
        rematches += ledger.met[frozenset((a, b))]
        conflicts += colour_conflict(a, b, ledger)
    return bye_level, conflicts, rematches


def brute_force_best(active: Sequence[str], ledger: Ledger) -> tuple[int, int, int]:
    nodes: list[str | None] = [*active, *([None] if len(active) % 2 else [])]
    return min(swiss_key(matching, ledger) for matching in perfect_matchings(nodes))


def check_swiss_round(pairing: Pairing, active: Sequence[str], ledger: Ledger) -> tuple[int, int, int]:
    """Assert the round's pairing is sound and optimal; returns the brute force's best key."""
    seated = [player for table in pairing.tables for player in table] + list(pairing.byes)
    assert sorted(seated) == sorted(active), "every active player in exactly one table or bye"
    assert all(len(table) == 2 for table in pairing.tables)
    assert len(pairing.byes) == len(active) % 2
    if pairing.byes:
        fewest = min(ledger.bye_count[player] for player in active)
        assert ledger.bye_count[pairing.byes[0]] == fewest, "a second bye while someone active had fewer"
    pairs = [tuple(table) for table in pairing.tables] + [(bye, None) for bye in pairing.byes]
    best = brute_force_best(active, ledger)
    assert swiss_key(pairs, ledger) == best, "a rematch or colour clash that another pairing avoids"
    return best


# --------------------------------------------------------------------------------------------------------------
# Swiss, two players


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=4, max_value=11),
    rounds_short=st.integers(min_value=0, max_value=3),
    drop_chance=st.sampled_from([0.0, 0.15, 0.3]),
    rng=st.randoms(use_true_random=False),
)
def test_swiss_tournaments_keep_every_priority(
    players: int, rounds_short: int, drop_chance: float, rng: random.Random
) -> None:
    entrants = [f"p{index:02}" for index in range(players)]
    active = list(entrants)
    ledger = Ledger()
    colours_always_avoidable = True
    for round_number in range(1, max(2, players - rounds_short)):
        pairing = pair_swiss(active, ledger.played, ledger.byes, round=round_number)
        best = check_swiss_round(pairing, active, ledger)
        colours_always_avoidable &= best[1] == 0
        ledger.record(pairing, rng)
        if colours_always_avoidable:
            assert all(abs(ledger.balance[player]) <= 1 for player in entrants), "first-player balance"
        if rng.random() < drop_chance and len(active) > 3:
            active.remove(rng.choice(active))


def test_swiss_without_drops_avoids_every_rematch_for_n_minus_1_rounds_when_possible() -> None:
    """Eight players over three rounds: there is always a pairing without rematches, and it is found."""
    rng = random.Random(7)
    entrants = [f"p{index}" for index in range(8)]
    ledger = Ledger()
    for round_number in range(1, 4):
        pairing = pair_swiss(entrants, ledger.played, ledger.byes, round=round_number)
        assert all(ledger.met[frozenset(table)] == 0 for table in pairing.tables)
        ledger.record(pairing, rng)


def test_swiss_round_one_pairs_top_half_against_bottom_half_by_rating() -> None:
    entrants = ["a", "b", "c", "d", "e", "f", "g", "h"]
    ratings = {"a": 10, "b": 80, "c": 30, "d": 70, "e": 20, "f": 60, "g": 40, "h": 50}
    pairing = pair_swiss(entrants, [], [], round=1, ratings=ratings)
    by_rating = sorted(entrants, key=lambda player: -ratings[player])  # b d f h g c e a
    expected = {frozenset((by_rating[index], by_rating[index + 4])) for index in range(4)}
    assert {frozenset(table) for table in pairing.tables} == expected


def test_swiss_bye_goes_to_the_lowest_scored_without_one_and_the_later_entrant_on_ties() -> None:
    entrants = ["a", "b", "c", "d", "e"]
    first = pair_swiss(entrants, [], [], round=1)
    assert first.byes == ("e",)
    played = [Played(1, table, (1.0, 0.0)) for table in first.tables]
    second = pair_swiss(entrants, played, [Bye(1, "e")], round=2)
    losers = [table[1] for table in first.tables]
    assert second.byes == (max(losers, key=entrants.index),)


def test_swiss_seats_first_the_player_who_moved_first_less_often() -> None:
    played = [Played(1, ("a", "b"), (1.0, 0.0)), Played(1, ("c", "d"), (1.0, 0.0))]
    pairing = pair_swiss(["a", "b", "c", "d"], played, [], round=2)
    # a and c both won as first player: they meet on score, but then one of them would be +2; b and d both
    # need the first seat too. The pairing crosses the groups instead: a-d and c-b, the losers moving first.
    assert sorted(pairing.tables) == [("b", "c"), ("d", "a")]


def test_swiss_is_deterministic() -> None:
    rng = random.Random(3)
    entrants = [f"p{index}" for index in range(9)]
    ledger = Ledger()
    for round_number in range(1, 5):
        pairing = pair_swiss(entrants, ledger.played, ledger.byes, round=round_number)
        again = pair_swiss(list(entrants), list(ledger.played), list(ledger.byes), round=round_number)
        assert pairing == again
        ledger.record(pairing, rng)


@pytest.mark.parametrize("pod", [2, 4])
def test_swiss_pairs_64_players_well_under_a_second(pod: int) -> None:
    rng = random.Random(64)
    entrants = [f"p{index}" for index in range(64)]
    ledger = Ledger()
    slowest = 0.0
    for round_number in range(1, 7):
        started = time.perf_counter()
        pairing = pair_swiss(entrants, ledger.played, ledger.byes, round=round_number, pod=pod)
        slowest = max(slowest, time.perf_counter() - started)
        ledger.record(pairing, rng)
    # about 0.03-0.08 s a round on the 2-core machine; the bound leaves room for a busy one
    assert slowest < 1.0


def test_swiss_refuses_a_duplicate_entrant_and_a_table_of_one() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_swiss(["a", "b", "a"], [], [], round=1)
    with pytest.raises(ValueError, match="at least 2"):
        pair_swiss(["a", "b"], [], [], round=1, pod=1)


# --------------------------------------------------------------------------------------------------------------
# Swiss in pods


def pod_repeats(tables: Sequence[Sequence[str]], ledger: Ledger) -> int:
    return sum(ledger.met[frozenset(pair)] for table in tables for pair in itertools.combinations(table, 2))


@settings(max_examples=30, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_eight_players_in_pods_of_four_meet_as_few_again_as_any_split_allows(rng: random.Random) -> None:
    entrants = [f"p{index}" for index in range(8)]
    ledger = Ledger()
    ledger.record(pair_swiss(entrants, [], [], round=1, pod=4), rng)
    second = pair_swiss(entrants, ledger.played, ledger.byes, round=2, pod=4)
    assert sorted(player for table in second.tables for player in table) == sorted(entrants)
    splits = (
        (group, [player for player in entrants if player not in group])
        for group in itertools.combinations(entrants, 4)
        if group[0] == entrants[0]
    )
    fewest = min(pod_repeats(split, ledger) for split in splits)
    # two tables of four from two tables of four: each new table holds at least one pair from each old one
    assert fewest == 2 * 2
    assert pod_repeats(second.tables, ledger) == fewest


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=17),
    pod=st.sampled_from([3, 4]),
    min_pod=st.sampled_from([None, 2, 3]),
    rng=st.randoms(use_true_random=False),
)
def test_pods_seat_every_active_player_once(
    players: int, pod: int, min_pod: int | None, rng: random.Random
) -> None:
    entrants = [f"p{index}" for index in range(players)]
    ledger = Ledger()
    smallest = min(pod, min_pod) if min_pod is not None else pod
    for round_number in range(1, 4):
        pairing = pair_swiss(
            entrants, ledger.played, ledger.byes, round=round_number, pod=pod, min_pod=min_pod
        )
        seated = [player for table in pairing.tables for player in table]
        assert sorted(seated + list(pairing.byes)) == sorted(entrants)
        assert all(smallest <= len(table) <= pod for table in pairing.tables)
        if pairing.byes and seated:
            bye_receivers = [ledger.bye_count[player] for player in pairing.byes]
            assert max(bye_receivers) <= min(ledger.bye_count[player] for player in seated)
        ledger.record(pairing, rng)


def test_pods_never_repeat_a_bye_while_someone_has_had_none() -> None:
    entrants = [f"p{index}" for index in range(9)]
    rng = random.Random(5)
    ledger = Ledger()
    for round_number in range(1, 10):
        pairing = pair_swiss(entrants, ledger.played, ledger.byes, round=round_number, pod=4)
        assert len(pairing.byes) == 1
        ledger.record(pairing, rng)
    assert set(ledger.bye_count.values()) == {1}


@settings(max_examples=20, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_pod_seats_rotate_through_every_position(rng: random.Random) -> None:
    entrants = ["a", "b", "c", "d"]
    ledger = Ledger()
    for round_number in range(1, 5):
        ledger.record(pair_swiss(entrants, ledger.played, ledger.byes, round=round_number, pod=4), rng)
    assert all(ledger.seat_positions[player, position] == 1 for player in entrants for position in range(4))


def test_pods_are_cut_by_score_and_deterministic() -> None:
    entrants = [f"p{index}" for index in range(8)]
    played = [
        Played(1, ("p0", "p1", "p2", "p3"), (1.0, 0.0, 0.0, 0.0)),
        Played(1, ("p4", "p5", "p6", "p7"), (0.0, 1.0, 0.0, 0.0)),
    ]
    pairing = pair_swiss(entrants, played, [], round=2, pod=4)
    assert pairing == pair_swiss(entrants, played, [], round=2, pod=4)
    top_table = next(table for table in pairing.tables if "p0" in table)
    assert "p5" in top_table, "the two winners share the top table"


# --------------------------------------------------------------------------------------------------------------
# round robin


@pytest.mark.parametrize("players", range(2, 13))
def test_berger_tables_meet_every_pair_once_with_seats_balanced(players: int) -> None:
    entrants = [f"p{index}" for index in range(players)]
    met: Counter[frozenset[str]] = Counter()
    balance: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for round_number in range(1, round_robin_rounds(players) + 1):
        pairing = round_robin(entrants, round_number)
        assert sorted([*itertools.chain.from_iterable(pairing.tables), *pairing.byes]) == sorted(entrants)
        for first, second in pairing.tables:
            met[frozenset((first, second))] += 1
            balance[first] += 1
            balance[second] -= 1
        byes.update(pairing.byes)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
    assert set(met.values()) == {1}
    assert all(abs(value) <= 1 for value in balance.values())
    assert byes == (Counter(entrants) if players % 2 else Counter())


def test_berger_tables_match_the_published_six_player_table() -> None:
    """FIDE Handbook C.05 Annex 1, the Berger table for 5-6 players (white first)."""
    published = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    entrants = [str(number) for number in range(1, 7)]
    for round_number, tables in enumerate(published, start=1):
        expected = tuple((str(first), str(second)) for first, second in tables)
        assert round_robin(entrants, round_number).tables == expected


def test_round_robin_second_cycle_swaps_seats_and_pods_are_refused() -> None:
    entrants = ["a", "b", "c", "d"]
    first, second = round_robin(entrants, 1), round_robin(entrants, 4)
    assert second.tables == tuple((b, a) for a, b in first.tables)
    with pytest.raises(ValueError, match="two-player"):
        round_robin(entrants, 1, pod=4)
    assert round_robin_rounds(1) == 0


# --------------------------------------------------------------------------------------------------------------
# single elimination


def play_elimination(
    entrants: Sequence[str], ratings: dict[str, float], pod: int, rng: random.Random
) -> list[Pairing]:
    played: list[Played] = []
    rounds = []
    for round_number in range(1, 10):
        pairing = pair_elimination(entrants, played, round=round_number, pod=pod, ratings=ratings)
        if not pairing.tables:
            break
        rounds.append(pairing)
        played.extend(Played(round_number, table, random_points(len(table), rng)) for table in pairing.tables)
    assert len(elimination_remaining(entrants, played, ratings)) == 1
    return rounds


def test_elimination_seeds_round_one_by_rating_and_halves_each_round() -> None:
    entrants = [f"p{index}" for index in range(8)]
    ratings = {player: float(index) for index, player in enumerate(entrants)}  # p7 is the top seed
    rounds = play_elimination(entrants, ratings, 2, random.Random(1))
    assert rounds[0].tables == (("p7", "p0"), ("p6", "p1"), ("p5", "p2"), ("p4", "p3"))
    assert [len(pairing.tables) for pairing in rounds] == [4, 2, 1]


@pytest.mark.parametrize("players", [3, 5, 6, 7, 11])
def test_elimination_gives_top_seeds_byes_up_to_a_power_of_two(players: int) -> None:
    entrants = [f"p{index}" for index in range(players)]
    first = pair_elimination(entrants, [], round=1)
    size = 1 << (players - 1).bit_length()
    assert first.byes == tuple(entrants[: size - players])
    assert len(first.tables) * 2 + len(first.byes) == players
    play_elimination(entrants, {}, 2, random.Random(players))


def test_elimination_advances_the_better_seed_on_a_draw() -> None:
    played = [Played(1, ("d", "a"), (0.5, 0.5))]
    assert elimination_remaining(["a", "b", "c", "d"], played) == ["a", "b", "c"]


@pytest.mark.parametrize("players", [4, 7, 10, 16])
def test_elimination_in_pods_snakes_the_seeds_and_ends_with_one_champion(players: int) -> None:
    entrants = [f"p{index}" for index in range(players)]
    rounds = play_elimination(entrants, {}, 4, random.Random(players))
    first = rounds[0]
    assert sorted([*itertools.chain.from_iterable(first.tables), *first.byes]) == sorted(entrants)
    if players == 16:
        assert first.tables[0] == ("p0", "p7", "p8", "p15")


# --------------------------------------------------------------------------------------------------------------
# divisions


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [(12, 4, [4, 4, 4]), (13, 4, [4, 4, 5]), (14, 4, [4, 4, 4, 2]), (3, 4, [3])],
)
def test_divisions_absorb_a_small_remainder(players: int, size: int, expected: list[int]) -> None:
    entrants = [f"p{index}" for index in range(players)]
    ratings = {player: float(-index) for index, player in enumerate(entrants)}
    cut = divisions(entrants, ratings, size)
    assert [len(division) for division in cut] == expected
    assert list(itertools.chain.from_iterable(cut)) == entrants


def test_promotion_and_relegation_move_the_edges_of_each_division() -> None:
    final = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4"]]
    moved = promote_relegate(final, moves=1)
    assert moved == [["a1", "a2", "a3", "b1"], ["a4", "b2", "b3", "c1"], ["b4", "c2", "c3", "c4"]]
    assert sorted(itertools.chain.from_iterable(promote_relegate(final, moves=5))) == sorted(
        itertools.chain.from_iterable(final)
    )


def test_game_points_split_a_shared_win_and_refuse_a_seat_that_does_not_exist() -> None:
    assert game_points(3, [0, 1, 2]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert game_points(2, []) == (0.0, 0.0)
    with pytest.raises(ValueError):
        game_points(2, [2])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=16), rng=st.randoms(use_true_random=False))
def test_swiss_without_drops_keeps_every_players_first_seat_balance_within_one(
    players: int, rng: random.Random
) -> None:
    """With nobody dropping, the balance is never lost: each game gives one first and one second, so a pairing
    that keeps everyone within one always exists, and the balance comes before rematches."""
    entrants = [f"p{index:02}" for index in range(players)]
    ledger = Ledger()
    for round_number in range(1, players + 2):
        ledger.record(pair_swiss(entrants, ledger.played, ledger.byes, round=round_number), rng)
        assert all(abs(ledger.balance[player]) <= 1 for player in entrants), ledger.balance
