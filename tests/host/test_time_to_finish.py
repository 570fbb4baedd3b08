"""/game status' time to finish against what actually remained (issue 47): whole 4-player PRINCIPES games played
through the host on an injected clock, three people and an AI seat. A person takes a while to come back to a
game (4 h median, log-normal with sigma 1: a quarter of the answers under 2 h, one in twenty-five past the 24 h
deadline, whose default answers then) and about a minute for each further decision in the same sitting; the AI
answers at once, and the standing orders (every person begins with the recommended ones, as a player who sets
nothing does; alice sets them again), the answers given ahead (bob answers every question asked ahead the moment
it comes) and the automatic pass answer at their random 20-120 s moment.

A table that has played before: at the start of Rounds 2 and 4 the estimate ("most likely ...") is within 35% of
the time the game then still took, in nine readings in ten. A new table on a server that has hosted the game: in
three readings in four. A server's first games: the range shown holds what remained in three readings in four
(the most likely value of a game with only its own pace to go by cannot be within 35% every time: see
``Queries._estimate``)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence

import pytest

from bench.bench_pace import TYPICAL_ORDERS
from bot.host import Host
from bot.hosting.turns import read_step_slot
from bot.models import AHEAD_KIND, Actor, Delivery, HostError
from rules.engine import State
from rules.engine.registry import register, unregister
from rules.engine.standing import ASK
from tests.conftest import ALICE, BOB, CAROL, MOD
from tests.support.games import SealedGuess

CHANNEL = "time-to-finish"
PEOPLE = (ALICE, BOB, CAROL)
MEDIAN_S = 4 * 3600.0
SIGMA = 1.0
SITTING_S = 60.0
MAX_STEPS = 20_000
TOLERANCE = 0.35
UNITS = {"min": 60.0, "h": 3600.0, "days": 86400.0}


def _seconds(text: str) -> float:
    number, unit = text.split()
    return float(number) * UNITS[unit]


def _read(status: str) -> tuple[float, str]:
    """The estimate's "most likely" value in seconds, and the whole line."""
    line = next(line for line in status.splitlines() if line.startswith("Time to finish"))
    found = re.search(r"most likely (\d+ (?:min|h|days))", line)
    assert found, line
    return _seconds(found.group(1)), line


async def _answer_ahead(host: Host, game_id: int, keen: Actor, deliveries: list[Delivery]) -> None:
    """``keen`` (bob) answers every question asked ahead the moment it comes (its first answer), a turn offered
    ahead step after step as each answer's reply brings the next (``Host.turn_step_prompt``)."""
    for delivery in deliveries:
        prompt = delivery.prompt
        while prompt is not None and delivery.user_id == keen.user_id and prompt.kind == AHEAD_KIND:
            answers = [choice.action for choice in prompt.choices if choice.action != ASK]
            try:
                await host.answer_ahead_slot(game_id, keen, prompt.decision_id, answers[0])
            except (HostError, IndexError):  # the slot may have come and gone since the offer
                break
            stepped = read_step_slot(prompt.decision_id) is not None
            prompt = await host.turn_step_prompt(game_id, keen) if stepped else None


#: a reading of the time to finish: the moment its Round started, the estimate then, the line
Reading = tuple[float, float, str]


