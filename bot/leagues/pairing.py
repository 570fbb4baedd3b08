"""Pairing a league's next round from its history: pure, deterministic, no I/O.

A league's history is the games that have ended (:class:`Played`, forfeits included) and the byes given
(:class:`Bye`); entrants are player ids (strings) in sign-up order. Every function returns a :class:`Pairing`:
each new game's seats in seat order (seat 1 first, so seat 1 moves first) and the byes.

Formats:

- Swiss, two players (:func:`pair_swiss` with ``pod=2``): a maximum-weight matching (networkx) over every
  pairing of the active players, whose weights put these goals in strict priority order (a lower goal never
  outweighs a higher one):

  1. the bye (odd count) goes to a player who has had fewer byes: never twice to one player while someone
     active has had none, because a bye is a free win;
  2. first-player balance: every player's (games seated first - games seated second) stays within [-1, 1], so
     two players who both need the same seat never meet while another pairing avoids it; the player with
     fewer firsts is seated first (ties: the higher score, then the earlier entrant). Moving first is an
     advantage in most games, so it is shared out; it comes before rematches because a balance lost is never
     won back, while a rematch is only a lost chance to meet someone new (and such a pairing is rare: only
     drops can leave more players needing one seat than the other can serve);
  3. no rematch while a pairing without one exists (then as few and as rarely repeated meetings as possible),
     because meeting new opponents is what makes a Swiss table rank players;
  4. the bye goes to the lowest-ranked player (score, then rating when given, then the later entrant);
  5. players of equal or close scores meet: the sum of squared score differences is minimised;
  6. inside a score group the top half meets the bottom half (ordered by rating when given, else sign-up
     order), as in the Dutch system; in round 1 every player is in one score group.

- Swiss in pods (``pod`` 3-4): players ordered by (points, rating, sign-up order) are cut into tables; then
  players are swapped between neighbouring tables while that lowers the repeat meetings (pairs who already
  shared a table) and, at equal repeats, the spread of scores at a table. Seats at each table are rotated: of
  the table's seat orders, the one where players sat least often at those positions before.
- Round robin (:func:`round_robin`): Berger tables, two-player games only.
- Single elimination (:func:`pair_elimination`): seeded by rating, reseeded each round, byes to top seeds.
- Divisions (:func:`divisions`, :func:`promote_relegate`): cut by rating, promotion and relegation between
  seasons.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

# Scores are sums of halves (draws), thirds and quarters (shared wins at 3-4 player tables); squared
# differences scaled by 144 are whole numbers for all of them, which keeps the matching's weights integers.
_SCORE_SCALE = 144


@dataclass(frozen=True)
class Played:
    """One league game that has ended (or was forfeited)."""

    round: int
    #: entrant ids in seat order (seat 1 first)
    seats: tuple[str, ...]
    #: league points each seat scored in it (:func:`game_points`)
    points: tuple[float, ...]
    #: ended by a withdrawal or a drop, not by play
    forfeit: bool = False


@dataclass(frozen=True)
class Bye:
    """A round a player sat out by the pairing; it scores as a win."""

    round: int
    player: str
    points: float = 1.0


@dataclass(frozen=True)
class Pairing:
    """One round's new games (each table's seats in seat order) and byes."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def game_points(seats: int, winners: Sequence[int], draw: bool = False) -> tuple[float, ...]:
    """League points of each seat (0-based) of an ended game: 1 for a sole winner, a shared win splits 1.

    A draw splits 1 among the winners it names, or among every seat when it names none; a game without a
    winner that is not a draw scores 0 for everyone.

    >>> game_points(2, [1])
    (0.0, 1.0)
    >>> game_points(2, [], draw=True)
    (0.5, 0.5)
    >>> game_points(4, [0, 2])
    (0.5, 0.0, 0.5, 0.0)
    """
    if seats < 1:
        raise ValueError(f"A game has at least one seat, not {seats}.")
    if any(not 0 <= winner < seats for winner in winners):
        raise ValueError(f"Winners {list(winners)} are not seats of a {seats}-seat game.")
    sharing = set(winners) or (set(range(seats)) if draw else set())
    share = 1.0 / len(sharing) if sharing else 0.0
    return tuple(share if seat in sharing else 0.0 for seat in range(seats))


# --------------------------------------------------------------------------------------------------------------
# the history, read once


