"""Issue 43: nothing English reaches a reader of another language, by any path, through the real discord.py client.

Every user's client here speaks the pseudo-locale ``qps`` and the server's public language is ``qps`` too, so
every piece of text the bot shows anyone must have passed through the catalogs: ``qps`` wraps each translated
literal in ``⟦…⟧`` and ``unmarked_words`` lists the English left outside. The fake Discord records everything
shown (``FakeDiscord.shown``: each message as posted and as edited, its embeds, button labels, select
placeholders, options and their descriptions, attachments' file names and alt text, autocomplete answers, thread
names), and one check reads it all: a full Babylone game played in a thread to its end, with the lobby, closed DMs
and their fallback button, ``/settings``, ``/away``, ``/catchup``, ``/game status``, ``/mygames``, ``/help`` and
``/rules`` of every game; and PRINCIPES' first Round with its DM forms, ``/orders`` and ``/ahead``.

What may stay as it is: players' names, the games' titles (proper names), the notation a player types (inside
backticks, as every message sets it), and the map's Latin land names (PRINCIPES: they are Latin in every
language). Anything else a reader sees is a failure, listed with where it stood.
"""

from __future__ import annotations

import pytest

from bot.host import Host
from bot.models import Prompt
from rules.engine.registry import available_games
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, Shown
from tests.e2e.reading import latin_names, lobby_button, report, speak_pseudo, unlocalised


async def open_hand_from_the_fallback(table: Table, user: FakeUser, channel_id: int) -> None:
    """Press the "Open my hand" button of the channel's latest fallback (posted for a player whose DMs are closed)."""
    fallback = [
        m
        for m in table.fake.channel_messages(channel_id)
        if any(i.startswith("pt:h:") for i in m.custom_ids())
    ]
    assert fallback, "no closed-DM fallback in the channel"
    await table.click(user, fallback[-1], next(i for i in fallback[-1].custom_ids() if i.startswith("pt:h:")))


async def test_a_babylone_game_in_a_thread_reads_only_the_pseudo_locale(
    table: Table, fake: FakeDiscord
) -> None:
    ola, jan = await speak_pseudo(table, fake, "ola", "jan")
    host = table.running.host
    for user in (ola, jan):
        await table.slash(user, "settings")
        await table.slash(user, "settings", turn_dms="on")
        await table.slash(user, "help")
    await table.slash(ola, "mygames")
    await table.slash(ola, "rules")
    for key in available_games():
        await table.slash(ola, "rules", game=key)
        await fake.autocomplete(ola, "rules", "section", game=key)
        for section, _title in host.rules_sections(key):
            await table.slash(ola, "rules", game=key, section=section)
    await fake.autocomplete(ola, "game new", "game")

    record = await table.slash(ola, "game new", game="babylone", thread=True)
    thread = next(c for c in fake.channels.values() if c["type"] == 11)
    thread_id = int(thread["id"])
    lobby = fake.channel_messages(thread_id)[0]
    await table.click(jan, lobby, lobby_button(lobby, "join"))
    await table.click(jan, lobby, lobby_button(lobby, "leave"))
    await table.click(jan, lobby, lobby_button(lobby, "join"))
    await fake.autocomplete(ola, "game ai", "level", thread_id)
    await table.slash(ola, "game ai", thread_id, level="random")
    await table.slash(ola, "mygames")
    await table.click(ola, fake.messages[lobby.id], lobby_button(lobby, "start"))
    fake.close_dms(jan)
    game_id = (await host.game_in_channel(str(thread_id))).game_id

    moves = 0
    while (await host.game_info(game_id)).status == "active" and moves < 200:
        asked = [user for user in (ola, jan) if await host.prompt_of(game_id, str(user.id))]
        assert asked, "nobody is asked to move"
        player = asked[0]
        if moves == 4:  # the player whose DMs are closed opens their hand from the channel's fallback
            await open_hand_from_the_fallback(table, jan, thread_id)
            for command in ("game status", "catchup", "mygames", "board", "log"):
                await table.slash(player, command, thread_id)
            await table.slash(player, "move", thread_id, notation="13>2")  # a refusal
            await table.slash(player, "away until", date="2030-03-20")
            await table.slash(player, "away off")
        choices = await fake.autocomplete(player, "move", "notation", thread_id)
        await table.slash(player, "move", thread_id, notation=choices[0]["value"])
        moves += 1
    assert (await host.game_info(game_id)).status not in ("lobby", "active"), "the game did not end"
    await table.slash(ola, "game status", thread_id)
    await table.slash(ola, "stats")
    replay = fake.replies(await table.slash(ola, "game replay", thread_id, game=game_id))
    step = next((i for i in replay[-1].custom_ids() if i.startswith("pt:r:")), None)
    assert step, [m.text() for m in replay]
    await table.click(ola, replay[-1], step)

    allowed = {"ola", "jan"}
    found = unlocalised(fake.shown, allowed)
    assert record and not found, report(found)


