"""Issue 42, part 1: away mode is for being away, not for borrowing the strongest AI on a hard move.

A spell lasts at least a day and counts whole days; the decision waiting for the seat when its player leaves stays
theirs (its deadline as usual), only later ones go to the stand-in; in a rated game the stand-in is the game's
modest AI level, and a seat the AI played for more than 10% of its decisions is left out of the ratings."""

from __future__ import annotations

import pytest

from bot.host import Host, HostError
from bot.ratings import summarise
from bot.replay import load_log, steps
from bot.stats import player_records
from tests.conftest import ALICE, BOB, CAROL

DAY = 86400.0


async def _start(host: Host, channel: str, *, rated: bool = True, players: int = 2) -> int:
    options = {"first": "1"} if rated else {"first": "1", "rated": "no"}
    info = await host.create_game("g1", channel, ALICE, "babylone", options, deadline_hours=24)
    await host.join(channel, BOB)
    if players == 3:
        await host.join(channel, CAROL)
    await host.start(channel, ALICE, order="given")
    return info.game_id


async def _deadline_seats(host: Host, game_id: int) -> set[int]:
    rows = await host.store.fetchall(
        "SELECT seat FROM timers WHERE game_id = ? AND kind = 'deadline'", (game_id,)
    )
    return {row["seat"] for row in rows}


async def _answer(host: Host, game_id: int, actor) -> None:
    prompt = await host.prompt_of(game_id, actor.user_id)
    assert prompt is not None, f"{actor.name} has no decision"
    await host.act(game_id, actor, prompt.choices[0].action, prompt.decision_id)


async def test_a_two_minute_away_on_ones_own_turn_in_a_rated_game_borrows_no_move(host: Host, clock) -> None:
    """The issue's report: alice, on her own turn in a rated game, asks to be away for two minutes: refused, a
    spell lasts at least a day."""
    game_id = await _start(host, "c1")
    assert (await host.game_info(game_id)).pending_users == [ALICE.user_id]
    with pytest.raises(HostError, match="at least a day"):
        await host.go_away(ALICE, f"<t:{int(clock.now + 120)}>", guild_id="g1")
    assert await host.away_until(ALICE.user_id) is None
    assert not await host.store.events(game_id, 0)


async def test_the_decision_waiting_when_away_begins_stays_with_the_player(host: Host, clock) -> None:
    """Away for a day on her own turn in a rated game: the decision already waiting for alice stays hers (no
    stand-in answers it, her deadline runs) and she answers it herself. Only her next decision goes to the
    stand-in, the game's modest level (easy, not the exact solver), shown as such in /log; she cannot take the
    stand-in's move back. Back after two minutes, the spell counts one whole day."""
    game_id = await _start(host, "c1")
    left = await host.go_away(ALICE, f"<t:{int(clock.now + DAY + 60)}>", guild_id="g1")
    assert not await host.store.events(game_id, 0), "a stand-in answered the decision waiting for alice"
    info = await host.game_info(game_id)
    assert info.pending_users == [ALICE.user_id] and not info.seats[0].is_ai
    assert 0 in await _deadline_seats(host, game_id)  # her deadline runs as usual
    said = [d.text for d in left if d.kind == "public" and d.channel_id == "c1"]
    assert any("The decision waiting for them stays theirs" in text for text in said), said
    await _answer(host, game_id, ALICE)  # she answers it herself
    await _answer(host, game_id, BOB)
    events = await host.store.events(game_id, 0)
    assert [e.user_id for e in events] == [ALICE.user_id, BOB.user_id, "ai:easy"]
    with pytest.raises(HostError, match="/away off"):
        await host.undo("c1", ALICE)  # nor can she take the stand-in's move back and play it herself
    clock.advance(120)
    await host.come_back(ALICE)
    assert "Away days used in 2027: 1 of 14." in await host.away_text(ALICE.user_id)
    lines = (await host.log("c1")).splitlines()
    by_seq = {seq: [line for line in lines if line.startswith(f"{seq}. ")] for seq in (1, 2, 3)}
    assert by_seq[3] and all(line.endswith(" (stand-in)") for line in by_seq[3]), lines
    assert not any("(stand-in)" in line for line in by_seq[1] + by_seq[2]), lines


