"""A player's own turn answered ahead (issue 47), through the fake Discord: in a 2-player PRINCIPES game (the seed
and the plans of ``test_answers_ahead``) alice seals her plan first, its Action I an Assembly that comes after
bob's Action I. With her seal, while bob still plans, she gets a private message offering that turn now (her
seal is kept out of the game until bob's is in: the offer is made from the game with it applied), with its first
step's answers as buttons; each click is kept, and its ephemeral answer brings the next step's buttons. An old
step's button and bob's forged copy of hers are refused; ``/ahead`` lists what she gave. When her turn comes,
her answers are given at the automatic pass's random moments and the log shows her moves; the rest of the turn
is asked as usual. Nobody else learns of the offer or the answers. A Polish player reads the offer, the answers
and ``/ahead`` in Polish.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from bot.hosting.live import ASK_LABEL
from bot.hosting.turns import read_step_slot
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_answers_ahead import Players, seeded_principes
from tests.e2e.test_forged_components import answer_of
from tests.e2e.test_languages import english_in

#: what alice reads when her Action I comes in sight as she seals her plan (``test_answers_ahead.ALICE_PLAN``)
OFFERED = "your Assembly (Action I) of the plan you sealed"
#: what PRINCIPES logs for her Assembly's answers, and her principality on this seed
ASSEMBLES = "Polonia Maior assembles"


def step_of(custom_id: str) -> tuple[str, int] | None:
    """(turn slot, step) a turn's button answers, from its custom_id (``pt:a:<game>:<seat>:<slot>:<action>``)."""
    parts = custom_id.split(":")
    return read_step_slot(unquote(parts[4])) if len(parts) > 5 and parts[1] == "a" else None


