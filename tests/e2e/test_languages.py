"""Issue 23 end to end: a Polish user and an English user play one Babylone game through the real discord.py
client and the fake Discord (each user's interactions carry their client's locale). Each reads their own
language in what only they see (answers, errors, autocomplete, /game status, /settings, DMs with the turn's
buttons); the channel reads the server's language: English until an admin sets ``/game language pl``."""

from __future__ import annotations

import re

from bot.discord.common import HeavyLimits
from i18n import template
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.test_play import open_lobby

MANAGE_GUILD = 1 << 5
PLACEHOLDER = re.compile(r"\{\w+\}")


def english_sentences() -> set[str]:
    """The literal pieces of the catalog's English message ids long enough to be a phrase (4+ words): none may
    reach a Polish reader."""
    pieces = set()
    for message in template():
        if message.context or not message.id:
            continue
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in PLACEHOLDER.split(msgid):
                if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 4:
                    pieces.add(piece.strip())
    return pieces


def english_in(text: str) -> list[str]:
    return [piece for piece in english_sentences() if piece in text]


def dm_texts(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [m.text() for m in fake.dm_messages(user)]


async def test_a_polish_and_an_english_player_each_read_their_language(
    table: Table, fake: FakeDiscord
) -> None:
    ola, bob = fake.add_user("ola", locale="pl"), fake.add_user("bob", locale="en-US")
    bob.permissions |= MANAGE_GUILD
    # each player asks /game status at every turn, faster than any person: the heavy commands' cooldown is off
    table.running.limits = HeavyLimits(burst=0)
    for user in (ola, bob):  # turns by DM with their buttons, so each reads prompts and buttons privately
        await table.slash(user, "settings", turn_dms="on")
    answers: dict[str, list[str]] = {"ola": [], "bob": []}
    switched = 0

    async def answer(user: FakeUser, command: str, **options: object) -> str:
        text = table.reply_text(await table.slash(user, command, **options))
        answers[user.name].append(text)
        return text

    assert "Twoje ustawienia" in await answer(ola, "settings")
    assert "Your settings" in await answer(bob, "settings")
    assert "Co robi" not in await answer(bob, "help")
    assert "gry planszowe" in await answer(ola, "help")

    await open_lobby(table, ola, bob)
    lobby = fake.channel_messages(fake.general)[0]
    await table.press(ola, lobby, "Start")
    turns = 0
    while (player := table.turn_of([ola, bob])) is not None and turns < 8:
        other = bob if player is ola else ola
        polish = player is ola
        choices = await fake.autocomplete(player, "move", "notation")
        names = " ".join(choice["name"] for choice in choices)
        assert ("na stos" in names) if polish else ("onto stack" in names and "stos" not in names)
        answers[player.name].append(names)
        refused = await answer(other, "move", notation=choices[0]["value"])
        assert ("It is not your turn" in refused) if other is bob else ("To nie twoja kolej" in refused)
        wrong = await answer(player, "move", notation="13>2")
        assert ("Nie ma stosu 13" in wrong) if polish else ("There is no stack 13" in wrong)
        status = await answer(player, "game status")
        assert ("Teraz decyduje" in status and "Termin" in status) if polish else "Deadline for" in status
        done = await answer(player, "move", notation=choices[0]["value"])
        assert done.startswith("Zrobione" if polish else "Done")
        turns += 1
        if turns == 2:  # the admin sets the server's language: the channel's next posts are in Polish
            said = await answer(bob, "game language", language="pl")
            assert "Polski" in said and "Public messages" in said
            switched = len(fake.channel_messages(fake.general))

    posts = [m.content for m in fake.channel_messages(fake.general)]
    before, after = posts[1:switched], posts[switched:]
    assert len(before) == 3 and after
    assert "begins" in before[0] and all("moves stack" in p and "Now:" in p for p in before[1:])
    assert not any("stos" in p for p in before)
    assert all("przesuwa stos" in p for p in after) and any("Teraz decyduje" in p for p in after), after
    assert not any(english_in(p) for p in after), [english_in(p) for p in after]

    # DMs: the join notice, each turn with its prompt and buttons, in the reader's language
    ola_dms, bob_dms = fake.dm_messages(ola), fake.dm_messages(bob)
    assert any("Dołączasz do gry" in m.text() for m in ola_dms)
    assert any("You joined" in m.text() for m in bob_dms)
    # a turn's DM: its buttons on while the decision is open, taken off (an edit) once it closed
    ola_turns = [m for m in ola_dms if m.buttons() or m.selects() or m.edits]
    bob_turns = [m for m in bob_dms if m.buttons() or m.selects() or m.edits]
    assert ola_turns and bob_turns

    assert all("Połóż stos" in m.text() for m in ola_turns)
    assert all("Move a stack" in m.text() for m in bob_turns)
    # the labels as the DMs showed them: a turn's buttons come off once it is answered
    ola_dm = fake.dm_channels[ola.id]
    ola_labels = [
        text
        for shown in fake.shown
        if shown.channel_id == ola_dm
        for where, text in shown.texts
        if where in ("button", "option")
    ]
    assert any("stos" in label for label in ola_labels) or any("Więcej" in label for label in ola_labels)
    assert not any("onto stack" in label for label in ola_labels)

    for text in answers["ola"] + [m.text() for m in ola_dms]:
        assert not english_in(text), (text, english_in(text))
    assert not any("Zrobione" in t or "Teraz decyduje" in t for t in answers["bob"] + dm_texts(fake, bob))


async def test_every_command_and_option_description_has_a_polish_localisation(
    table: Table, fake: FakeDiscord
) -> None:
    missing = []

    def check(item: dict, path: str) -> None:
        if item.get("description") and "pl" not in (item.get("description_localizations") or {}):
            missing.append(f"{path}: {item['description']}")
        for localised in (item.get("description_localizations") or {}).values():
            assert len(localised) <= 100, localised
        for option in item.get("options", []):
            check(option, f"{path} {option['name']}")

    for name, command in fake.commands.items():
        check(command, name)
    assert not missing, missing


async def test_a_principes_round_in_polish_beside_an_english_player(table: Table, fake: FakeDiscord) -> None:
    """A Polish and an English player play PRINCIPES' first Round through the real client (the server's language
    set to Polish by the admin): every DM, answer, autocomplete label and the channel read Polish for the Polish
    player, while the English player's DMs and answers stay English."""
    ola, bob = fake.add_user("ola", locale="pl"), fake.add_user("bob", locale="en-US")
    bob.permissions |= MANAGE_GUILD
    for user in (ola, bob):
        await table.slash(user, "settings", turn_dms="on")
    await table.slash(bob, "game language", language="pl")
    answers: dict[str, list[str]] = {"ola": [], "bob": []}
    lobby = fake.replies(await table.slash(ola, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.click(bob, lobby, next(i for i in lobby.custom_ids() if i.endswith(":join")))
    await table.slash(ola, "game start", order="given")
    host = table.running.host
    for _ in range(200):
        if "Round 1 ends." in await host.log(str(fake.general), 500):
            break
        asked = False
        for user in (ola, bob):
            prompt = await host.prompt_of(game_id, str(user.id))
            if prompt is None:
                continue
            asked = True
            choices = await fake.autocomplete(user, "move", "notation")
            answers[user.name].append(" ".join(str(choice["name"]) for choice in choices))
            move = next(
                (c.action for c in prompt.choices if c.action in ("pass", "done", "keep", "deny")), None
            )
            if prompt.kind == "plan":
                move = "plan taxes assembly building"
            record = await table.slash(user, "move", notation=move or prompt.choices[0].action)
            answers[user.name].append(table.reply_text(record))
            answers[user.name].append(table.reply_text(await table.slash(user, "hand")))
        assert asked, "nobody is asked anything before the Round ends"
    else:
        raise AssertionError("the first Round did not end")

    assert any(text.startswith("Zrobione") for text in answers["ola"])
    ola_dms = "\n".join(dm_texts(fake, ola))
    assert "Zapieczętuj plan" in ola_dms and "Seal your plan" not in ola_dms
    assert any(text.startswith("Done") for text in answers["bob"])
    ola_texts = answers["ola"] + dm_texts(fake, ola)
    english = {text: english_in(text) for text in ola_texts if english_in(text)}
    assert not english, list(english.items())[:5]
    public = [m.content for m in fake.channel_messages(fake.general)][1:]
    english = {text: english_in(text) for text in public if english_in(text)}
    assert public and not english, list(english.items())[:5]
    bob_texts = answers["bob"] + dm_texts(fake, bob)
    assert any("Seal your plan" in text for text in bob_texts)
    assert not any("Zrobione" in t or "Zapieczętuj" in t for t in bob_texts)