@dataclass(frozen=True)
class _History:
    """What pairing needs to know of a league's past, per player."""

    points: Mapping[str, float]
    byes: Mapping[str, int]
    met: Mapping[frozenset[str], int]
    #: games seated first minus games seated second (two-player games)
    balance: Mapping[str, int]
    #: (player, 0-based seat position) -> games sat there
    seat_counts: Mapping[tuple[str, int], int]


def final_points(played: Sequence[Played], byes: Sequence[Bye]) -> dict[str, float]:
    """Every player's points after all the games and byes (a player absent from both has none).

    >>> dict(final_points([Played(1, ("a", "b"), (0.5, 0.5))], [Bye(1, "c")]))
    {'a': 0.5, 'b': 0.5, 'c': 1.0}
    """
    points: defaultdict[str, float] = defaultdict(float)
    for game in played:
        for player, scored in zip(game.seats, game.points, strict=True):
            points[player] += scored
    for bye in byes:
        points[bye.player] += bye.points
    return points


def _history(played: Sequence[Played], byes: Sequence[Bye]) -> _History:
    points = final_points(played, byes)
    bye_counts: Counter[str] = Counter()
    met: Counter[frozenset[str]] = Counter()
    balance: Counter[str] = Counter()
    seat_counts: Counter[tuple[str, int]] = Counter()
    for game in played:
        for position, player in enumerate(game.seats):
            seat_counts[player, position] += 1
        for first, second in itertools.combinations(game.seats, 2):
            met[frozenset((first, second))] += 1
        if len(game.seats) == 2:
            balance[game.seats[0]] += 1
            balance[game.seats[1]] -= 1
    for bye in byes:
        bye_counts[bye.player] += 1
    return _History(points, bye_counts, met, balance, seat_counts)


def _rank_order(entrants: Sequence[str], history: _History, ratings: Mapping[str, float] | None) -> list[str]:
    """Entrants best first: points, then rating when given, then sign-up order."""
    rating = ratings or {}
    signup = {player: index for index, player in enumerate(entrants)}
    return sorted(
        entrants,
        key=lambda player: (-history.points.get(player, 0.0), -rating.get(player, 0.0), signup[player]),
    )


# --------------------------------------------------------------------------------------------------------------
# Swiss, two players


def _score_key(points: float) -> int:
    return round(points * _SCORE_SCALE)


