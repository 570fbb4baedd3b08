"""Issue 25 §4: a display name that mentions everyone and a role pings nobody, on every message path."""

from __future__ import annotations

import re

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_play import open_lobby, play_turn

EVIL = "@everyone <@&4242> @here"
MENTION = re.compile(r"@everyone|@here|<@&?!?\d+>")


def assert_pings_only(fake: FakeDiscord, allowed_users: set[int]) -> int:
    """Every body the bot sent or edited that could mention someone carries allowed_mentions that ping neither
    everyone nor a role, and no user but ``allowed_users``. Returns how many such bodies there were."""
    checked = 0
    for message_id, content, allowed in fake.mention_log:
        if not MENTION.search(content):
            continue
        checked += 1
        where = f"message {message_id}: {content[:80]!r}"
        assert allowed is not None, f"no allowed_mentions on {where}"
        parse = set(allowed.get("parse") or [])
        assert not parse & {"everyone", "roles", "users"}, f"{where} parses {parse}"
        assert not allowed.get("roles"), where
        assert {int(user) for user in allowed.get("users") or []} <= allowed_users, where
    return checked


async def test_a_mass_mention_name_pings_nobody_on_any_path(table: Table, fake: FakeDiscord) -> None:
    evil, alice = fake.add_user(EVIL), fake.add_user("alice")
    game_id = await open_lobby(table, evil, alice, options="first=1")  # the lobby reply and its edit by Join
    lobby = fake.channel_messages(fake.general)[0]
    await table.press(evil, lobby, "Start")
    await table.slash(evil, "settings", turn_dms="on")  # turn DMs too
    for who in (evil, alice):
        await table.slash(who, "game status")
        await table.slash(who, "log")
        await table.slash(who, "board")
    turn = 0
    table.clock.advance(20 * 3600)  # type: ignore[attr-defined] - a reminder
    await table.running.timers.fire_once()
    table.clock.advance(5 * 3600)  # the deadline passes: the offer names the late player
    await table.running.timers.fire_once()
    await table.press(
        alice if table.turn_of([evil, alice]) is evil else evil, table.last_public(), "Keep waiting"
    )
    while (player := table.turn_of([evil, alice])) is not None and turn < 60:
        await play_turn(table, player, turn)
        turn += 1
    assert (await table.running.host.game_info(game_id)).status == "finished"
    checked = assert_pings_only(fake, {evil.id, alice.id})
    assert checked >= 5 and any(EVIL in content for _id, content, _allowed in fake.mention_log)
    assert not table.running.unexpected_errors


async def test_a_mass_mention_name_in_a_sealed_game_with_dms_pings_nobody(
    table: Table, fake: FakeDiscord
) -> None:
    evil = fake.add_user(EVIL)
    record = await table.slash(evil, "game new", game="the-prince")
    (lobby,) = fake.replies(record)
    await table.slash(evil, "game ai", level="strategist")
    await table.press(evil, fake.messages[lobby.id], "Start")
    assert fake.dm_messages(evil)  # the private view and the landing prompt
    await table.slash(evil, "game status")
    await table.slash(evil, "game abandon")  # the only person at the table: at once, with the sealed reveal
    assert "abandoned" in table.last_public().content or any(
        "abandoned" in m.content for m in fake.channel_messages(fake.general)
    )
    checked = assert_pings_only(fake, {evil.id})
    assert checked >= 3 and not table.running.unexpected_errors