async def _play(
    host: Host, clock, seed: int, people: Sequence[Actor] = PEOPLE, guild: str = "g"
) -> tuple[dict[int, Reading], float]:
    """One whole game of ``people`` (alice, bob and carol's parts) and an AI seat in ``CHANNEL`` of server
    ``guild``; returns its readings per Round from the second, and the moment the game ended."""
    rng = random.Random(seed)
    host.autopass_rng.seed(seed)
    creator = people[0]
    # card windows as long as the 24 h deadline (their default, 2 h, would hand these slow players to the AI)
    info = await host.create_game(guild, CHANNEL, creator, "principes", {"window": "24"}, seed=seed)
    for player in people[1:]:
        await host.join(CHANNEL, player)
    await host.add_ai(CHANNEL, creator, "basic")
    deliveries = await host.start(CHANNEL, creator, order="given")
    game_id = info.game_id
    for topic, order in TYPICAL_ORDERS["principes"].items():
        await host.set_order(CHANNEL, creator, topic, order.choice, ",".join(order.names))
    by_user = {player.user_id: player for player in people}
    #: seat -> (decision id, the moment its player answers it)
    planned: dict[int, tuple[str, float]] = {}
    acted_at: dict[int, float] = {}
    estimates: dict[int, Reading] = {}
    for _ in range(MAX_STEPS):
        await _answer_ahead(host, game_id, people[1], deliveries)
        live = await host.games.load(game_id)
        if live.row["status"] != "active":
            return estimates, clock.now
        round_no = live.state.get("round", 0)
        if round_no >= 2 and round_no not in estimates:
            estimate, line = _read(await host.status(CHANNEL))
            estimates[round_no] = (clock.now, estimate, line)
        pending = live.game.pending(live.state)
        sealed = await host.games.sealed_for(live)
        for seat, decision in pending.items():
            if live.seats[seat].is_ai or seat in sealed or planned.get(seat, ("",))[0] == decision.id:
                continue
            sitting = acted_at.get(seat) == clock.now  # asked again the moment it answered: still there
            typical = SITTING_S if sitting else MEDIAN_S
            planned[seat] = (decision.id, clock.now + typical * math.exp(rng.gauss(0, SIGMA)))
        planned = {
            seat: (decision_id, when)
            for seat, (decision_id, when) in planned.items()
            if seat in pending and pending[seat].id == decision_id and seat not in sealed
        }
        due = await host.next_timer_due()
        first = min(planned, key=lambda s: planned[s][1], default=None)
        if first is not None and (due is None or planned[first][1] < due):
            seat = first
            decision_id, clock.now = planned.pop(seat)
            legal = live.game.legal_actions(live.state, seat)
            action = live.game.choose_action(
                live.game.view(live.state, seat), seat, legal, "basic", random.Random(rng.random())
            )
            player = by_user[live.seats[seat].user_id or ""]
            deliveries = await host.act(game_id, player, action, decision_id)
            acted_at[seat] = clock.now
            continue
        assert due is not None, "the game waits with no timer and nobody to answer"
        clock.now = max(clock.now, due)
        deliveries = await host.fire_due_timers()
    raise AssertionError(f"the game did not end in {MAX_STEPS} steps")


class DefaultedGuess(SealedGuess):
    """Sealed Guess whose deadline picks 1 for the seat."""

    key = "test-defaulted-guess"

    def on_deadline(self, state: State, seat: int) -> str | None:
        return "pick 1"


async def test_a_wait_that_ran_to_its_deadline_counts_as_long_as_it_lasted(host: Host, clock) -> None:
    """A deadline's default is no automatic answer: the game waited for the player until then. Round 1 asks both
    seats, alice answers in an hour and bob lets his 24 h pass; round 2 is answered within 3 h: two waits in 27 h,
    13.5 h per wait (leaving the expired wait out, it once said 2 h from alice's 1 h and the 3 h)."""
    hour = 3600.0
    register(DefaultedGuess())
    try:
        game_id = (await host.create_game("g", CHANNEL, ALICE, DefaultedGuess.key, {})).game_id
        await host.join(CHANNEL, BOB)
        await host.start(CHANNEL, ALICE, order="given")
        started = clock.now
        clock.advance(hour)
        await host.act(game_id, ALICE, "pick 1")
        clock.now = started + 24 * hour
        await host.fire_due_timers()  # bob's default picks 1 too: nobody scores, round 2 asks both again
        assert (await host.games.load(game_id)).state["round"] == 2
        clock.advance(hour)
        await host.act(game_id, ALICE, "pick 1")
        clock.advance(2 * hour)
        await host.act(game_id, BOB, "pick 1")
        line = _read(await host.status(CHANNEL))[1]
    finally:
        unregister(DefaultedGuess.key)
    assert "pace so far of 14 h per wait (median answer 3 h, 2 answers so far)" in line, line


class RoundedGuess(SealedGuess):
    """Sealed Guess whose rules tell the share played: its five Rounds."""

    key = "test-rounded-guess"

    def progress(self, state: State) -> float | None:
        return (min(state["round"], 6) - 1) / 5


async def _guess_game(host: Host, people: Sequence[Actor], guild: str = "g", channel: str = CHANNEL) -> int:
    """A game of Rounded Guess in which nobody ever scores (every seat picks 1), so that it lasts its five Rounds
    (``_guess_round``)."""
    game_id = (await host.create_game(guild, channel, people[0], RoundedGuess.key, {})).game_id
    await host.join(channel, people[1])
    await host.start(channel, people[0], order="given")
    return game_id


