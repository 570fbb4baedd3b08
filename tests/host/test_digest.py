"""The catch-up digest (bot/digest.py), pure: built by replay from the seat's own view, it shows exactly what
replaying that seat's views shows, grouped by player with names, and fits a Discord message."""

from __future__ import annotations

import json
import re

import pytest

from bot.digest import (
    MESSAGE_LIMIT,
    Digest,
    EventRecord,
    Step,
    build_digest,
    digest_text,
    escape,
    last_action_index,
)
from render.alt import name_seats
from render.digest import CAPTIONS, digest_boards
from rules.engine import ReplayRng, available_games, get_game
from tests.host.selfplayed import NAMES, Recorded, recorded

#: (game, players, seed, actions) of the self-played games the digests are built from: each available game at the
#: most players it takes, half a long sample game (``Game.exercise``)
PLAYOUTS = [
    (key, max(get_game(key).sample_players()), seed, get_game(key).exercise.actions // 2)
    for seed, key in enumerate(available_games(), start=21)
]
SEAT_NUMBER = re.compile(r"\b[Ss]eat \d")


def digest_for(played: Recorded, seat: int, last: int | None, **options: object) -> Digest:
    return build_digest(
        played.game,
        played.options,
        played.setup_draws,
        played.records,
        played.names,
        seat,
        last,
        **options,  # type: ignore[arg-type]
    )


def last_actions(played: Recorded, seat: int) -> list[int | None]:
    """A few points at which the seat last acted: never, early, in the middle and its very last action."""
    own = [index for index, record in enumerate(played.records) if record.seat == seat]
    picks: list[int | None] = [None]
    if own:
        picks += [own[0], own[len(own) // 2], own[-1]]
    return picks


def test_every_playable_game_is_covered() -> None:
    assert {key for key, *_ in PLAYOUTS} == set(available_games())


@pytest.mark.parametrize(("key", "players", "seed", "actions"), PLAYOUTS)
def test_digest_equals_what_replaying_the_seats_views_shows(
    key: str, players: int, seed: int, actions: int
) -> None:
    played = recorded(key, players, seed, actions)
    for seat in range(players):
        for last in last_actions(played, seat):
            digest = digest_for(played, seat, last, step_views=True)
            first = 0 if last is None else last + 1
            assert digest.since == first
            # the two boards: the seat's view when it last acted and now, as the host renders views
            assert digest.before == played.view(first, seat)
            assert digest.after == played.view(len(played.records), seat)
            # every event since, in order, once, grouped by runs of one player, each group after the group
            steps = [step for group in digest.groups for step in group.steps]
            assert [step.index for step in steps] == list(range(first, len(played.records)))
            for group in digest.groups:
                assert {played.records[step.index].seat for step in group.steps} == {group.seat}
                assert group.view == played.view(group.steps[-1].index + 1, seat)
            for one, two in zip(digest.groups, digest.groups[1:], strict=False):
                assert one.seat != two.seat, "consecutive events of one player are one group"
            # the events' public log lines, with names for seat numbers, and nobody else's action
            for step in steps:
                record = played.records[step.index]
                assert step.lines == tuple(name_seats(text, played.names) for _kind, text in record.log)
                assert (step.own_action is not None) == (record.seat == seat)
                assert step.by == {"ai:random": "the AI", "deadline": "the deadline"}.get(
                    record.user_id or "", ""
                )
            assert digest.event_count == len(played.records) - first


@pytest.mark.parametrize(("key", "players", "seed", "actions"), PLAYOUTS)
def test_digest_text_names_players_and_fits_a_message(
    key: str, players: int, seed: int, actions: int
) -> None:
    played = recorded(key, players, seed, actions)
    for seat in range(players):
        for last in last_actions(played, seat):
            digest = digest_for(played, seat, last)
            text = digest_text(digest)
            assert len(text) <= MESSAGE_LIMIT
            assert not SEAT_NUMBER.search(text), text
            since = "the game began" if last is None else "your last move"
            assert text.startswith(f"**Since {since}** ({digest.event_count} event")
            shown = [group for group in digest.groups if f"**{escape(group.who)}**" in text]
            telling = [group for group in digest.groups if any(_lines(step) for step in group.steps)]
            if telling:  # a group whose moves were all taken back shows nothing, not even its header
                assert telling[-1] in shown, "the latest events always show"
            left_out = re.search(r"… and (\d+) earlier events?: /log", text)
            lines_shown = sum(1 for line in text.splitlines() if line.startswith("- "))
            if left_out is None:
                assert lines_shown == sum(
                    len(_lines(step)) for group in digest.groups for step in group.steps
                )
            else:
                hidden = int(left_out.group(1))
                kept = [step for group in digest.groups for step in group.steps][hidden:]
                assert lines_shown == sum(len(_lines(step)) for step in kept), "whole events, the latest ones"


def _lines(step: Step) -> tuple[str, ...]:
    """The lines a step shows: its log lines net of moves taken back (issue 47), or the seat's own action when
    it has no log line."""
    return step.shown if step.lines else ((step.own_action,) if step.own_action else ())


def test_groups_name_players_with_what_their_pieces_show() -> None:
    played = recorded("principes", 3, 26, 120)
    digest = digest_for(played, 0, None)
    principalities = {"PMA": "Polonia Maior", "PMI": "Polonia Minor", "SIL": "Silesia"}
    seats = played.states[0]["seats"]
    for group in digest.groups:
        assert group.seat is not None
        assert group.who == f"{NAMES[group.seat]} ({principalities[seats[group.seat]]})"
    played = recorded("pharaoh", 2, 27, 30)
    colours = played.states[0]["colours"]
    assert {group.who for group in digest_for(played, 0, None).groups} == {
        f"{NAMES[seat]} ({colours[seat]})" for seat in range(2)
    }


def test_digest_from_a_snapshot_equals_the_digest_from_the_start() -> None:
    played = recorded("principes", 4, 28, 300)
    seat = 2
    last = last_action_index(played.records, seat)
    assert last is not None and last > 100
    whole = digest_for(played, seat, last)
    for snapshot in (0, 50, last, last + 1):
        assert digest_for(played, seat, last, start=(snapshot, played.states[snapshot])) == whole
    with pytest.raises(ValueError, match="after the seat's last action"):
        digest_for(played, seat, last, start=(last + 2, played.states[last + 2]))


#: (game, players, seed, actions): the games above and more PRINCIPES seeds, for the host's way of building
SNAPSHOT_PLAYOUTS = [
    *PLAYOUTS,
    ("principes", 4, 33, 350),
    ("principes", 3, 34, 300),
    ("principes", 2, 35, 250),
]
SNAPSHOT_EVERY = 25  # as the host stores them (bot.storage.SNAPSHOT_EVERY)


@pytest.mark.parametrize(("key", "players", "seed", "actions"), SNAPSHOT_PLAYOUTS)
def test_digest_from_a_stored_snapshot_to_the_current_state_equals_the_replay_from_the_setup(
    key: str, players: int, seed: int, actions: int
) -> None:
    """What the host builds (issue 46): from a snapshot as stored (through JSON) at or before the seat's last
    action, the records before it as stand-ins with only the seat and who acted, and the seat's view now from
    the current state: the same digest, text and views, as the replay of every record from the setup."""
    played = recorded(key, players, seed, actions)
    stored = [json.loads(json.dumps(state)) for state in played.states]
    compared = 0
    for seat in range(players):
        picks = {*last_actions(played, seat), last_action_index(played.records, seat, f"user-{seat}")}
        for last in picks:
            whole = digest_for(played, seat, last)
            first = 0 if last is None else last + 1
            for snapshot in sorted({0, first // SNAPSHOT_EVERY * SNAPSHOT_EVERY, first}):
                stand_ins = [
                    EventRecord(record.seat, "", user_id=record.user_id)
                    for record in played.records[:snapshot]
                ]
                records = stand_ins + played.records[snapshot:]
                assert last_action_index(records, seat, f"user-{seat}") == last_action_index(
                    played.records, seat, f"user-{seat}"
                )
                digest = build_digest(
                    played.game,
                    played.options,
                    [],
                    records,
                    played.names,
                    seat,
                    last,
                    start=(snapshot, stored[snapshot]),
                    end=stored[-1],
                )
                assert digest == whole
                assert digest_text(digest, "heading") == digest_text(whole, "heading")
                compared += 1
    assert compared >= players * 3


def test_the_current_state_spares_replaying_but_the_seats_own_events_still_read_as_actions() -> None:
    """Events the AI or a deadline played for the seat after its player's last action are described from the
    state before each: with ``end`` given they are still replayed, up to the last of them, and no further."""
    played = recorded("principes", 4, 36, 300)
    for_them = next(i for i in range(200, 300) if (played.records[i].user_id or "").startswith("ai:"))
    seat = played.records[for_them].seat
    assert seat is not None
    last = last_action_index(played.records[:for_them], seat, f"user-{seat}")
    assert last is not None
    taken = [i for i in range(last + 1, len(played.records)) if played.records[i].seat == seat]
    assert for_them in taken
    digest = digest_for(played, seat, last, end=played.states[-1])
    assert digest == digest_for(played, seat, last)
    own = [step for group in digest.groups for step in group.steps if step.index in taken]
    assert all(step.own_action for step in own) and len(own) == len(taken)


def test_last_action_index_of_the_player_skips_what_the_ai_did_for_them() -> None:
    records = [
        EventRecord(0, "a", user_id="u0"),
        EventRecord(1, "b", user_id="u1"),
        EventRecord(0, "c", user_id="ai:strong"),
        EventRecord(1, "d", user_id="u1"),
    ]
    assert last_action_index(records, 0) == 2
    assert last_action_index(records, 0, "u0") == 0
    assert last_action_index(records, 1, "u1") == 3
    assert last_action_index(records, 2) is None


def test_principes_calls_out_the_seats_own_changes() -> None:
    """Tracks, gold, hand (by title, its own hand only) and lands between the two views, from the views."""
    played = recorded("principes", 4, 29, 400)
    seen = set()
    for seat in range(4):
        for last in last_actions(played, seat):
            digest = digest_for(played, seat, last)
            code = digest.after["you"]["principality"]
            before, after = digest.before, digest.after
            text = " ".join(digest.changes)
            for key, label in (("gold", "gold"), ("people", "People"), ("clergy", "Clergy")):
                old, new = before["players"][code][key], after["players"][code][key]
                assert (f"{label} {old} → {new}" in text) == (old != new)
                if old != new:
                    seen.add(key)
            gained = set(after["you"]["hand"]) - set(before["you"]["hand"])
            for card in gained:
                assert f"Your hand: gained ({card.lower()})" in text
                seen.add("hand")
            held_before = {land for land, owner in before["control"].items() if owner == code}
            held_after = {land for land, owner in after["control"].items() if owner == code}
            assert ("Your lands:" in text) == (held_before != held_after)
            if held_before != held_after:
                seen.add("lands")
    assert {"gold", "people", "hand", "lands"} <= seen, "the game changed each of these for someone"


def _moved_on(played: Recorded, at: int, actions: list[str]) -> Recorded:
    """``played`` up to its record ``at``, then ``actions`` by that record's seat, each with its log lines."""
    seat = played.records[at].seat
    assert seat is not None
    records, states = list(played.records[:at]), list(played.states[: at + 1])
    for action in actions:
        assert action in played.game.legal_actions(states[-1], seat), action
        applied = played.game.apply(states[-1], seat, action, ReplayRng([]))
        log = [[event.kind, event.text] for event in applied.events]
        records.append(EventRecord(seat, action, [], log, f"user-{seat}"))
        states.append(applied.state)
    return Recorded(played.game, played.options, played.setup_draws, records, states, played.players)


def test_a_principes_move_and_its_takeback_show_as_neither_and_a_chain_as_one_move() -> None:
    """Issue 47: within a player's run of events, a move and its takeback show as neither, moves that bring a
    unit back where it began show nothing, and A to B then B to C shows once as A to C (in the game's own
    words); every event is still in the digest, and the digest from a snapshot is the digest from the setup."""
    from bot.hosting.catchup import _worth_a_message
    from rules.principes.data import catalog

    played = recorded("principes", 4, 25, 60)
    at = next(i for i, record in enumerate(played.records) if any(k == "move" for k, _ in record.log))
    assert played.records[at].seat == 0 and played.records[at - 1].seat != 0  # Polonia Maior's Movement
    there, back = "move knight posnania gnesna", "move knight gnesna posnania"
    state = played.game.apply(played.states[at], 0, there, ReplayRng([])).state
    onward = next(
        a for a in played.game.legal_actions(state, 0) if a.startswith("move knight gnesna ") and a != back
    )
    lands = {key: str(record["name"]) for key, record in catalog().lands.items()}
    a_to_c = f"Polonia Maior moves a Knight from Posnania to {lands[onward.split()[-1]]}."
    cases = [
        ([there, "undo"], []),
        ([there, back], []),
        ([there, "undo", there, onward], [a_to_c]),
        ([there, "undo", there, onward, "undo", "undo"], []),
    ]
    for actions, expected in cases:
        case = _moved_on(played, at, actions)
        last = last_action_index(case.records[:at], 1, "user-1")
        assert last is not None
        digest = digest_for(case, 1, last)
        group = digest.groups[-1]
        assert group.seat == 0 and [step.index for step in group.steps] == list(range(at, at + len(actions)))
        assert all(step.lines for step in group.steps), "every event is still there, with its log line"
        assert [line for step in group.steps for line in step.shown] == expected, actions
        text = digest_text(digest, limit=100_000)
        assert "takes back" not in text and "from Posnania to Gnesna" not in text
        assert (f"**{escape(group.who)}**" in text) == bool(expected), "a run that changed nothing: no header"
        first = last + 1
        assert digest_for(case, 1, last, start=(first, case.states[first])) == digest
        if not expected:
            assert all(step.cancelled for step in group.steps)
    # a move and its takeback by another player are no reason for a turn's DM to open on a digest
    two = digest_for(_moved_on(played, at, [there, "undo"]), 1, at - 1)
    assert two.event_count == 2 and not _worth_a_message(two)


def test_principes_self_play_digests_show_where_units_went_in_all() -> None:
    """Over a self-played 4-player game (random choices: Movements and the Mongols' raids full of moves taken
    back), in each player's run of events the moves shown move the units exactly as all its moves do, the
    ones taken back left out (each takeback takes back its mover's latest move); a takeback shows only when its
    move came before the run, and neither shows otherwise."""
    from collections import Counter

    from render import MovedLine, TakenBackLine
    from render.principes_text import read_move_line

    def moved(moves: list[MovedLine]) -> Counter[tuple[str, str, str]]:
        where: Counter[tuple[str, str, str]] = Counter()
        for move in moves:
            where[(move.mover, move.unit, move.origin)] -= 1
            where[(move.mover, move.unit, move.target)] += 1
        return +where + -where  # nonzero counts only, signed

    played = recorded("principes", 4, 25, 420)
    digest = digest_for(played, 0, None)
    taken_back = 0
    for group in digest.groups:
        moves: list[MovedLine] = []
        for step in group.steps:
            for kind, text in played.records[step.index].log:
                reading = read_move_line(kind, text)
                if isinstance(reading, MovedLine):
                    moves.append(reading)
                elif isinstance(reading, TakenBackLine):
                    mine = [i for i, move in enumerate(moves) if move.mover == reading.mover]
                    assert (text in step.shown) == (not mine)
                    if mine:
                        del moves[mine[-1]]
                        taken_back += 1
        shown = [read_move_line(kind, line) for step in group.steps for line in step.shown for kind in KINDS]
        assert moved(moves) == moved([line for line in shown if isinstance(line, MovedLine)])
    assert taken_back > 40
    lines = sum(len(step.lines) for group in digest.groups for step in group.steps)
    assert sum(len(step.shown) for group in digest.groups for step in group.steps) <= lines - 2 * taken_back


#: the log kinds of PRINCIPES' unit moves (a Movement's, an army's)
KINDS = ("move", "neighbour_move")


def test_digest_text_cuts_the_earliest_events_and_says_where_to_read_them() -> None:
    played = recorded("principes", 4, 30, 400)
    digest = digest_for(played, 0, None)
    text = digest_text(digest)
    assert len(text) <= MESSAGE_LIMIT
    match = re.search(r"\n… and (\d+) earlier events: /log\n", text)
    assert match is not None and 0 < int(match.group(1)) < digest.event_count
    last_lines = [step for group in digest.groups for step in group.steps if step.lines][-1].lines
    assert text.endswith(f"- {escape(last_lines[-1])}")
    short = digest_text(digest, heading="**PRINCIPES #7**: since your last move", limit=400)
    assert len(short) <= 400 and short.startswith("**PRINCIPES #7**")


def test_names_are_plain_text_in_markdown() -> None:
    assert escape("*bob*_the|~great~`") == "\\*bob\\*\\_the\\|\\~great\\~\\`"


def test_nothing_happened() -> None:
    played = recorded("babylone", 2, 31, 6)
    digest = digest_for(played, played.records[-1].seat or 0, len(played.records) - 1)
    assert digest.groups == () and digest.before == digest.after
    assert digest_text(digest).endswith("Nothing has happened since your last move.")


@pytest.mark.parametrize("key", ["principes", "the-prince", "babylone"])
def test_digest_boards_are_the_two_views_captioned(key: str) -> None:
    from render import alt_text, render_view

    played = recorded(key, 2, 32, 40)
    digest = digest_for(played, 1, last_action_index(played.records[:20], 1))
    boards = digest_boards(key, digest.before, digest.after)
    assert [board.caption for board in boards] == list(CAPTIONS)
    for board, view in zip(boards, (digest.before, digest.after), strict=True):
        plain = render_view(key, view)
        assert board.image.width == plain.width and board.image.height > plain.height
        below = board.image.crop((0, board.image.height - plain.height, plain.width, board.image.height))
        assert below.convert("RGB").tobytes() == plain.convert("RGB").tobytes(), "the board itself, unchanged"
        assert board.alt_text.startswith(f"{board.caption}: ") and len(board.alt_text) <= 1024
        assert board.alt_text.split(": ", 1)[1][:200] == alt_text(key, view)[:200]
    assert json.dumps(boards[0].alt_text)  # plain text, ready for an attachment's description


def test_digest_pngs_are_the_boards_encoded_and_kept_by_what_they_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The PNGs the front-end posts (``bot.discord.common.digest_files``) are the two captioned boards, encoded;
    asked again for equal views (other objects, as a kept answer or another process's rebuild gives them), none
    is drawn again; another language, or another view, is drawn anew."""
    import copy

    from render import digest as rendered
    from render import in_language
    from render.common import encode_png

    played = recorded("principes", 2, 32, 40)
    digest = digest_for(played, 1, last_action_index(played.records[:20], 1))
    rendered.PNGS.clear()
    drawn = rendered.digest_pngs("principes", digest.before, digest.after)
    boards = digest_boards("principes", digest.before, digest.after)
    assert drawn == [(encode_png(board.image), board.alt_text) for board in boards]

    calls: list[str] = []
    draw = rendered.digest_board

    def counted(game_key: str, view: dict, caption: str) -> rendered.CaptionedBoard:
        calls.append(caption)
        return draw(game_key, view, caption)

    monkeypatch.setattr(rendered, "digest_board", counted)
    again = rendered.digest_pngs("principes", copy.deepcopy(digest.before), copy.deepcopy(digest.after))
    assert again == drawn and calls == []
    polish = rendered.digest_pngs(
        "principes", in_language(digest.before, "pl"), in_language(digest.after, "pl")
    )
    assert calls == list(CAPTIONS) and polish[0][0] != drawn[0][0]
    calls.clear()
    rendered.digest_pngs("principes", digest.before, digest.before)  # the first board is the one kept
    assert calls == [CAPTIONS[1]]
    assert rendered.PNGS.size <= rendered.PNG_CACHE_BYTES
