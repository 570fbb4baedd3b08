"""Discord's contract in the fake Discord: what real Discord refuses, the fake refuses (``discord_contract``).

Bodies just outside a limit are sent with plain aiohttp to the running fake and get Discord's 400 with the field
at fault nested in the error body, and are not applied; the same bodies just inside the limit pass. The command
list the bot syncs (built as ``bot/discord/app.py`` builds it, with its translator: English names and
descriptions with their Polish localisations in one payload) is within the contract.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from bot.discord.common import MAX_GAME_ID
from i18n import DEFAULT, LANGUAGES
from tests.e2e import discord_contract, fake_discord
from tests.e2e.conftest import FIRST_RESPONSE_LIMIT_S, Table, teardown_problems
from tests.e2e.discord_contract import Refusal, contract
from tests.e2e.fake_discord import FakeDiscord, InteractionRecord
from tests.support.commands import synced_commands

JSON = dict[str, Any]
INT53 = 2**53 - 1


async def send(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as session:
        async with session.request(method, f"{fake.rest_base}/{path}", json=body) as response:
            return response.status, await response.json(content_type=None)


async def send_multipart(fake: FakeDiscord, path: str, body: JSON) -> tuple[int, Any]:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG fake", filename="board.png", content_type="image/png")
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{fake.rest_base}/{path}", data=form) as response:
            return response.status, await response.json(content_type=None)


def errors_at(answer: Any, *where: str | int) -> list[JSON]:
    """The ``_errors`` Discord's error body nests under ``where``."""
    node = answer["errors"]
    for key in where:
        node = node[str(key)]
    return list(node["_errors"])


def commands_path(fake: FakeDiscord) -> str:
    return f"applications/{fake.app_id}/guilds/{fake.guild_id}/commands"


def game_command(max_value: int) -> list[JSON]:
    return [
        {
            "type": 1,
            "name": "game",
            "description": "Play a game",
            "options": [
                {
                    "type": 4,
                    "name": "number",
                    "description": "The game's number",
                    "min_value": 1,
                    "max_value": max_value,
                },
                {"type": 3, "name": "notation", "description": "A move", "autocomplete": True},
            ],
        }
    ]


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def select(option_label: str) -> JSON:
    return {"type": 3, "custom_id": "pt:s:1", "options": [{"label": option_label, "value": "a"}]}


def button(label: str) -> JSON:
    return {"type": 2, "style": 1, "label": label, "custom_id": "pt:c:1"}


# ---- the fake refuses what Discord refuses --------------------------------------------------------------------


async def test_an_integer_option_past_2_53_fails_the_whole_command_sync(fake: FakeDiscord) -> None:
    with fake.expect_violations() as refused:
        status, answer = await send(fake, "PUT", commands_path(fake), game_command(2**53))
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert errors_at(answer, 0, "options", 0, "max_value")[0]["code"] == "NUMBER_TYPE_MAX"
    assert fake.command_syncs == 0 and not fake.commands  # refused: not applied
    assert [(v.method, v.path, v.status) for v in refused] == [("PUT", commands_path(fake), 400)]
    assert refused[0].errors == answer["errors"] and fake.contract_violations == refused

    status, answer = await send(fake, "PUT", commands_path(fake), game_command(INT53))
    assert status == 200 and answer[0]["options"][0]["max_value"] == INT53
    assert fake.command_syncs == 1 and "game" in fake.commands


