"""Answers given ahead with a click (issue 18), through the fake Discord: alice (Polonia Maior) seals a PRINCIPES
plan with Taxes and the DM that follows offers to answer the Taxes choice now; she clicks "Collect when your Taxes
action comes", and when her Taxes action comes the host collects for her at the auto-pass's random moment. At the
Round's end the Release to Home queue comes in sight: the DM that asks her ahead carries the answers as buttons,
and her click is given when her turn comes. A stale button and someone else's click are refused; nobody else
learns anything."""

from __future__ import annotations

from typing import Any

import pytest

from bot.host import Host
from bot.models import Prompt
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_forged_components import answer_of

SEED = 1  # the Round's end brings Urbanization, then Release to Home, asked in turn order
ORIGINAL_CREATE = Host.create_game
ALICE_PLAN = "plan assembly building taxes"
BOB_PLAN = "plan assembly building politics"
MAX_STEPS = 80
#: how /move's answer begins in the languages these tests play in
DONE = ("Done", "Zrobione")


async def _seeded_create(self: Host, *args: Any, **kwargs: Any) -> Any:
    return await ORIGINAL_CREATE(self, *args, **{**kwargs, "seed": SEED})


async def seeded_principes(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, alice_locale: str = "en-US"
) -> tuple[int, FakeUser, FakeUser]:
    """alice (her Discord client in ``alice_locale``) opens a 2-player PRINCIPES game on ``SEED``, bob joins,
    alice starts it (seats as joined): its id and the two players."""
    monkeypatch.setattr(Host, "create_game", _seeded_create)
    alice, bob = fake.add_user("alice", locale=alice_locale), fake.add_user("bob")
    lobby = fake.replies(await table.slash(alice, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    return game_id, alice, bob


def _script(prompt: Prompt, seat_plan: str) -> str:
    actions = [choice.action for choice in prompt.choices]
    if prompt.kind == "plan":
        return seat_plan
    if prompt.kind == "direction":
        return "direction cw"
    return next((word for word in ("pass", "done", "keep", "deny") if word in actions), actions[0])


def _offer(fake: FakeDiscord, user: FakeUser, words: str) -> FakeMessage:
    return [m for m in fake.dm_messages(user) if words in m.content and m.custom_ids()][-1]


class Players:
    def __init__(self, table: Table, game_id: int, alice: FakeUser, bob: FakeUser) -> None:
        self.table, self.game_id, self.alice, self.bob = table, game_id, alice, bob

    async def open_prompt(self, user: FakeUser) -> Prompt | None:
        host = self.table.running.host
        prompt = await host.prompt_of(self.game_id, str(user.id))
        if prompt is not None and prompt.sealed and await host.has_sealed(self.game_id, str(user.id)):
            return None  # sealed already: waiting for the other
        return prompt

    async def play_until(self, stop: Any) -> Prompt:
        """Answer by /move until ``stop(user, prompt)`` holds for a player's open decision (alice first)."""
        for _ in range(MAX_STEPS):
            for user, plan in ((self.alice, ALICE_PLAN), (self.bob, BOB_PLAN)):
                prompt = await self.open_prompt(user)
                if prompt is None:
                    continue
                if stop(user, prompt):
                    return prompt
                record = await self.table.slash(user, "move", notation=_script(prompt, plan))
                assert self.table.reply_text(record).startswith(DONE), self.table.reply_text(record)
                break
            else:
                raise AssertionError("nobody has a decision")
        raise AssertionError(f"no stop within {MAX_STEPS} decisions")


async def test_clicks_answer_ahead_the_plans_taxes_and_a_queued_turn(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, alice, bob = await seeded_principes(table, fake, monkeypatch)
    players = Players(table, game_id, alice, bob)
    host = table.running.host

    await players.play_until(lambda user, prompt: user is alice and prompt.kind == "plan")
    await table.slash(alice, "move", notation=ALICE_PLAN)
    offer = _offer(fake, alice, "your plan has your Taxes action (Action III)")
    assert {"Collect when your Taxes action comes", "Ask me then"} <= {b["label"] for b in offer.buttons()}
    # bob cannot use alice's button (a forged copy in his DMs)
    custom_id = offer.button("Collect when your Taxes action comes")["custom_id"]
    refused = await fake.click_forged(bob, custom_id)
    await table.settle(refused)
    assert "not for you" in answer_of(table, refused)
    answered = answer_of(table, await table.press(alice, offer, "Collect when your Taxes action comes"))
    assert answered.startswith("Answered ahead (only you see it)")
    assert fake.messages[offer.id].custom_ids()  # the buttons stay: another click changes the answer
    record = await table.slash(alice, "ahead")
    assert "Your answer given ahead: Collect when your Taxes action comes" in table.reply_text(record)
    (reply,) = fake.replies(record)  # /ahead's answer carries the same buttons: alice changes her mind twice
    assert reply.ephemeral and reply.visible_to == alice.id
    assert "you are asked when" in answer_of(table, await table.press(alice, reply, "Ask me then"))
    assert "No answer given ahead" in table.reply_text(await table.slash(alice, "ahead"))
    answer_of(table, await table.press(alice, reply, "Collect when your Taxes action comes"))

    taxes = await players.play_until(lambda user, prompt: user is alice and prompt.kind == "taxes")
    assert not any("collects" in line for line in (await host.log(str(fake.general), 5)).splitlines()[-1:])
    table.clock.advance(121)
    await table.running.timers.fire_once()
    await table.running.wait_idle()
    after = await host.prompt_of(game_id, str(alice.id))
    assert after is None or after.decision_id != taxes.decision_id
    assert "Polonia Maior collects" in await host.log(str(fake.general), 30)
    assert any("answered by your answer given ahead" in m.content for m in fake.dm_messages(alice))
    stale = answer_of(table, await table.press(alice, offer, "Ask me then"))
    assert "no longer upcoming" in stale

    # the Round's end: Urbanization, then Release to Home, asked in turn order; alice is asked ahead, with a
    # select (many answers: the first 24 and "ask me then") or buttons (a few)
    await players.play_until(lambda user, prompt: user is bob and prompt.kind == "release")
    (select,) = _offer(fake, alice, "coming to you after the players before you: Urbanization").selects()
    assert len(select["options"]) == 25 and select["options"][-1]["value"] == "ask"
    release = _offer(fake, alice, "coming to you after the players before you: Release")
    labels = [b["label"] for b in release.buttons()]
    assert labels[-1] == "Ask me then" and len(labels) >= 2
    chosen = labels[0]
    answered = answer_of(table, await table.press(alice, release, chosen))
    assert answered.startswith("Answered ahead") and chosen in answered
    bob_prompt = await players.open_prompt(bob)
    assert bob_prompt is not None
    await table.slash(bob, "move", notation=_script(bob_prompt, BOB_PLAN))
    table.clock.advance(121)
    await table.running.timers.fire_once()
    await table.running.wait_idle()
    told = [m.content for m in fake.dm_messages(alice) if "answered by your answer given ahead" in m.content]
    assert len(told) == 2 and chosen in told[-1], told

    # nobody but alice learns of her answers, or of her offers
    elsewhere = [m.content for m in fake.channel_messages(fake.general)] + [
        m.content for m in fake.dm_messages(bob)
    ]
    assert not any("ahead" in text.lower() and "alice" in text.lower() for text in elsewhere)
    assert not any("Collect when" in text or "your Taxes action" in text for text in elsewhere)
    assert not table.running.unexpected_errors
