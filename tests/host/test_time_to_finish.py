"""/game status' time to finish against what actually remained (issue 47): whole 4-player PRINCIPES games played
through the host on an injected clock, three people and an AI seat. A person takes a while to come back to a
game (4 h median, log-normal with sigma 1: a quarter of the answers under 2 h, one in twenty-five past the 24 h
deadline, whose default answers then) and about a minute for each further decision in the same sitting; the AI
answers at once, and the standing orders (every person begins with the recommended ones, as a player who sets
nothing does; alice sets them again), the answers given ahead (bob answers every question asked ahead the moment
it comes) and the automatic pass answer at their random 20-120 s moment.
At the start of Rounds 2 and 4 the estimate ("most likely ...") must be within 35% of the time the game then
still took."""

from __future__ import annotations

import math
import random
import re

import pytest

from bench.bench_pace import TYPICAL_ORDERS
from bot.host import Host
from bot.hosting.turns import read_step_slot
from bot.models import AHEAD_KIND, Delivery, HostError
from rules.engine import State
from rules.engine.registry import register, unregister
from rules.engine.standing import ASK
from tests.conftest import ALICE, BOB, CAROL
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


async def _answer_ahead(host: Host, game_id: int, deliveries: list[Delivery]) -> None:
    """Bob answers every question asked ahead the moment it comes (its first answer), a turn offered ahead step
    after step as each answer's reply brings the next (``Host.turn_step_prompt``)."""
    for delivery in deliveries:
        prompt = delivery.prompt
        while prompt is not None and delivery.user_id == BOB.user_id and prompt.kind == AHEAD_KIND:
            answers = [choice.action for choice in prompt.choices if choice.action != ASK]
            try:
                await host.answer_ahead_slot(game_id, BOB, prompt.decision_id, answers[0])
            except (HostError, IndexError):  # the slot may have come and gone since the offer
                break
            stepped = read_step_slot(prompt.decision_id) is not None
            prompt = await host.turn_step_prompt(game_id, BOB) if stepped else None


async def _play(host: Host, clock, seed: int) -> tuple[dict[int, tuple[float, float, str]], float]:
    """One whole game; returns, per Round 2 and 4, (the moment it started, the estimate then, the line), and the
    moment the game ended."""
    rng = random.Random(seed)
    host.autopass_rng.seed(seed)
    # card windows as long as the 24 h deadline (their default, 2 h, would hand these slow players to the AI)
    info = await host.create_game("g", CHANNEL, ALICE, "principes", {"window": "24"}, seed=seed)
    for player in PEOPLE[1:]:
        await host.join(CHANNEL, player)
    await host.add_ai(CHANNEL, ALICE, "basic")
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    game_id = info.game_id
    for topic, order in TYPICAL_ORDERS["principes"].items():
        await host.set_order(CHANNEL, ALICE, topic, order.choice, ",".join(order.names))
    by_user = {player.user_id: player for player in PEOPLE}
    #: seat -> (decision id, the moment its player answers it)
    planned: dict[int, tuple[str, float]] = {}
    acted_at: dict[int, float] = {}
    estimates: dict[int, tuple[float, float, str]] = {}
    for _ in range(MAX_STEPS):
        await _answer_ahead(host, game_id, deliveries)
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
    seats, alice answers in an hour and bob lets his 24 h pass; round 2 is answered within 3 h: two waits of 24 h
    and 3 h, a mean of 13.5 h (leaving the expired wait out, it said 2 h from alice's 1 h and the 3 h)."""
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
    assert "mean answer time of 14 h (median 3 h, 2 answers so far)" in line, line


def _misses(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=reason)


#: the first six seeds; four miss at the tree of 2026-11-29's twelfth session (7 of the 12 readings within 35%). Each
#: reason gives the reading's ratio of the estimate to what remained. The players who set nothing (carol, and bob
#: but for his answers ahead) now begin with the recommended orders, as every table does, and bob answers whole
#: turns ahead, his actions from the moment he seals his plan. Measured by component (seeds 1-6, at Round 2): the
#: waits to come were 0.9-2.3 times those that came (this table's later Rounds hold fewer waits against its first
#: than the self-played Round profile says, 1.9-4.8 times Round 1's against 4.2), and the mean answer time from
#: 10-15 answers 0.6-1.5 times the later one; the two partly cancel. The profile is self-played with the orders a
#: table that sets nothing holds; a profile self-played as this table plays (its AI seat, its orders, who answers
#: ahead) was tried earlier and moved the worst reading from 1.81 to 1.70 only.
SEEDS = [
    pytest.param(1, marks=_misses("Round 2: 1.00, Round 4: 1.81")),
    pytest.param(2, marks=_misses("Round 2: 1.47, Round 4: 1.41")),
    pytest.param(3, marks=_misses("Round 2: 0.83, Round 4: 0.59")),
    4,
    5,
    pytest.param(6, marks=_misses("Round 2: 1.44, Round 4: 1.12")),
]


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", SEEDS)
async def test_time_to_finish_is_within_35_percent_of_what_remained(
    host: Host, clock, seed: int, backend: str
) -> None:
    if backend != "sqlite":
        pytest.skip("one backend is enough for whole games")
    estimates, ended = await _play(host, clock, seed)
    assert {2, 4} <= set(estimates), estimates
    for round_no, (at, estimate, line) in sorted(estimates.items()):
        remained = ended - at
        print(
            f"seed {seed} Round {round_no}: estimate {estimate / 86400:.1f} days, remained "
            f"{remained / 86400:.1f} days, ratio {estimate / remained:.2f}\n  {line}"
        )
    for round_no in (2, 4):
        at, estimate, line = estimates[round_no]
        remained = ended - at
        assert abs(estimate / remained - 1) <= TOLERANCE, (round_no, estimate / 86400, remained / 86400, line)