async def test_a_select_option_label_of_101_characters_is_refused(fake: FakeDiscord) -> None:
    path = f"channels/{fake.general}/messages"
    with fake.expect_violations() as refused:
        status, answer = await send(fake, "POST", path, {"components": [row(select("x" * 101))]})
    assert status == 400
    error = errors_at(answer, "components", 0, "components", 0, "options", 0, "label")[0]
    assert error == {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 100 or fewer in length."}
    assert len(refused) == 1 and not fake.channel_messages(fake.general)

    status, answer = await send(fake, "POST", path, {"components": [row(select("x" * 100))]})
    assert status == 200
    assert fake.channel_messages(fake.general)[-1].selects()[0]["options"][0]["label"] == "x" * 100


async def test_a_button_label_of_81_characters_is_refused(fake: FakeDiscord) -> None:
    path = f"channels/{fake.general}/messages"
    with fake.expect_violations():
        status, answer = await send(fake, "POST", path, {"components": [row(button("x" * 81))]})
    assert status == 400
    assert errors_at(answer, "components", 0, "components", 0, "label")[0]["code"] == "BASE_TYPE_MAX_LENGTH"
    status, _ = await send(fake, "POST", path, {"components": [row(button("x" * 80))]})
    assert status == 200 and len(fake.channel_messages(fake.general)) == 1


async def test_message_content_of_2001_characters_is_refused(fake: FakeDiscord) -> None:
    """The description allows a channel message 4,000 characters; Discord's docs say 2,000, and the docs win."""
    path = f"channels/{fake.general}/messages"
    with fake.expect_violations() as refused:
        status, answer = await send(fake, "POST", path, {"content": "x" * 2001})
        assert status == 400 and errors_at(answer, "content")[0]["code"] == "BASE_TYPE_MAX_LENGTH"
        status, answer = await send_multipart(fake, path, {"content": "y" * 2001})  # payload_json checked
        assert status == 400 and errors_at(answer, "content")
    assert len(refused) == 2 and not fake.channel_messages(fake.general)

    assert (await send(fake, "POST", path, {"content": "x" * 2000}))[0] == 200
    assert (await send_multipart(fake, path, {"content": "y" * 2000}))[0] == 200
    assert [len(m.content) for m in fake.channel_messages(fake.general)] == [2000, 2000]


async def test_alt_text_of_1025_characters_is_refused(fake: FakeDiscord) -> None:
    path = f"channels/{fake.general}/messages"

    def board(alt_text: str) -> JSON:
        return {"attachments": [{"id": 0, "filename": "board.png", "description": alt_text}]}

    with fake.expect_violations():
        status, answer = await send_multipart(fake, path, board("x" * 1025))
    assert status == 400 and errors_at(answer, "attachments", 0, "description")
    assert (await send_multipart(fake, path, board("x" * 1024)))[0] == 200
    assert [m.files for m in fake.channel_messages(fake.general)] == [[("board.png", b"\x89PNG fake")]]


async def test_the_docs_limits_the_description_lacks(fake: FakeDiscord) -> None:
    """Duplicate custom_ids, a select beside a button, six action rows, embeds over 6,000 characters, a link
    button with a custom_id, ``parse`` beside ``users``, an empty message."""
    path = f"channels/{fake.general}/messages"
    link = {"type": 2, "style": 5, "label": "rules", "url": "https://example.com", "custom_id": "x"}
    pings = {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    bodies = {
        ("components", 1, "components", 0, "custom_id"): {"components": [row(button("a")), row(button("b"))]},
        ("components", 0, "components"): {"components": [row(select("a"), dict(button("b"), custom_id="b"))]},
        ("components",): {"components": [row(dict(button("b"), custom_id=f"b{i}")) for i in range(6)]},
        ("embeds",): {"embeds": [{"description": "x" * 4000}, {"description": "y" * 2001}]},
        ("components", 0, "components", 0, "custom_id"): {"components": [row(link)]},
        ("allowed_mentions", "users"): pings,
    }
    with fake.expect_violations() as refused:
        for where, body in bodies.items():
            status, answer = await send(fake, "POST", path, body)
            assert status == 400 and errors_at(answer, *where), (where, answer)
        status, answer = await send(fake, "POST", path, {"content": "", "embeds": []})
        assert (status, answer) == (400, {"code": 50006, "message": "Cannot send an empty message"})
    assert len(refused) == len(bodies) + 1 and not fake.channel_messages(fake.general)
    within = {"components": [row(dict(button("b"), custom_id=f"b{i}")) for i in range(5)]}
    assert (await send(fake, "POST", path, within))[0] == 200
    trimmed = " y" * 1000 + " "  # 1,999 characters once trimmed, as Discord counts them
    assert (
        await send(fake, "POST", path, {"embeds": [{"description": "x" * 4000}, {"description": trimmed}]})
    )[0] == 200
    del link["custom_id"]
    assert (await send(fake, "POST", path, {"components": [row(link)]}))[0] == 200
    pings["allowed_mentions"] = {"parse": [], "users": ["1"]}
    assert (await send(fake, "POST", path, pings))[0] == 200


async def test_callbacks_fit_the_interaction_they_answer(fake: FakeDiscord) -> None:
    """6/7 answer only components, 8 only (and always) autocomplete, with at most 25 choices of <= 100 chars."""
    assert (await send(fake, "PUT", commands_path(fake), game_command(INT53)))[0] == 200
    alice = fake.add_user("alice")

    def callback(record: InteractionRecord) -> str:
        return f"interactions/{record.id}/{record.token}/callback?with_response=1"

    slash = await fake.slash(alice, "game", number=3)
    with fake.expect_violations() as refused:
        for kind in (6, 7, 8):
            status, answer = await send(fake, "POST", callback(slash), {"type": kind, "data": {}})
            assert status == 400 and errors_at(answer, "type"), kind
    assert len(refused) == 3 and not slash.callback_types  # not applied: still unanswered
    assert (await send(fake, "POST", callback(slash), {"type": 4, "data": {"content": "ok"}}))[0] == 200

    choices = [{"name": f"move {i}", "value": "v" * 100} for i in range(25)]
    asked = await fake._push(4, alice, None, fake._command_data("game", {}, focused="notation"))
    with fake.expect_violations() as refused:
        status, answer = await send(fake, "POST", callback(asked), {"type": 4, "data": {"content": "no"}})
        assert status == 400
        too_many = {"type": 8, "data": {"choices": [*choices, choices[0]]}}
        assert (await send(fake, "POST", callback(asked), too_many))[0] == 400
        too_long = {"type": 8, "data": {"choices": [{"name": "move", "value": "v" * 101}]}}
        status, answer = await send(fake, "POST", callback(asked), too_long)
        assert status == 400 and errors_at(answer, "data", "choices", 0, "value")
    assert len(refused) == 3 and asked.choices is None
    assert (await send(fake, "POST", callback(asked), {"type": 8, "data": {"choices": choices}}))[0] == 200
    assert asked.choices == choices


def test_command_names_and_localisations_follow_the_naming_rule() -> None:
    path = "applications/1/commands"
    command = game_command(INT53)[0]
    assert contract().check("PUT", path, [command]) is None
    polish = copy.deepcopy(command)
    polish["name_localizations"] = {"pl": "gra"}
    polish["options"][0]["name_localizations"] = {"pl": "numer-gry"}
    assert contract().check("PUT", path, [polish]) is None
    for where, change in (
        ((0, "name"), {"name": "Game"}),
        ((0, "name"), {"name": "two words"}),
        ((0, "name_localizations", "pl"), {"name_localizations": {"pl": "Gra"}}),
        ((0, "name_localizations", "xx"), {"name_localizations": {"xx": "gra"}}),
        ((0, "description"), {"description": ""}),
    ):
        refusal = contract().check("PUT", path, [dict(command, **change)])
        assert refusal is not None and errors_at(refusal.body, *where), (change, refusal)


# ---- what fails a test ----------------------------------------------------------------------------------------


def test_an_unexpected_violation_or_a_late_first_response_fails_the_test() -> None:
    fake = FakeDiscord()  # not started: the checks are read from what it recorded
    assert not teardown_problems(fake)
    with fake.expect_violations():
        assert fake._refused("POST", "channels/1/messages", {"cid": "1"}, {"content": "x" * 2001}) is not None
    assert fake.contract_violations and not teardown_problems(fake)
    assert fake._refused("POST", "channels/1/messages", {"cid": "1"}, {"content": "x" * 2001}) is not None
    [problem] = teardown_problems(fake)
    assert "POST channels/1/messages (400)" in problem

    fake.contract_violations.clear()
    user = fake.add_user("alice")
    now = time.perf_counter()
    late = InteractionRecord(1, "t1", 2, user, fake.general, {"name": "help"}, now)
    late.first_callback_at = now + FIRST_RESPONSE_LIMIT_S + 0.1
    on_time = InteractionRecord(2, "t2", 2, user, fake.general, {"name": "help"}, now)
    on_time.first_callback_at = now + 0.2
    fake.interactions = {"t1": late, "t2": on_time}
    [problem] = teardown_problems(fake)
    assert problem.startswith("slash /help first answered after 2.60 s")


async def test_a_forged_component_is_one_a_message_could_carry(fake: FakeDiscord) -> None:
    """``click_forged`` stores its message without REST: it checks it itself (select values are 1-100 chars)."""
    alice = fake.add_user("alice")
    with pytest.raises(ValueError, match="Discord would refuse"):
        await fake.click_forged(alice, "pt:s:1:0:r1s0:0", ["x" * 101])
    with pytest.raises(ValueError, match="Discord would refuse"):
        await fake.click_forged(alice, "x" * 101)
    record = await fake.click_forged(alice, "pt:s:1:0:r1s0:0", ["x" * 100, "#0"])
    [message] = fake.dm_messages(alice)
    assert message.selects()[0]["max_values"] == 2 and record.data["values"] == ["x" * 100, "#0"]


async def test_every_request_of_the_bot_is_checked(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[tuple[str, str]] = []
    check = discord_contract.check

    def counting(method: str, path: str, body: Any, *, interaction_type: int | None = None) -> Refusal | None:
        checked.append((method, path))
        return check(method, path, body, interaction_type=interaction_type)

    monkeypatch.setattr(fake_discord.discord_contract, "check", counting)
    before = len(fake.requests)
    alice = fake.add_user("alice")
    record = await table.slash(alice, "rules", game="babylone")
    assert record.callback_types and record.first_response_s is not None
    assert checked == [(r.method, r.path) for r in fake.requests[before:]] and checked


# ---- the command list the bot syncs ------------------------------------------------------------------------


def nodes(items: list[JSON]) -> Iterator[JSON]:
    """Every command, option and choice of the payload."""
    for item in items:
        yield item
        yield from nodes(item.get("options") or [])
        yield from nodes(item.get("choices") or [])


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> list[JSON]:
    """Built once for the module, in a loop of its own."""
    return asyncio.run(synced_commands(tmp_path_factory.mktemp("sync") / "bot.sqlite3"))


def test_the_synced_commands_are_within_the_contract_in_every_language(synced: list[JSON]) -> None:
    refusal = contract().check("PUT", "applications/1/guilds/2/commands", synced)
    assert refusal is None, json.dumps(refusal.body if refusal else None, indent=1)[:4000]
    assert contract().check("PUT", "applications/1/commands", synced) is None  # the global sync
    locales = {
        locale
        for node in nodes(synced)
        for field in ("name_localizations", "description_localizations")
        for locale in node.get(field) or {}
    }
    for language in LANGUAGES:  # English is the default text; every other language is a localisation
        assert language == DEFAULT or any(locale.split("-")[0] == language for locale in locales), language
    assert len(synced) >= 10 and max(discord_contract.command_size(c) for c in synced) > 0


def test_a_game_number_option_past_2_53_would_have_failed_the_sync(synced: list[JSON]) -> None:
    """``/settings mute`` had ``max_value`` 2**53 (now ``MAX_GAME_ID``, 2**53 - 1): Discord refuses the whole list."""
    assert MAX_GAME_ID == INT53
    before = copy.deepcopy(synced)
    paths = [
        (index, position)
        for index, command in enumerate(before)
        for position, option in enumerate(command.get("options") or [])
        if command["name"] == "settings" and option.get("max_value") == MAX_GAME_ID
    ]
    assert paths, "no /settings option bounded by MAX_GAME_ID"
    for index, position in paths:
        before[index]["options"][position]["max_value"] = 2**53
    refusal = contract().check("PUT", "applications/1/guilds/2/commands", before)
    assert refusal is not None and refusal.status == 400
    for index, position in paths:
        assert errors_at(refusal.body, index, "options", position, "max_value")