async def test_an_unrated_game_keeps_the_strongest_stand_in(host: Host, clock) -> None:
    game_id = await _start(host, "c1", rated=False)
    await _answer(host, game_id, ALICE)
    await host.go_away(ALICE, "2027-01-17", guild_id="g1")  # not her turn: nothing waits for her
    assert (await host.game_info(game_id)).seats[0].is_ai
    await _answer(host, game_id, BOB)
    events = await host.store.events(game_id, 0)
    assert [e.user_id for e in events] == [ALICE.user_id, BOB.user_id, "ai:perfect"]


async def test_away_spells_count_whole_days_and_moving_the_end_keeps_the_spell(host: Host, clock) -> None:
    await _start(host, "c1")
    await host.go_away(ALICE, f"<t:{int(clock.now + DAY + 3600)}>", guild_id="g1")
    assert await host.away_days_used(ALICE.user_id, 2027) == 2  # a day and an hour: two days
    await host.go_away(ALICE, f"<t:{int(clock.now + 3 * DAY)}>", guild_id="g1")  # the end moves
    assert await host.away_days_used(ALICE.user_id, 2027) == 3
    clock.advance(3600)
    with pytest.raises(HostError, match="at least a day"):  # not shorter than a day from its start
        await host.go_away(ALICE, f"<t:{int(clock.now + 600)}>", guild_id="g1")
    await host.come_back(ALICE)
    assert await host.away_days_used(ALICE.user_id, 2027) == 1
    assert "Away days used in 2027: 1 of 14." in await host.away_text(ALICE.user_id)


async def test_the_decision_kept_by_an_away_player_falls_to_its_deadline_default(
    host: Host, clock, sealed_game
) -> None:
    """Away in a game whose decisions have a deadline default: the waiting decision stays with alice; when she
    lets its deadline pass the default answers it, as for anyone, and the stand-in takes her next ones."""
    info = await host.create_game("g1", "s1", ALICE, sealed_game.key, {}, deadline_hours=2)
    await host.join("s1", BOB)
    await host.start("s1", ALICE, order="given")
    await host.go_away(ALICE, "2027-01-18", guild_id="g1")
    assert not (await host.game_info(info.game_id)).seats[0].is_ai
    await host.act(info.game_id, BOB, "pick 2")
    clock.advance(2 * 3600)
    await host.fire_due_timers()
    events = await host.store.events(info.game_id, 0)
    assert [(e.seat, e.user_id) for e in events] == [(0, "deadline"), (1, BOB.user_id)]
    assert (await host.game_info(info.game_id)).seats[0].is_ai  # her later decisions: the stand-in
    await host.act(info.game_id, BOB, "pick 3")
    assert (await host.store.events(info.game_id, 0))[2].user_id == "ai:random"