def turn_offer(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    """The user's private message offering the first step of a turn, if it came."""
    offers = [m for m in fake.dm_messages(user) if any(step_of(c) for c in m.custom_ids())]
    return offers[0] if offers else None


def answers(message: FakeMessage) -> list[str]:
    """A step's answers as labelled on its buttons, "ask me then" aside."""
    return [b["label"] for b in message.buttons() if b["custom_id"].rsplit(":", 1)[-1] != "ask"]


def steps_on(message: FakeMessage) -> set[tuple[str, int] | None]:
    return {step_of(custom_id) for custom_id in message.custom_ids()}


async def settle_timers(table: Table, times: int) -> None:
    """Past the automatic pass's random moment (20-120 s), ``times`` over: one answer given ahead each."""
    for _ in range(times):
        table.clock.advance(121)
        await table.running.timers.fire_once()
        await table.running.wait_idle()


async def offered_turn(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, locale: str = "en-US"
) -> tuple[Players, FakeMessage]:
    """The game played by /move until alice's turn offer comes: the players and the offer."""
    game_id, alice, bob = await seeded_principes(table, fake, monkeypatch, locale)
    players = Players(table, game_id, alice, bob)
    await players.play_until(lambda _user, _prompt: turn_offer(fake, alice) is not None)
    offer = turn_offer(fake, alice)
    assert offer is not None
    return players, offer


async def test_a_turn_is_offered_answered_step_by_step_and_given_in_turn(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, offer = await offered_turn(table, fake, monkeypatch)
    alice, bob, host = players.alice, players.bob, table.running.host
    # offered with her seal while bob still plans, to alice alone, by DM: her turn's first step and its answers
    bob_prompt = await players.open_prompt(bob)
    assert bob_prompt is not None and bob_prompt.kind == "plan"
    assert await players.open_prompt(alice) is None  # sealed: waiting for bob
    first_line, posed, explained = offer.content.split("\n")
    assert first_line == f"PRINCIPES #{players.game_id}, {OFFERED}."
    assert posed.startswith("Assembly: bring up to 3 units")
    assert explained.startswith("Answer it now, step by step (only you see it)")
    (step,) = steps_on(offer)  # every button of the offer answers the turn's first step
    assert step is not None and step[1] == 0 and offer.buttons()[-1]["label"] == ASK_LABEL
    slot = step[0]

    # a click keeps the answer; its answer, to alice only, brings the next step's buttons
    first = answers(offer)[0]
    record = await table.press(alice, offer, first)
    (reply,) = fake.replies(record)
    assert reply.ephemeral and reply.visible_to == alice.id
    assert reply.content.startswith(f"Answered ahead (only you see it): {first}.\n"), reply.content
    assert f"{OFFERED}.\nAssembly: bring up to 3 units" in reply.content  # the next step, not explained again
    assert "step by step" not in reply.content
    assert steps_on(reply) == {(slot, 1)}
    second = answers(reply)[-1]  # "Done": the last step the turn asks
    second_answer = answer_of(table, await table.press(alice, reply, second))
    assert second_answer.startswith(f"Answered ahead (only you see it): {second}.")
    assert "The rest of this turn is asked when it comes." in second_answer

    # the first message's buttons answer a step already answered; bob cannot use alice's buttons
    stale = answer_of(table, await table.press(alice, offer, answers(offer)[1]))
    assert "already answered" in stale
    forged = await fake.click_forged(bob, reply.button(second)["custom_id"])
    await table.settle(forged)
    assert "not for you" in answer_of(table, forged)
    listed = table.reply_text(await table.slash(alice, "ahead"))
    assert (
        f"{OFFERED} (only you see this).\nYour answers given ahead, in order:\n1. {first}\n2. {second}"
        in listed
    )

    # her turn: bob seals, the plans are revealed, bob performs his action; her two answers are given, one at
    # each automatic moment, then the log shows them and nothing is left to give
    seen = len(fake.dm_messages(alice))
    turn = await players.play_until(lambda user, _prompt: user is alice)
    assert turn.kind == "assembly"
    assert (await host.log(str(fake.general), 50)).count(ASSEMBLES) == 0
    notices = [m.content for m in fake.dm_messages(alice)[seen:] if "answers this in a moment" in m.content]
    assert len(notices) == 1 and f"Your answer given ahead answers this in a moment: {first} " in notices[0]
    await settle_timers(table, 2)
    told = [
        m.content
        for m in fake.dm_messages(alice)[seen:]
        if "answered by your answer given ahead" in m.content
    ]
    assert len(told) == 2 and first in told[0] and second in told[1], told
    assert not any("/orders" in text for text in told)  # nothing for the orders to change: it is used up
    log = await host.log(str(fake.general), 50)
    assert log.count(ASSEMBLES) == 1 and "Polonia Maior reveals Action I" in log
    events = [e for e in await host.store.events(players.game_id, 0) if e.user_id == str(alice.id)]
    clicked = [offer.button(first)["custom_id"], reply.button(second)["custom_id"]]
    assert [e.action for e in events[-2:]] == [unquote(custom_id.rsplit(":", 1)[-1]) for custom_id in clicked]
    assert await players.open_prompt(alice) is None  # "done" ended her Assembly: the game went on

    # nobody else learnt of the offer or of her answers
    elsewhere = [m.content for m in fake.channel_messages(fake.general)] + [
        m.content for m in fake.dm_messages(bob)
    ]
    for words in (
        OFFERED,
        "Answered ahead",
        "answered by your answer given ahead",
        "Your answers given ahead",
    ):
        assert not any(words in text for text in elsewhere), words
    assert not any(step_of(c) for m in fake.channel_messages(fake.general) for c in m.custom_ids())
    assert not table.running.unexpected_errors


async def test_a_polish_player_reads_the_offer_and_the_answers_in_polish(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, offer = await offered_turn(table, fake, monkeypatch, locale="pl")
    alice = players.alice
    first_line, posed, explained = offer.content.split("\n")
    assert first_line == f"PRINCIPES #{players.game_id}, twoja Akcja I (Zbiórka) z zapieczętowanego planu."
    assert posed.startswith("Zbiórka: sprowadź do 3 jednostek")
    assert explained.startswith("Odpowiedz już teraz, krok po kroku (widzisz to tylko ty)")
    assert offer.buttons()[-1]["label"] == "Zapytaj mnie wtedy"
    first = answers(offer)[0]
    assert first.startswith("Sprowadź ")
    (reply,) = fake.replies(await table.press(alice, offer, first))
    assert reply.content.startswith(f"Odpowiedź zawczasu (widzisz ją tylko ty): {first}.\n"), reply.content
    assert "Następny krok poniżej (albo /zawczasu)." in reply.content
    assert reply.buttons()[-1]["label"] == "Zapytaj mnie wtedy"
    listed = table.reply_text(await table.slash(alice, "ahead"))
    assert f"Twoje odpowiedzi zawczasu, po kolei:\n1. {first}\n" in listed
    seen = len(fake.dm_messages(alice))
    await players.play_until(lambda user, _prompt: user is alice)
    await settle_timers(table, 1)
    given = "\n".join(m.content for m in fake.dm_messages(alice)[seen:])
    assert f"wysłano twoją odpowiedź zawczasu (Zbiórka): {first}." in given
    read = [
        offer.content,
        reply.content,
        listed,
        given,
        *(b["label"] for b in [*offer.buttons(), *reply.buttons()]),
    ]
    assert not [english_in(text) for text in read if english_in(text)]
    assert not [text for text in read if re.search(r"\b(ahead|your|answer|step|turn|only you)\b", text, re.I)]
    assert not table.running.unexpected_errors
