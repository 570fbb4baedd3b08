"""Issue 23: the host's messages off a Babylone game's main path are in the catalogs too. Settings, /away,
/game status, pause and resume votes, abandon, draw and substitute refusals, undo errors, /orders and /ahead,
deadlines with their reminders and expiry offers, the AI standing in, /log, the catch-up digest, /stats and
/leaderboard are driven through the Host and read in the pseudo-locale: no English word is left unmarked."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.host import Host
from bot.models import Actor, Delivery, HostError
from bot.stats import leaderboard, leaderboard_text, player_records, records_text
from i18n import PSEUDO, localize, unmarked_words

#: names, the game's title and what a player types as such (setting names and values, commands' options)
ALLOWED = {"alice", "bob", "carol", "Babylone", "Europe", "Paris", "America", "New_York", "UTC", "on", "off"}
ALLOWED |= {
    "turn_dms",
    "mentions",
    "autopass",
    "orders",
    "quiet_hours",
    "time_zone",
    "reminders",
    "language",
    "auto",
}
ALLOWED |= {"en", "pl", "mute", "unmute", "GAME", "claim", "wait", "ai", "random", "given", "first", "easy"}
ALLOWED |= {"turn", "dms", "quiet", "hours", "time", "zone"}  # setting names split at "_"
ALLOWED |= {"Mars", "nowhere", "banana", "xx", "colour"}  # what the test typed wrongly, quoted back


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


async def _texts(tmp_path: Path) -> list[str]:
    clock = Clock()
    host = await Host.open(tmp_path / "db.sqlite", clock=clock)
    alice, bob, carol = Actor("1", "alice"), Actor("2", "bob"), Actor("3", "carol")
    moderator = Actor("9", "carol", can_manage=True, can_manage_server=True)
    shown: list[str] = []

    def show(deliveries: list[Delivery]) -> list[Delivery]:
        for delivery in deliveries:
            shown.append(delivery.text)
            if delivery.prompt:
                shown.append(delivery.prompt.text)
                shown.extend(choice.label for choice in delivery.prompt.choices)
        return deliveries

    async def refused(work: Callable[[], Awaitable[Any]]) -> None:
        with pytest.raises(HostError) as error:
            await work()
        shown.append(str(error.value))

    try:
        shown.append(await host.status("c"))
        # ---- settings and /away, before any game
        shown.append(await host.settings_text("1"))
        for key, value in (
            ("turn_dms", "banana"),
            ("time_zone", "Mars/nowhere"),
            ("quiet_hours", "10:00-10:00"),
            ("reminders", "150%"),
            ("reminders", "50%,40%,30%,20%"),
            ("language", "xx"),
            ("colour", "red"),
            ("mute", "banana"),
            ("mute", "7"),
        ):
            await refused(lambda key=key, value=value: host.set_setting("1", key, value))
        shown.append(await host.away_text("1"))
        await refused(lambda: host.come_back(alice))
        await refused(lambda: host.go_away(alice, "banana"))
        await refused(lambda: host.go_away(alice, "2020-01-01"))
        await refused(lambda: host.set_away_allowance(None, moderator, 3))
        await refused(lambda: host.set_away_allowance("g", alice, 3))
        await refused(lambda: host.set_away_allowance("g", moderator, 999))
        shown.append(await host.set_away_allowance("g", moderator, 14))

        # ---- a game: lobby errors, then started
        info = await host.create_game("g", "c", alice, "babylone", {}, seed=3)
        await refused(lambda: host.create_game("g", "c", bob, "babylone", {}, seed=4))
        await refused(lambda: host.join("c", alice))
        await refused(lambda: host.leave("c", bob))
        await refused(lambda: host.start("c", alice))
        await host.join("c", bob)
        shown.append(await host.status("nowhere"))
        show(await host.start("c", alice))
        await host.set_setting("1", "mute", str(info.game_id))
        shown.append(await host.settings_text("1"))
        await host.set_setting("1", "unmute", str(info.game_id))
        await refused(lambda: host.join("c", carol))
        shown.append(await host.status("c"))
        shown.append(await host.log("c"))
        shown.append((await host.catchup("c", alice)).text)
        await refused(lambda: host.orders_text("c", alice))
        await refused(lambda: host.ahead_text("c", alice))
        await refused(lambda: host.offer_draw("c", alice))
        await refused(lambda: host.undo("c", alice))
        await refused(lambda: host.back("c", alice))
        await refused(lambda: host.sub("c", alice, bob))
        await refused(lambda: host.sub("c", moderator, carol, 5))
        await refused(lambda: host.sub("c", moderator, carol, 0))
        await refused(lambda: host.resume("c", alice))

        # ---- moves: one each, then undo refused for the other
        for _ in range(2):
            prompt = next(d.prompt for d in reversed(await host.pending_deliveries()) if d.prompt)
            seat = (await host.game_info(info.game_id)).seats[prompt.seat]
            actor = alice if seat.user_id == "1" else bob
            other = bob if actor is alice else alice
            await refused(
                lambda other=other, prompt=prompt: host.act(info.game_id, other, "1>2", prompt.decision_id)
            )
            show(await host.act(info.game_id, actor, prompt.choices[0].action, prompt.decision_id))
            await refused(lambda other=other: host.undo("c", other))
        shown.append(await host.log("c"))
        shown.append(await host.status("c"))
        shown.append((await host.catchup("c", alice)).text)

        # ---- pause and resume by vote
        show(await host.pause("c", alice))
        show(await host.pause("c", bob))
        shown.append(await host.status("c"))
        show(await host.resume("c", alice))
        show(await host.resume("c", bob))

        # ---- deadlines: a reminder, then the late seat's expiry offer (keep waiting), then the AI stands in after a second miss
        clock.now += 20 * 3600
        show(await host.fire_due_timers())
        clock.now += 5 * 3600
        offers = show(await host.fire_due_timers())
        offer = next(d.prompt for d in offers if d.prompt and d.prompt.expiry_id)
        late = (await host.game_info(info.game_id)).seats[offer.seat]
        waiting = bob if late.user_id == "1" else alice
        await refused(lambda: host.answer_expiry(info.game_id, waiting, offer.expiry_id or "", "banana"))
        show(await host.answer_expiry(info.game_id, waiting, offer.expiry_id or "", "wait"))
        await refused(lambda: host.answer_expiry(info.game_id, waiting, offer.expiry_id or "", "wait"))
        clock.now += 25 * 3600
        show(await host.fire_due_timers())  # a second miss in a row: the AI plays the seat
        shown.append(await host.status("c"))
        show(await host.back("c", bob if waiting is alice else alice))

        # ---- away and back
        away = alice if waiting is alice else bob
        show(await host.go_away(away, "2030-03-25"))
        await refused(lambda: host.go_away(away, "2030-12-31"))
        shown.append(await host.away_text(away.user_id))
        show(await host.come_back(away))

        # ---- abandon by vote, then the stats and the leaderboard
        show(await host.abandon("c", alice))
        show(await host.abandon("c", bob))
        shown.append(await host.status("c"))
        shown.append(await host.no_game_text(None, "1"))
        shown.append(records_text("alice", await player_records(host.store, "1")))
        shown.append(
            leaderboard_text("babylone", await leaderboard(host.store, "babylone", "g"), "this server")
        )
        await host.create_game("g", "c2", alice, "babylone", {}, seed=5)
        await host.join("c2", bob)
        show(await host.start("c2", alice))
        show(await host.resign("c2", alice))
        shown.append(await host.status("c2"))
        shown.append(await host.log("c2"))
        for user_id, name in (("1", "alice"), ("2", "bob")):
            shown.append(records_text(name, await player_records(host.store, user_id)))
        shown.append(
            leaderboard_text("babylone", await leaderboard(host.store, "babylone", "g"), "this server")
        )
    finally:
        await host.close()
    return [text for text in shown if text]


async def test_host_messages_off_the_babylone_path_are_fully_marked(tmp_path: Path) -> None:
    texts = await _texts(tmp_path)
    assert len(texts) > 60
    unmarked = {text: words for text in texts if (words := unmarked_words(localize(text, PSEUDO), ALLOWED))}
    assert not unmarked, "English left unmarked:\n" + "\n".join(f"{t!r}: {w}" for t, w in unmarked.items())
    polish = "\n".join(localize(text, "pl") for text in texts)
    for words in ("Twoje ustawienia", "Czekamy na", "Gra toczy się dalej", "Przypomnienie", "Czekaj dalej"):
        assert words in polish, words


def test_the_catch_up_digest_frame_and_stats_clauses_read_in_polish() -> None:
    digest = (
        "**Since your last move** (3 events)\n**bob**\n- bob moves stack 2 (2 high, red top) onto stack 8.\n"
        "- you: 1>2\n… and 2 earlier events: /log"
    )
    assert not unmarked_words(localize(digest, PSEUDO), ALLOWED)
    polish = localize(digest, "pl")
    assert "**Od twojego ostatniego ruchu** (3 zdarzenia)" in polish and "- ty: 1>2" in polish
    assert "… i 2 wcześniejsze zdarzenia: /dziennik" in polish
    line = "- **Babylone**: 5 games, 2 wins (40%); rating 22.4 ± 8.1, #2 of 7; average answer time 3 h 5 min over 21 decisions."
    assert localize(line, "pl") == (
        "- **Babylone**: 5 gier, 2 wygrane (40%); ranking 22.4 ± 8.1, miejsce 2 z 7; "
        "średni czas odpowiedzi 3 godz. 5 min przy 21 decyzjach."
    )
    assert (
        localize("Seats: 1. bob (away, AI plays), 2. alice", "pl")
        == "Miejsca: 1. bob (nieobecność, gra SI), 2. alice"
    )
    # a fixed phrase (Pharaoh's "(green)") that is also a template's own words is read with the template: the
    # PRINCIPES line stays whole rather than leave all but its colour English
    taken = "Polonia Minor takes the Progress tile Church Schools (green)."
    assert not unmarked_words(localize(taken, PSEUDO), {"Polonia", "Minor"})
    assert localize(taken, "pl") == "Polonia Minor bierze płytkę Postępu Szkoły kościelne (kolor: zielony)."
    taken = "Polonia Minor takes the Progress tile Rent in Coin (czynsz) (yellow)."
    assert not unmarked_words(localize(taken, PSEUDO), {"Polonia", "Minor"}), localize(taken, PSEUDO)


def test_the_catch_up_boards_are_captioned_in_the_readers_language() -> None:
    """The catch-up DM's two boards carry their caption in the views' language (bot.discord.common.digest_files
    sets it to the reader's)."""
    from render.digest import digest_boards
    from rules.engine import Rng, get_game

    game = get_game("babylone")
    view = game.view(game.setup(2, {}, Rng(b"1")), None)
    english = digest_boards("babylone", view, view)
    polish = digest_boards("babylone", {**view, "locale": "pl"}, {**view, "locale": "pl"})
    assert [board.caption for board in english] == ["When you last moved", "Now"]
    assert [board.caption for board in polish] == ["Przy twoim ostatnim ruchu", "Teraz"]
    assert polish[1].alt_text.startswith("Teraz:")