async def _seeded_create(self: Host, *args: object, **kwargs: object) -> object:
    return await ORIGINAL_CREATE(self, *args, **{**kwargs, "seed": 9})  # type: ignore[arg-type]


ORIGINAL_CREATE = Host.create_game
PASSING = ("pass", "done", "keep", "deny")


async def seal_plan_with_the_form(table: Table, user: FakeUser, form: FakeMessage) -> None:
    """Pick the first action offered three times on the plan's DM form, then seal it."""
    fake = table.fake
    for _pick in range(3):
        form = fake.messages[form.id]
        select = next(s for s in form.selects() if s["custom_id"].startswith("pt:g:"))
        await table.click(user, form, select["custom_id"], [select["options"][0]["value"]])
    form = fake.messages[form.id]
    await table.click(
        user, form, next(i for i in form.custom_ids() if i.startswith("pt:f:") and ":seal:" in i)
    )


async def answer_by_dm(table: Table, user: FakeUser, prompt: Prompt) -> None:
    """The player's answer: the plan through its DM form, a passing answer by its DM button when there is one,
    else by ``/move`` (the turn order clockwise; otherwise pass or the first choice)."""
    forms = [m for m in table.fake.dm_messages(user) if m.custom_ids()]
    latest = forms[-1] if forms else None
    ids = latest.custom_ids() if latest is not None else []
    if latest is not None and prompt.kind == "plan" and any(i.startswith("pt:g:") for i in ids):
        await seal_plan_with_the_form(table, user, latest)
        return
    passing = [i for i in ids if i.startswith("pt:c:") and i.rsplit(":", 1)[-1] in PASSING]
    if latest is not None and passing:
        await table.click(user, latest, passing[0])
        return
    actions = [choice.action for choice in prompt.choices]
    move = "direction cw" if prompt.kind == "direction" else next((w for w in PASSING if w in actions), None)
    await table.slash(user, "move", notation=move or actions[0])


async def answer_ahead_once(table: Table, user: FakeUser, done: set[int]) -> None:
    """Click the first answer a DM offers ahead (each offer once)."""
    for message in table.fake.dm_messages(user):
        ahead = [i for i in message.custom_ids() if i.startswith("pt:a:")]
        if ahead and message.id not in done:
            done.add(message.id)
            await table.click(user, message, ahead[0])
            return


async def set_and_clear_an_order(table: Table, user: FakeUser) -> None:
    """``/orders`` through its autocomplete: a topic, one of its choices, a refusal, then back to asking."""
    fake = table.fake
    topic = str((await fake.autocomplete(user, "orders", "topic"))[0]["value"])
    choice = str((await fake.autocomplete(user, "orders", "choice", topic=topic))[-1]["value"])
    await table.slash(user, "orders", topic=topic, choice=choice)
    await table.slash(user, "orders", topic=topic)  # refused: no choice given
    await table.slash(user, "orders", topic=topic, choice="ask")


async def test_a_principes_round_with_its_dm_forms_reads_only_the_pseudo_locale(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Host, "create_game", _seeded_create)
    ola, jan = await speak_pseudo(table, fake, "ola", "jan")
    host = table.running.host
    for user in (ola, jan):
        await table.slash(user, "settings", turn_dms="on")
    lobby = fake.replies(await table.slash(ola, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(jan, "game join")
    await table.slash(ola, "game start", order="given")
    for user, command in ((ola, "orders"), (jan, "ahead"), (ola, "hand")):
        assert table.reply_text(await table.slash(user, command))
    await set_and_clear_an_order(table, ola)

    notation: set[str] = set()
    offered: set[int] = set()
    for _ in range(300):
        if "Round 1 ends." in await host.log(str(fake.general), 500):
            break
        prompts = [(user, await host.prompt_of(game_id, str(user.id))) for user in (ola, jan)]
        assert any(prompt for _user, prompt in prompts), "nobody is asked anything before the Round ends"
        for user, prompt in prompts:
            if prompt is None:
                await answer_ahead_once(table, user, offered)
                continue
            notation.update(choice.action for choice in prompt.choices)
            await answer_by_dm(table, user, prompt)
    else:
        raise AssertionError("the first Round did not end")
    for user in (ola, jan):
        for command in ("catchup", "game status", "orders", "ahead"):
            await table.slash(user, command)

    allowed = {"ola", "jan", *latin_names()}
    found = unlocalised(fake.shown, allowed, notation)
    assert not found, report(found)


def test_the_check_finds_english_and_passes_marked_text() -> None:
    """The reader's check itself: English outside the markers is found, marked text, names, notation pass."""
    shown = [
        Shown(1, None, (("content", "⟦Done: ⟧`5>9`⟦.⟧"), ("button", "⟦Join⟧"), ("alt", "ola ⟦moves⟧"))),
        Shown(1, 2, (("content", "The game starts."),)),
    ]
    found = unlocalised(shown, {"ola"})
    assert [(where, words) for where, _text, words in found] == [("content", ["The", "game", "starts"])]
