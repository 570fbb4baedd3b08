"""PRINCIPES decisions asked together (option ``together``, issue 47) through the host: every player is asked
at once and seals (commit and reveal, as a plan); a sealed answer reaches nobody else and changes nothing until
the last player has sealed; then the answers apply in turn order and the game replays from its seed and stored
actions."""

from __future__ import annotations

from bot.host import Host
from bot.models import Delivery
from rules.engine import Decision
from rules.principes.play.together import TOGETHER
from tests.conftest import ALICE, BOB

SEED = 1
MAX_STEPS = 400


async def _start(host: Host, channel: str) -> int:
    """A 2-player game at a table that chose option ``together`` (off by default)."""
    info = await host.create_game("g", channel, ALICE, "principes", {"together": "on"}, seed=SEED)
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


def _answer(kind: str, actions: list[str]) -> str:
    """The shortest way on: fixed plans, clockwise, else pass, done, keep or deny where offered."""
    if kind == "plan":
        return "plan assembly building politics"
    if kind == "direction":
        return "direction cw"
    return next((word for word in ("pass", "done", "keep", "deny") if word in actions), actions[0])


async def _until_together(host: Host, game_id: int) -> dict[int, Decision]:
    """Answer by the script until the game asks a decision of several players together."""
    for _ in range(MAX_STEPS):
        live = await host.games.load(game_id)
        sealed = await host.games.sealed_for(live)
        pending = live.game.pending(live.state)
        together = {s: d for s, d in pending.items() if d.id.startswith(TOGETHER)}
        if len(together) >= 2 and not sealed and pending[0].kind not in ("plan", "prince_choice"):
            return together
        seat, decision = next((s, d) for s, d in sorted(pending.items()) if s not in sealed)
        player = (ALICE, BOB)[seat]
        offered = await host.prompt_of(game_id, player.user_id)
        assert offered is not None
        action = _answer(decision.kind, [choice.action for choice in offered.choices])
        await host.act(game_id, player, action, decision.id)
    raise AssertionError(f"nothing asked together within {MAX_STEPS} decisions")


def _texts(deliveries: list[Delivery], user_id: str) -> list[str]:
    return [
        text
        for delivery in deliveries
        if delivery.user_id != user_id
        for text in [delivery.text, *([delivery.prompt.text] if delivery.prompt else [])]
    ]


async def test_a_decision_asked_together_is_sealed_shown_to_nobody_and_applied_when_all_have_sealed(
    host: Host,
) -> None:
    game_id = await _start(host, "together-1")
    together = await _until_together(host, game_id)
    assert set(together) == {0, 1} and len({d.id for d in together.values()}) == 1
    before = (await host.games.load(game_id)).state
    offered = await host.prompt_of(game_id, ALICE.user_id)
    assert offered is not None
    answer = next(c.action for c in offered.choices if c.action != "pass")  # something to hide
    delivered = await host.act(game_id, ALICE, answer, together[0].id)
    assert not [text for text in _texts(delivered, ALICE.user_id) if answer in text.lower()]
    live = await host.games.load(game_id)
    assert live.state == before  # sealed: nothing applied, and bob is still asked
    assert live.game.pending(live.state)[1].id == together[1].id
    bob = await host.prompt_of(game_id, BOB.user_id)
    assert bob is not None
    await host.act(
        game_id, BOB, "pass" if "pass" in [c.action for c in bob.choices] else bob.choices[0].action
    )
    live = await host.games.load(game_id)
    assert live.state != before  # revealed and applied, in turn order
    assert await host.replay_state(game_id) == live.state