async def test_a_seat_the_ai_played_beyond_the_share_is_left_out_and_the_others_are_rated(
    host: Host, clock
) -> None:
    """Three players; alice is away from the start and the stand-in plays all her seat: her seat is left out of
    the ratings, bob and carol are rated between themselves."""
    await host.go_away(ALICE, "2027-01-20", guild_id="g1")
    game_id = await _start(host, "c1", players=3)
    actors = {BOB.user_id: BOB, CAROL.user_id: CAROL}
    for _ in range(500):
        info = await host.game_info(game_id)
        if info.status != "active":
            break
        await _answer(host, game_id, actors[info.pending_users[0]])
    result = await host.store.fetchone("SELECT rated FROM results WHERE game_id = ?", (game_id,))
    assert result["rated"] == 1
    seats = await host.store.fetchall(
        "SELECT player, unrated_reason, mu_after FROM result_seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    assert seats[0]["player"] == ALICE.user_id and seats[0]["mu_after"] is None
    assert "the AI" in seats[0]["unrated_reason"] and "more than 10%" in seats[0]["unrated_reason"]
    assert all(seat["mu_after"] is not None for seat in seats[1:])
    ratings = await host.store.fetchall("SELECT player FROM ratings WHERE kind = 'babylone'")
    assert {row["player"] for row in ratings} == {BOB.user_id, CAROL.user_id}
    (alice,) = await player_records(host.store, ALICE.user_id)
    (bob,) = await player_records(host.store, BOB.user_id)
    assert (alice.games, alice.rated_games, bob.rated_games) == (1, 0, 1)  # /stats: a game, not a rated one
    # the replay shows the stand-in's moves as such
    moves = steps(await load_log(host.store, game_id))[1:-1]  # the last step shows the result instead
    said = [step.line for step in moves if step.seat == 0]
    assert said and all(line.endswith("(stand-in)") for line in said), said[:3]


def _event(seq: int, seat: int | None, actor: str) -> dict:
    return {"seq": seq, "seat": seat, "action": "a", "user_id": actor, "created_at": float(seq), "undone": 0}


def _summary(actors: list[tuple[int, str]], people: int = 2):
    game = {"id": 1, "kind": "babylone", "guild_id": "g", "result": '{"winners": [0]}', "rated": 1}
    seats = [
        {"seat": n, "user_id": "abc"[n], "name": "Ann Ben Cid".split()[n], "ai_level": None}
        for n in range(people)
    ]
    events = [_event(0, None, "a"), *(_event(n, seat, actor) for n, (seat, actor) in enumerate(actors, 1))]
    return summarise(game, seats, events, [], ["first", "second", "third"][:people], 99.0)


def test_an_ai_share_beyond_a_tenth_leaves_the_seat_out() -> None:
    from bot.ratings import AI_STAND_IN_SHARE

    assert AI_STAND_IN_SHARE == 0.10
    ann = [(0, "a")] * 9
    ben = [(1, "b")] * 10
    kept = _summary([*ann, (0, "ai:easy"), *ben])  # 1 of 10: exactly the share
    assert kept.rated and all(seat.rated for seat in kept.seats)
    out = _summary([*ann[:8], (0, "ai:easy"), (0, "ai:easy"), *ben])  # 2 of 10: beyond it
    assert not out.rated and "Ann's seat was played by the AI for 2 of its 10 decisions" in str(
        out.unrated_reason
    )
    three = _summary([*ann[:8], (0, "ai:easy"), (0, "ai:easy"), *ben, *[(2, "c")] * 5], people=3)
    assert three.rated and [seat.rated for seat in three.seats] == [False, True, True]
    assert "more than 10%" in str(three.seats[0].unrated_reason)


def test_the_new_sentences_read_in_polish() -> None:
    from i18n import PSEUDO, localize, unmarked_words

    texts = [
        "3. alice moves stack 6 (1 high, red top) onto stack 5. (stand-in)",
        "4. bob moves stack 2 (2 high, red top) onto stack 8. (automatic pass)",
        "Babylone #4 is not rated: alice's seat was played by the AI for 2 of its 9 decisions, more than 10%.",
        "Left out of the ratings: carol's seat was played by a stand-in (AI, deadline default or substitute) "
        "for 3 of its 8 decisions, more than 25%.",
        "Away mode is for being away: a spell lasts at least a day. Choose a moment at least 24 hours after it "
        "begins.",
        "alice is away until <t:1800086400:f>: the AI (easy) plays for them.",
    ]
    allowed = {"alice", "bob", "carol", "Babylone", "easy"}
    for text in texts:
        assert not unmarked_words(localize(text, PSEUDO), allowed), localize(text, PSEUDO)
    assert localize(texts[0], "pl").endswith(" (zastępstwo)")
    assert "za miejsce alice SI podjęła 2 z 9 decyzji" in localize(texts[2], "pl")
