"""Hostile clicks on the bot's components, through the real client and the fake Discord (issue 17).

Shared by ``test_component_fuzz`` (a hypothesis-controlled ``random.Random``, so a failure shrinks to a short
list of clicks) and ``bench/bench_fuzz.py`` (volume). Every click goes through the code the bot runs: discord.py
matches the custom_id against the dynamic items' templates, rebuilds the item (``from_custom_id``) and calls it.

The clicks start from the custom_ids and select values the bot really posted (lobby, turn prompts, The Prince's
guided forms in DMs, deadline offers) and mutate them: a field replaced by a hostile value (another game, a seat
the game does not have, ``#-1``, ``#abc``, digits of another script, huge numbers, unreadable form drafts), fields
dropped or added, or a custom_id made up from nothing. Each click comes from a player, an outsider or a
moderator, in the game's channel, another channel or a DM. Every click of ours must get an answer that is not
the apology, and no unexpected error may be logged.
"""

from __future__ import annotations

import random
from collections import Counter
from urllib.parse import quote

from bot.discord.common import APOLOGY
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeUser

#: the text of the messages made up to carry hostile clicks (kept out of the custom_ids to start from)
FORGED = "(a message carrying a hostile click)"
#: a custom_id's length limit on Discord
CUSTOM_ID = 100
HOSTILE_FIELDS = (
    "",
    "0",
    "-1",
    "7",
    "99999",
    "9" * 30,
    "#-1",
    "#abc",
    "#",
    "#٣",
    "#²",
    "#99999",
    "٣",
    "²",
    "%23-1",
    "%",
    "%zz",
    "%3A",
    "a" * 60,
    "seal",
    "open",
    "rev",
    "back",
    "r1s0",
    "null",
    "\u202e",
    "🙂",
    "<@&4242>",
    "@everyone",
)


class ComponentFuzz:
    """A table with games in progress, and hostile clicks on what the bot posted."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.fake = table.fake
        self.counts: Counter[str] = Counter()
        self.users: list[FakeUser] = []
        self.channels: list[int] = []

    async def set_up(self) -> None:
        """Babylone between two people in the main channel; The Prince against the AI in a second one."""
        fake = self.fake
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        mallory, mod = fake.add_user("mallory"), fake.add_user("mod", manage_channels=True)
        self.users = [alice, bob, mallory, mod]
        prince = await fake.create_channel("prince")
        self.channels = [fake.general, prince, await fake.create_channel("elsewhere")]
        await self.table.slash(alice, "game new", game="babylone", options="first=1")
        await self.table.slash(bob, "game join")
        await self.table.slash(alice, "game start", order="given")
        await self.table.slash(bob, "game new", prince, game="the-prince")
        await self.table.slash(bob, "game ai", prince, level="strategist")
        await self.table.slash(bob, "game start", prince)

    def posted(self) -> list[tuple[str, list[str]]]:
        """Every custom_id on a message the bot posted, with the option values of a select."""
        found = []
        for message in list(self.fake.messages.values()):
            if message.content == FORGED:
                continue  # a message made up to carry an earlier hostile click
            for row in message.components:
                for item in row.get("components", []):
                    if "custom_id" in item:
                        values = [option["value"] for option in item.get("options", [])]
                        found.append((item["custom_id"], values))
        return found

    def hostile_id(self) -> tuple[str, list[str] | None]:
        rng = self.rng
        posted = self.posted()
        if not posted or rng.random() < 0.1:
            kind = rng.choice("csmlxhfgqz")
            fields = [rng.choice(HOSTILE_FIELDS) for _ in range(rng.randrange(0, 7))]
            custom_id = ":".join(["pt", kind, *fields])
            # a select value is 1-100 characters: Discord sends no other (its contract refuses the message)
            value = rng.choice(HOSTILE_FIELDS)[:100] or "-"
            return custom_id[:CUSTOM_ID], ([value] if rng.random() < 0.5 else None)
        custom_id, values = rng.choice(posted)
        fields = custom_id.split(":")
        for _ in range(rng.choice((0, 0, 1, 1, 1, 2))):
            mutation = rng.random()
            if mutation < 0.7 and len(fields) > 2:
                index = rng.randrange(2, len(fields))
                value = rng.choice(HOSTILE_FIELDS)
                fields[index] = quote(value, safe="%#") if rng.random() < 0.5 else value
            elif mutation < 0.85 and len(fields) > 3:
                del fields[rng.randrange(3, len(fields))]
            else:
                fields.insert(rng.randrange(2, len(fields) + 1), rng.choice(HOSTILE_FIELDS))
        select_values = None
        if values:
            pick = rng.choice(values) if rng.random() < 0.5 else rng.choice(HOSTILE_FIELDS)
            select_values = [pick[:100] or "-"]
        return ":".join(fields)[:CUSTOM_ID], select_values

    async def click_once(self) -> None:
        custom_id, values = self.hostile_id()
        user = self.rng.choice(self.users)
        channel = self.rng.choice([*self.channels, None])  # None: the user's DM
        record = await self.fake.click_forged(user, custom_id, values, channel, content=FORGED)
        await self.table.settle(record)
        replies = self.fake.replies(record)
        ours = custom_id.startswith("pt:")
        self.counts["clicks"] += 1
        self.counts["answered" if replies or record.callback_types else "unanswered"] += 1
        if ours and not (replies or record.callback_types):
            raise AssertionError(f"no answer to {custom_id!r} {values!r}")
        texts = [reply.content for reply in replies]
        if any(APOLOGY in text for text in texts):
            raise AssertionError(f"the apology for {custom_id!r} {values!r}")
        errors = list(self.table.running.unexpected_errors)
        if errors:
            raise AssertionError(f"{custom_id!r} {values!r}: {errors[0]!r}")

    async def run(self, clicks: int) -> Counter[str]:
        if not self.users:
            await self.set_up()
        for _ in range(clicks):
            await self.click_once()
        await self.check_games()
        return self.counts

    async def check_games(self) -> None:
        """Whatever was clicked, each game is the replay of its stored events."""
        host = self.table.running.host
        rows = await host.store.fetchall("SELECT id FROM games WHERE num_players IS NOT NULL")
        for row in rows:
            live = await host.games.load(row["id"])  # noqa: SLF001 - the state this process holds
            assert live.state == await host.replay_state(row["id"])