def _dutch_positions(order: Sequence[str], history: _History) -> dict[str, tuple[int, int]]:
    """Each player's (index inside their score group, half the group's size), the group in ranking order."""
    groups: dict[int, list[str]] = {}
    for player in order:
        groups.setdefault(_score_key(history.points.get(player, 0.0)), []).append(player)
    return {
        player: (index, len(group) // 2) for group in groups.values() for index, player in enumerate(group)
    }


def _level_multipliers(maxima: Sequence[int], pairs: int) -> list[int]:
    """Weights per level (lowest first) such that one unit of a level outweighs every lower level together."""
    multipliers: list[int] = []
    lower_total = 0
    for maximum in maxima:
        multiplier = lower_total + 1
        multipliers.append(multiplier)
        lower_total += pairs * maximum * multiplier
    return multipliers


def _pair_penalties(
    a: str, b: str, history: _History, dutch: Mapping[str, tuple[int, int]]
) -> tuple[int, ...]:
    """(bye, colour, rematch, bye rank, score, Dutch) penalties of seating ``a`` against ``b``."""
    rematch = history.met.get(frozenset((a, b)), 0)
    balance_a, balance_b = history.balance.get(a, 0), history.balance.get(b, 0)
    colour = int((balance_a >= 1 and balance_b >= 1) or (balance_a <= -1 and balance_b <= -1))
    difference = history.points.get(a, 0.0) - history.points.get(b, 0.0)
    score = round(difference * difference * _SCORE_SCALE)
    dutch_penalty = 0
    if score == 0:
        (index_a, half), (index_b, _) = dutch[a], dutch[b]
        dutch_penalty = (abs(index_a - index_b) - half) ** 2
    return (0, colour, rematch, 0, score, dutch_penalty)


def _bye_penalties(player: str, bye_rank: int, history: _History) -> tuple[int, ...]:
    return (history.byes.get(player, 0), 0, 0, bye_rank, 0, 0)


def _seat_two(a: str, b: str, history: _History, signup: Mapping[str, int]) -> tuple[str, str]:
    """Seat first the player with fewer firsts (ties: the higher score, then the earlier entrant)."""

    def key(player: str) -> tuple[int, float, int]:
        return (history.balance.get(player, 0), -history.points.get(player, 0.0), signup[player])

    return (a, b) if key(a) <= key(b) else (b, a)


def _swiss_penalties(order: Sequence[str], history: _History) -> dict[tuple[int, int], tuple[int, ...]]:
    """Penalty levels of every possible pair of ``order``'s indices; index ``len(order)`` is the bye (odd count)."""
    dutch = _dutch_positions(order, history)
    bye_node = len(order)
    nodes = list(range(len(order))) + ([bye_node] if len(order) % 2 else [])
    penalties: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, j in itertools.combinations(nodes, 2):
        if j == bye_node:
            # the lowest-ranked player (last in ``order``) has bye rank 0, the preferred one
            penalties[i, j] = _bye_penalties(order[i], len(order) - 1 - i, history)
        else:
            penalties[i, j] = _pair_penalties(order[i], order[j], history, dutch)
    return penalties


def _best_matching(penalties: Mapping[tuple[int, int], tuple[int, ...]]) -> list[tuple[int, int]]:
    """The perfect matching with the lexicographically smallest total penalty (highest level first), as pairs
    (i, j) with i < j, sorted.

    Each level is weighed so that one unit of it outweighs the worst possible total of every lower level, which
    turns the lexicographic goal into one maximum-weight matching over weights ``ceiling - penalty`` (all
    positive, all integers, so networkx computes exactly).
    """
    nodes = sorted({node for pair in penalties for node in pair})
    levels = len(next(iter(penalties.values()), ()))
    maxima = [max(penalty[level] for penalty in penalties.values()) for level in range(levels)]
    multipliers = _level_multipliers(maxima[::-1], len(nodes) // 2 + 1)[::-1]
    ceiling = sum(m * top for m, top in zip(multipliers, maxima, strict=True)) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for (i, j), penalty in penalties.items():
        graph.add_edge(i, j, weight=ceiling - sum(m * p for m, p in zip(multipliers, penalty, strict=True)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(edge), max(edge)) for edge in matching)


def _swiss_two(
    entrants: Sequence[str], history: _History, round: int, ratings: Mapping[str, float] | None
) -> Pairing:
    order = _rank_order(entrants, history, ratings)
    signup = {player: index for index, player in enumerate(entrants)}
    tables: list[tuple[str, str]] = []
    bye: tuple[str, ...] = ()
    for i, j in _best_matching(_swiss_penalties(order, history)):
        if j == len(order):
            bye = (order[i],)
        else:
            tables.append(_seat_two(order[i], order[j], history, signup))
    # ``i`` is the better-ranked player of each pair and the pairs are sorted by it: the top table comes first
    return Pairing(round, tuple(tables), bye)


# --------------------------------------------------------------------------------------------------------------
# Swiss in pods


def _table_sizes(count: int, pod: int, min_pod: int | None) -> list[int]:
    """The tables' sizes (largest first) for ``count`` players; players beyond their sum get byes.

    >>> _table_sizes(10, 4, 3), _table_sizes(10, 4, None), _table_sizes(5, 4, 3)
    ([4, 3, 3], [4, 4], [4])
    """
    if min_pod is not None:
        min_pod = min(min_pod, pod)
    tables = -(-count // pod)
    if tables and min_pod is not None and count // tables >= min_pod:
        return sorted((count // tables + (index < count % tables) for index in range(tables)), reverse=True)
    return [pod] * (count // pod)


def _pod_byes(order: Sequence[str], count: int, history: _History) -> list[str]:
    """The ``count`` players who sit out: fewest byes first, then the lowest-ranked."""
    lowest_first = list(reversed(order))
    chosen = sorted(lowest_first, key=lambda player: history.byes.get(player, 0))[:count]
    return sorted(chosen, key=order.index)


def _pod_cost(pod: Sequence[str], history: _History) -> tuple[int, int]:
    repeats = 0
    spread = 0
    for a, b in itertools.combinations(pod, 2):
        repeats += history.met.get(frozenset((a, b)), 0)
        difference = history.points.get(a, 0.0) - history.points.get(b, 0.0)
        spread += round(difference * difference * _SCORE_SCALE)
    return repeats, spread


def _best_swap(
    left: list[str], right: list[str], history: _History
) -> tuple[tuple[int, int], int, int] | None:
    """The swap between two tables that lowers (repeats, spread) the most, as (gain, i, j), or None."""
    before = tuple(map(sum, zip(_pod_cost(left, history), _pod_cost(right, history), strict=True)))
    best: tuple[tuple[int, int], int, int] | None = None
    for i, j in itertools.product(range(len(left)), range(len(right))):
        new_left = left[:i] + [right[j]] + left[i + 1 :]
        new_right = right[:j] + [left[i]] + right[j + 1 :]
        after = tuple(map(sum, zip(_pod_cost(new_left, history), _pod_cost(new_right, history), strict=True)))
        gain = (before[0] - after[0], before[1] - after[1])
        if gain > (0, 0) and (best is None or gain > best[0]):
            best = (gain, i, j)
    return best


def _improve_pods(pods: list[list[str]], history: _History) -> list[list[str]]:
    """Swap players between neighbouring tables while a swap lowers (repeat meetings, score spread)."""
    improved = True
    while improved:
        improved = False
        for index in range(len(pods) - 1):
            swap = _best_swap(pods[index], pods[index + 1], history)
            if swap is not None:
                _, i, j = swap
                pods[index][i], pods[index + 1][j] = pods[index + 1][j], pods[index][i]
                improved = True
    return pods


def rotate_seats(players: Sequence[str], history_seats: Mapping[tuple[str, int], int]) -> tuple[str, ...]:
    """The table's seat order where its players sat least often at those positions before.

    Ties go to the first such order of ``players`` (itertools' permutation order), so the result is
    deterministic. ``history_seats`` maps (player, 0-based position) to games sat there.

    >>> rotate_seats(["a", "b", "c"], {("a", 0): 1, ("b", 1): 1, ("c", 2): 1})
    ('b', 'c', 'a')
    """

    def cost(order: tuple[str, ...]) -> int:
        return sum(history_seats.get((player, position), 0) for position, player in enumerate(order))

    return min(itertools.permutations(players), key=cost)


def _swiss_pods(
    entrants: Sequence[str],
    history: _History,
    round: int,
    pod: int,
    min_pod: int | None,
    ratings: Mapping[str, float] | None,
) -> Pairing:
    order = _rank_order(entrants, history, ratings)
    sizes = _table_sizes(len(order), pod, min_pod)
    byes = _pod_byes(order, len(order) - sum(sizes), history)
    seated = [player for player in order if player not in byes]
    pods: list[list[str]] = []
    for size in sizes:
        pods.append(seated[:size])
        seated = seated[size:]
    pods = _improve_pods(pods, history)
    tables = tuple(rotate_seats(table, history.seat_counts) for table in pods)
    return Pairing(round, tables, tuple(byes))


def pair_swiss(
    entrants: Sequence[str],
    played: Sequence[Played],
    byes: Sequence[Bye],
    *,
    round: int,
    pod: int = 2,
    min_pod: int | None = None,
    ratings: Mapping[str, float] | None = None,
) -> Pairing:
    """One Swiss round for the players still in (``entrants``, sign-up order); see the module's docstring.

    ``pod`` is the table size; ``min_pod`` the smallest table the game allows when the count does not divide
    (None: only full tables, the others get byes).

    >>> pair_swiss(["ann", "bob", "cy", "dee", "eve"], [], [], round=1)
    Pairing(round=1, tables=(('ann', 'cy'), ('bob', 'dee')), byes=('eve',))
    >>> history = [Played(1, ("ann", "cy"), (1.0, 0.0)), Played(1, ("bob", "dee"), (0.0, 1.0))]
    >>> pair_swiss(["ann", "bob", "cy", "dee", "eve"], history, [Bye(1, "eve")], round=2)
    Pairing(round=2, tables=(('dee', 'ann'), ('eve', 'bob')), byes=('cy',))
    """
    if pod < 2:
        raise ValueError(f"A table seats at least 2 players, not {pod}.")
    if len(set(entrants)) != len(entrants):
        raise ValueError("An entrant is listed twice.")
    history = _history(played, byes)
    if pod == 2:
        return _swiss_two(entrants, history, round, ratings)
    return _swiss_pods(entrants, history, round, pod, min_pod, ratings)


# --------------------------------------------------------------------------------------------------------------
# round robin


def round_robin_rounds(count: int) -> int:
    """Rounds for every pair of ``count`` players to meet once: n - 1 when even, n when odd (a bye each).

    >>> round_robin_rounds(6), round_robin_rounds(7), round_robin_rounds(1)
    (5, 7, 0)
    """
    if count < 2:
        return 0
    return count - 1 if count % 2 == 0 else count


def round_robin(entrants: Sequence[str], round: int, *, pod: int = 2) -> Pairing:
    """Round ``round`` (1-based) of the Berger tables for ``entrants`` in sign-up order.

    The circle method with the last player fixed: in round r the last player meets player
    ((r - 1) * n/2 mod (n - 1)) + 1, seated second in odd rounds and first in even ones, and the other tables
    pair the players either side of that one. An odd count adds a dummy last player: who meets it has the bye.
    Rounds past :func:`round_robin_rounds` start a second cycle with the seats swapped (a double round robin).

    >>> round_robin(["p1", "p2", "p3", "p4", "p5", "p6"], 2)
    Pairing(round=2, tables=(('p6', 'p4'), ('p5', 'p3'), ('p1', 'p2')), byes=())
    >>> round_robin(["a", "b", "c"], 1)
    Pairing(round=1, tables=(('b', 'c'),), byes=('a',))
    """
    if pod != 2:
        raise ValueError("Round robin pairs two-player games only; play a game of 3 or more seats as Swiss.")
    if round < 1:
        raise ValueError(f"Rounds are numbered from 1, not {round}.")
    players: list[str | None] = list(entrants) + ([None] if len(entrants) % 2 else [])
    if len(players) < 2:
        return Pairing(round, (), tuple(entrants))
    rounds_per_cycle = len(players) - 1
    cycle, in_cycle = divmod(round - 1, rounds_per_cycle)
    circle = len(players) - 1
    opposite = (in_cycle * (len(players) // 2)) % circle
    boards = [(opposite, circle) if in_cycle % 2 == 0 else (circle, opposite)]
    for board in range(1, len(players) // 2):
        boards.append(((opposite + board) % circle, (opposite - board) % circle))
    if cycle % 2:
        boards = [(second, first) for first, second in boards]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for first, second in boards:
        a, b = players[first], players[second]
        if a is None or b is None:
            byes.extend(player for player in (a, b) if player is not None)
        else:
            tables.append((a, b))
    return Pairing(round, tuple(tables), tuple(byes))


# --------------------------------------------------------------------------------------------------------------
# single elimination


def _seed_order(entrants: Sequence[str], ratings: Mapping[str, float] | None) -> list[str]:
    """Seeds best first: by rating when given (ties and no ratings: sign-up order)."""
    rating = ratings or {}
    signup = {player: index for index, player in enumerate(entrants)}
    return sorted(entrants, key=lambda player: (-rating.get(player, 0.0), signup[player]))


def elimination_remaining(
    entrants: Sequence[str], played: Sequence[Played], ratings: Mapping[str, float] | None = None
) -> list[str]:
    """The entrants not yet knocked out, best seed first.

    A game's advancer is the seat that scored the most in it; on a shared win or a draw, the better seed
    (the fairest rule that needs no extra game: seeding is the tournament's own judgement of strength). Every
    other seat of the game is out.

    >>> elimination_remaining(["a", "b", "c"], [Played(1, ("b", "c"), (0.5, 0.5))])
    ['a', 'b']
    """
    seeds = _seed_order(entrants, ratings)
    seed = {player: index for index, player in enumerate(seeds)}
    out: set[str] = set()
    for game in played:
        advancer = min(
            zip(game.seats, game.points, strict=True),
            key=lambda seat: (-seat[1], seed.get(seat[0], len(seeds))),
        )[0]
        out.update(player for player in game.seats if player != advancer)
    return [player for player in seeds if player not in out]


def _elimination_pods(remaining: Sequence[str], round: int, pod: int) -> Pairing:
    """Pods of ``pod`` in snake order of seeds; the top seeds beyond a multiple of ``pod`` get byes."""
    if len(remaining) <= pod:
        return Pairing(round, (tuple(remaining),), ())
    bye_count = len(remaining) % pod
    byes, seated = list(remaining[:bye_count]), list(remaining[bye_count:])
    pods: list[list[str]] = [[] for _ in range(len(seated) // pod)]
    for index, player in enumerate(seated):
        lap, place = divmod(index, len(pods))
        pods[place if lap % 2 == 0 else len(pods) - 1 - place].append(player)
    return Pairing(round, tuple(tuple(table) for table in pods), tuple(byes))


def pair_elimination(
    entrants: Sequence[str],
    played: Sequence[Played],
    *,
    round: int,
    pod: int = 2,
    ratings: Mapping[str, float] | None = None,
) -> Pairing:
    """A single-elimination round: the players not knocked out, reseeded (best against worst).

    Seeds come from ``ratings`` (pass the ratings at the league's start every round, so seeds do not move)
    else sign-up order. Two-player games: the top seeds get byes up to the next power of two, the others meet
    1 against last, 2 against last but one..., the better seed seated first in round 1, later the one who
    moved first less often. Pods: the top seeds beyond a multiple of ``pod`` get byes, the others sit in pods
    in snake order, and a final of ``pod`` players or fewer is one table. No tables when one player remains
    (the champion, :func:`elimination_remaining`).

    >>> pair_elimination(["a", "b", "c", "d", "e", "f"], [], round=1)
    Pairing(round=1, tables=(('c', 'f'), ('d', 'e')), byes=('a', 'b'))
    >>> won = [Played(1, ("c", "f"), (0.0, 1.0)), Played(1, ("d", "e"), (1.0, 0.0))]
    >>> pair_elimination(["a", "b", "c", "d", "e", "f"], won, round=2)
    Pairing(round=2, tables=(('f', 'a'), ('b', 'd')), byes=())
    """
    remaining = elimination_remaining(entrants, played, ratings)
    if len(remaining) < 2:
        return Pairing(round, (), ())
    if pod > 2:
        return _elimination_pods(remaining, round, pod)
    size = 1 << (len(remaining) - 1).bit_length()
    bye_count = size - len(remaining)
    byes, playing = remaining[:bye_count], remaining[bye_count:]
    balance = _history(played, ()).balance
    tables = []
    for index in range(len(playing) // 2):
        better, worse = playing[index], playing[-1 - index]
        # the better seed moves first unless it has moved first more often
        if balance.get(better, 0) <= balance.get(worse, 0):
            tables.append((better, worse))
        else:
            tables.append((worse, better))
    return Pairing(round, tuple(tables), tuple(byes))


# --------------------------------------------------------------------------------------------------------------
# divisions


def divisions(entrants: Sequence[str], ratings: Mapping[str, float], size: int) -> list[list[str]]:
    """Entrants cut into divisions of ``size`` by rating (best first; unrated players last, in sign-up order).

    A remainder smaller than half a division joins the last division; a larger one stands alone.

    >>> divisions(list("abcdefgh"), {"h": 9.0, "a": 5.0}, 3)
    [['h', 'a', 'b'], ['c', 'd', 'e'], ['f', 'g']]
    >>> divisions(list("abcdefg"), {}, 3)
    [['a', 'b', 'c'], ['d', 'e', 'f', 'g']]
    """
    if size < 2:
        raise ValueError(f"A division holds at least 2 players, not {size}.")
    signup = {player: index for index, player in enumerate(entrants)}
    order = sorted(
        entrants,
        key=lambda player: (player not in ratings, -ratings.get(player, 0.0), signup[player]),
    )
    cut = [order[start : start + size] for start in range(0, len(order), size)]
    if len(cut) > 1 and len(cut[-1]) * 2 < size:
        cut[-2].extend(cut.pop())
    return cut


def promote_relegate(final_orders: Sequence[Sequence[str]], moves: int = 1) -> list[list[str]]:
    """Next season's divisions: the top ``moves`` of each division go up one, the bottom ``moves`` down one.

    ``final_orders`` are the divisions best first, each in its final order. A division moves at most half of
    its players each way, so nobody is both promoted and relegated. Each new division lists the relegated
    players first, then those who stayed, then the promoted, each group in its final order.

    >>> promote_relegate([["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]])
    [['a', 'b', 'd'], ['c', 'e', 'g'], ['f', 'h', 'i']]
    """
    count = len(final_orders)
    ups: list[list[str]] = []
    downs: list[list[str]] = []
    stays: list[list[str]] = []
    for index, order in enumerate(final_orders):
        limit = min(moves, len(order) // 2)
        up = list(order[:limit]) if index > 0 else []
        down = list(order[len(order) - limit :]) if index < count - 1 and limit else []
        ups.append(up)
        downs.append(down)
        stays.append([player for player in order if player not in up and player not in down])
    result = []
    for index in range(count):
        relegated = downs[index - 1] if index > 0 else []
        promoted = ups[index + 1] if index < count - 1 else []
        result.append(relegated + stays[index] + promoted)
    return result
