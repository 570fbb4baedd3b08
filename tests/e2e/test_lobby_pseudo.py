"""Issue 43: the lobby, its thread, seats and AI players, the start, the live card, the closed-DMs fallback and
/mygames read only the reader's language, through the real discord.py client.

Every user's Discord client speaks the pseudo-locale ``qps`` and so does the server (its public language, set
where ``/game language`` stores it: the command offers only real languages). ``qps`` wraps each translated
literal in ``⟦…⟧``; ``unmarked_words`` lists the English left outside. The fake Discord records every text it
was shown (``FakeDiscord.shown``: each message as posted and as edited, its buttons, select placeholders and
options, attachments' file names and alt text, autocomplete answers, a thread's name); whatever reached these
users or the channel must be marked, except the players' names, the games' titles, the notation a player types
(options, in backticks), ids and a file's extension (``tests/e2e/reading.py``).
"""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.reading import latin_names, lobby_button, report, speak_pseudo, unlocalised


async def test_a_lobby_in_a_thread_with_an_ai_reads_the_pseudo_locale(
    table: Table, fake: FakeDiscord
) -> None:
    """/game new thread:True (the channel's pointer, the thread's lobby and its buttons), joining and leaving by
    button and by command, /game ai's autocomplete and seat line with the measured strength, the refusals of
    lobby options and of seats out of order, the thread limit, /mygames of a lobby."""
    ola, jan = await speak_pseudo(table, fake, "ola", "jan")
    record = await table.slash(ola, "game new", game="pharaoh", thread=True)
    thread_id = int(next(c for c in fake.channels.values() if c["type"] == 11)["id"])
    assert str(thread_id) in table.reply_text(record)
    lobby = fake.channel_messages(thread_id)[0]
    await table.click(jan, lobby, lobby_button(lobby, "join"))
    await table.click(jan, lobby, lobby_button(lobby, "leave"))
    await table.slash(jan, "game join", thread_id)
    await table.slash(jan, "game leave", thread_id)
    await table.click(jan, lobby, lobby_button(lobby, "join"))
    levels = await fake.autocomplete(ola, "game ai", "level", thread_id)
    assert any("%" in str(choice["name"]) for choice in levels)  # the measured strength
    await table.slash(ola, "game ai", thread_id, seat=4)  # out of order: the next free seat is 3
    seated = await table.slash(ola, "game ai", thread_id, level="expert")
    assert "40" in table.reply_text(seated)
    await table.slash(ola, "mygames")
    await table.slash(jan, "game leave", thread_id)
    for options in ("window=soon", "window=500", "posts=sometimes"):
        await table.slash(ola, "game new", game="babylone", options=options)
    fake.thread_limit = 0
    await table.slash(ola, "game new", game="babylone", thread=True)
    fake.thread_limit = 1000

    found = unlocalised(fake.shown, {"ola", "jan"})
    assert not found, report(found)


async def test_a_table_with_an_ai_reads_the_pseudo_locale(table: Table, fake: FakeDiscord) -> None:
    """The lobby in the channel, /game ai's list and seat line, the start, the live card and the lines of a game
    an AI plays ("Now: AI random decides"), /mygames, /board and /game status."""
    ola, jan = await speak_pseudo(table, fake, "ola", "jan")
    host = table.running.host
    lobby = fake.replies(await table.slash(ola, "game new", game="babylone"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.click(jan, lobby, lobby_button(lobby, "join"))
    await fake.autocomplete(ola, "game ai", "level")
    seated = await table.slash(ola, "game ai", level="random")
    assert "⟦AI random⟧" in table.reply_text(seated)
    await table.slash(ola, "game start", order="given")
    assert "⟦AI random⟧" in fake.messages[lobby.id].content  # the lobby's list of seats
    await table.slash(ola, "mygames")
    await table.slash(jan, "mygames")
    moves = 0
    while (await host.game_info(game_id)).status == "active" and moves < 3:
        asked = [user for user in (ola, jan) if await host.prompt_of(game_id, str(user.id))]
        assert asked, "nobody is asked to move"
        choices = await fake.autocomplete(asked[0], "move", "notation")
        await table.slash(asked[0], "move", notation=choices[0]["value"])
        moves += 1
    assert (await host.game_info(game_id)).status == "active"
    lines = [m.content for m in fake.channel_messages(fake.general)]
    assert any("⟦Now: ⟧⟦AI random⟧⟦ decides (⟧" in line for line in lines)  # the AI's turn, marked
    await table.slash(ola, "board")
    await table.slash(ola, "mygames")
    await table.slash(ola, "game status")

    found = unlocalised(fake.shown, {"ola", "jan"})
    assert not found, report(found)


async def test_closed_dms_and_their_fallback_read_the_pseudo_locale(table: Table, fake: FakeDiscord) -> None:
    """A player whose DMs are closed: the notice when joining (it names the button as the channel shows it), a
    substitute's seat, the channel's fallback and its "Open my hand" button, and the button's answer."""
    ola, jan, eva = await speak_pseudo(table, fake, "ola", "jan", "eva")
    fake.close_dms(eva)
    host = table.running.host
    lobby = fake.replies(await table.slash(ola, "game new", game="babylone", options="first=1"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    notice = await table.slash(eva, "game join")
    await table.slash(eva, "game leave")
    await table.slash(jan, "game join")
    await table.slash(ola, "game start", order="given")
    await table.slash(jan, "game leave")  # refused: the game has started
    choices = await fake.autocomplete(ola, "move", "notation")
    await table.slash(ola, "move", notation=choices[0]["value"])
    await table.slash(jan, "game sub", member=eva)
    fallback = [m for m in fake.channel_messages(fake.general) if "pt:h:" in " ".join(m.custom_ids())]
    assert len(fallback) == 1 and f"<@{eva.id}>" in fallback[0].content
    label = str(fallback[0].buttons()[0]["label"])
    assert label.startswith("⟦") and label in table.reply_text(notice)  # the notice names it as shown
    opened = await table.click(eva, fallback[0], fallback[0].custom_ids()[0])
    assert fake.replies(opened) and all(m.ephemeral for m in fake.replies(opened))
    await table.slash(eva, "mygames")
    assert (await host.game_info(game_id)).status == "active"

    found = unlocalised(fake.shown, {"ola", "jan", "eva"})
    assert not found, report(found)


async def test_the_boards_of_principes_read_the_pseudo_locale(table: Table, fake: FakeDiscord) -> None:
    """PRINCIPES' boards: the live card's image and /board (the image's alt text and file name)."""
    ola, jan = await speak_pseudo(table, fake, "ola", "jan")
    await table.slash(ola, "game new", game="principes")
    await table.slash(jan, "game join")
    await table.slash(ola, "game start", order="given")
    board = fake.replies(await table.slash(ola, "board"))[0]
    assert board.files and board.ephemeral
    alts = [text for shown in fake.shown for where, text in shown.texts if where == "alt"]
    assert len(alts) >= 2  # the live card's and /board's

    found = unlocalised(fake.shown, {"ola", "jan", *latin_names()})
    assert not found, report(found)