async def _guess_round(
    host: Host, clock, game_id: int, people: Sequence[Actor], hours: Sequence[float]
) -> None:
    """A Round: the first seat answers after ``hours[0]`` h, the second ``hours[1]`` h later."""
    for player, wait in zip(people, hours, strict=True):
        clock.advance(wait * 3600)
        await host.act(game_id, player, "pick 1")


async def test_a_table_s_earlier_games_of_the_same_game_tell_its_pace(host: Host, clock) -> None:
    """alice and bob finished two games at 10 h a Round (40 h from Round 2's start to the end); carol and the
    moderator one at 1 h a Round, which is not their table's. Their third game's Round 1 took 20 h: at Round 2 the
    estimate starts from the table's 40 h, this game's slower start weighing little yet (one wait against
    ``TABLE_WEIGHT``'s 45)."""
    register(RoundedGuess())
    try:
        await _server_s_games(host, clock)
        game_id = await _guess_game(host, (ALICE, BOB))
        await _guess_round(host, clock, game_id, (ALICE, BOB), (1, 19))
        line = _read(await host.status(CHANNEL))[1]
    finally:
        unregister(RoundedGuess.key)
    assert (
        "most likely 41 h (read at the start of this Round): from here this table's earlier games took 40 h (mean "
        "of 2), and this one got here in 200% of their time" in line
    ), line


async def _server_s_games(host: Host, clock) -> None:
    """Server "g" hosts three games of Rounded Guess: alice and bob's two at 10 h a Round, carol and the
    moderator's one at 1 h."""
    for people, hours in (((ALICE, BOB), (1, 9)), ((ALICE, BOB), (1, 9)), ((CAROL, MOD), (0.5, 0.5))):
        game_id = await _guess_game(host, people)
        for _ in range(5):
            await _guess_round(host, clock, game_id, people, hours)
        assert (await host.games.load(game_id)).row["status"] == "finished"


async def test_a_new_table_goes_by_its_server_s_earlier_games(host: Host, clock) -> None:
    """dave and erin, new to the game, take 20 h over each of their first two Rounds on server "g": at Round 3 the
    estimate starts from the server's three games (21 h from there on average: 30, 30 and 3 h; 14 h to there),
    their own slower start weighing as two waits against ``SERVER_WEIGHT``'s 15: 21 h times (40 / 14) ** (2 / 17),
    24 h. The same game on a server that has hosted none goes by its own pace alone."""
    newcomers = (Actor("700", "dave"), Actor("800", "erin"))
    register(RoundedGuess())
    try:
        await _server_s_games(host, clock)
        here = await _guess_game(host, newcomers)
        elsewhere = await _guess_game(host, newcomers, "g2", "elsewhere")
        for game_id in (here, elsewhere):
            for _ in range(2):
                await _guess_round(host, clock, game_id, newcomers, (1, 19))
        on_server = _read(await host.status(CHANNEL))[1]
        alone = _read(await host.status("elsewhere"))[1]
    finally:
        unregister(RoundedGuess.key)
    assert (
        "most likely 24 h (read at the start of this Round): from here this server's earlier games took 21 h (mean "
        "of 3), and this one got here in 286% of their time" in on_server
    ), on_server
    assert "earlier games" not in alone and "pace so far of 40 h per wait" in alone, alone


#: one table, alice, bob and carol with an AI seat, plays these games in a row on one host; the time to finish is
#: read from its fourth game on, when three earlier games or more tell the table's pace
TABLE_RUN = range(1, 14)
READ_FROM = 3
#: the share of a table's readings at each Round that must be within ``TOLERANCE``: nine in ten. Not every one:
#: what remains is itself a draw. Over 40 games of such a table (measured 2026-11-29: the README's Time to
#: finish), an estimate that knew the game's true number of waits to come and the simulated players' true mean
#: answer time was off by more than 35% in 2 readings of 40 at Round 2 and 4 at Round 4 (one game's last three
#: Rounds asked 19 waits where such games ask 31 on average); the estimate, with the table's earlier games, in 1
#: of 17 at each.
WITHIN_SHARE = 0.9


def _assert_within(readings: list[tuple[int, int, Reading, float]], share: float) -> None:
    """At the start of Rounds 2 and 4, at least ``share`` of the readings are within ``TOLERANCE`` of what
    remained."""
    for round_no in (2, 4):
        ratios = [
            (seed, estimate / (ended - at))
            for seed, read, (at, estimate, _line), ended in readings
            if read == round_no
        ]
        within = [seed for seed, ratio in ratios if abs(ratio - 1) <= TOLERANCE]
        assert len(within) >= share * len(ratios), (round_no, ratios)


async def _read_games(
    host: Host, clock, seeds: Sequence[int], cast: Callable[[int], tuple[Sequence[Actor], str]]
) -> list[tuple[int, int, Reading, float]]:
    """Play ``seeds`` in a row on ``host``, each by the people on the server ``cast(seed)`` gives; every reading
    as (seed, Round, reading, the moment its game ended), printed with its line."""
    readings = []
    for seed in seeds:
        estimates, ended = await _play(host, clock, seed, *cast(seed))
        assert {2, 4} <= set(estimates), estimates
        for round_no, reading in sorted(estimates.items()):
            at, estimate, line = reading
            print(
                f"seed {seed} Round {round_no}: ratio {estimate / (ended - at):.2f}, remained {(ended - at) / 86400:.1f} days\n  {line}"
            )
            readings.append((seed, round_no, reading, ended))
    return readings


@pytest.mark.whole_game
async def test_a_table_s_time_to_finish_is_within_35_percent_of_what_remained(
    host: Host, clock, backend: str
) -> None:
    """The same three people play game after game: from the fourth on, the estimate at the start of Rounds 2 and
    4 is within 35% of what remained in nine readings in ten at each (the table's earlier games tell its pace far
    better than one game's first Round can: see ``Queries._estimate``)."""
    if backend != "sqlite":
        pytest.skip("one backend is enough for whole games")
    readings = await _read_games(host, clock, TABLE_RUN, lambda seed: (PEOPLE, "g"))
    read = [reading for reading in readings if reading[0] >= TABLE_RUN[READ_FROM]]
    assert all("this table's earlier games took" in reading[2][2] for reading in read)
    _assert_within(read, WITHIN_SHARE)


def _strangers(seed: int) -> tuple[Actor, ...]:
    """Three people who have not played together before (none of them sat at another of the test's games)."""
    return tuple(Actor(f"{seed}{person.user_id}", person.name) for person in PEOPLE)


def _range(line: str) -> tuple[float, float]:
    """The estimate's range ("about ... to ...") in seconds."""
    found = re.search(r"about (\d+ (?:min|h|days)) to (\d+ (?:min|h|days))", line)
    assert found, line
    return _seconds(found.group(1)), _seconds(found.group(2))


@pytest.mark.whole_game
async def test_a_first_game_s_range_holds_what_remained(host: Host, clock, backend: str) -> None:
    """A server's first game of a game has only its own pace to go by: its most likely value is within 35% only
    about two times in three (the mean of some 13 heavy-tailed answer times is that uncertain), but the range it shows holds
    what remained, at Rounds 2 and 4, in at least three readings in four (it is drawn for four in five)."""
    if backend != "sqlite":
        pytest.skip("one backend is enough for whole games")
    readings = await _read_games(
        host, clock, TABLE_RUN[READ_FROM:], lambda seed: (_strangers(seed), f"g{seed}")
    )
    assert all("pace so far of" in reading[2][2] for reading in readings)
    for round_no in (2, 4):
        inside = [
            seed
            for seed, read, (at, _estimate, line), ended in readings
            if read == round_no and _range(line)[0] <= ended - at <= _range(line)[1]
        ]
        assert len(inside) >= 0.75 * len(TABLE_RUN[READ_FROM:]), (round_no, inside)


@pytest.mark.whole_game
async def test_a_new_table_on_a_server_that_has_hosted_the_game_is_read_from_its_games(
    host: Host, clock, backend: str
) -> None:
    """Three new people each game, on one server: from its fourth game on, the estimate starts from the server's
    earlier games (its own pace weighing more than a table's would, ``SERVER_WEIGHT``), and at the start of Rounds
    2 and 4 it is within 35% of what remained in at least three readings in four (over 20 such games, 16 of 17
    and 15 of 17; at Round 4 this game's own pace weighs three quarters, and a game's last Rounds vary)."""
    if backend != "sqlite":
        pytest.skip("one backend is enough for whole games")
    readings = await _read_games(host, clock, TABLE_RUN, lambda seed: (_strangers(seed), "g"))
    read = [reading for reading in readings if reading[0] >= TABLE_RUN[READ_FROM]]
    assert all("this server's earlier games took" in reading[2][2] for reading in read)
    _assert_within(read, 0.75)
