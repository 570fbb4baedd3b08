"""Read-only questions (board, hand, log, status, autocomplete) and per-user settings."""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import math
import re
import statistics
from collections.abc import Callable, Collection
from typing import Any

from i18n import DEFAULT
from rules.engine import (
    Decision,
    get_game,
    listing,
    plural,
)
from rules.engine.pace import (
    LogPace,
    ProgressMoments,
    SelfPlayPace,
    log_pace,
    progress_moments,
    quantile,
    self_play_pace,
)
from rules.engine.playout import setup_state
from rules.engine.registry import package_of
from rules.engine.rng import seed_scheme
from rules.engine.standing import recommended_orders

from ..models import Actor, Choice, Clicked, GameInfo, HostError, Prompt, Snapshot
from ..replay import AUTOPASS, actor_mark
from ..storage import Store
from ..storage import decisions as stored_decisions
from ..storage import games as stored_games
from ..storage import messages as stored_messages
from ..storage import settings as stored_settings
from ..storage import timers as stored_timers
from ..verify import EXPORT_FORMAT, EXPORT_VERSION, OVER, Verdict, chance_ranges, verify_export
from ..workers import Workers
from . import live as telling
from . import notify, rules_pages
from .core import (
    CARD_KEY,
    KNOWN_GAMES,
    Games,
    Live,
    LruCache,
    user_language_from,
)
from .live import kind_words
from .rules_pages import notes_sections as notes_sections  # where tests and tools look for it
from .standing import orders_summary

#: ``@everyone``, ``@here`` and ``<@id>``/``<@&id>`` mentions: an imported name or log line must never ping
_MENTION = re.compile(r"@(?=everyone|here|&|!|\d)|<@")


async def games_awaiting_ai(store: Store) -> list[int]:
    """Games in progress that may wait on an AI seat alone, after a crash between a person's move and the AI's
    answer: those with an AI seat (or a seat the AI stands in for) and no timer.

    A game waiting on a person always has that person's deadline timer (every stored change re-arms them),
    so no other game needs loading at start-up. A game waiting on a person and an AI at once (a sealed
    decision) is left out: the person's answer, or their deadline, lets the AI play then.
    """
    return await stored_games.games_awaiting_ai(store)


#: a game's options, as a key: (name, value) pairs in name order
OptionsKey = tuple[tuple[str, str], ...]


def _self_play_pace(game_key: str, players: int, options: OptionsKey) -> SelfPlayPace:
    """A game's waits in self-play, whole and per Round (run in ``ESTIMATES``' process), every seat holding the
    orders a game begins with for a player who sets nothing (``/settings orders``' default)."""
    game = get_game(game_key)
    shipped = recommended_orders(game) if notify.DEFAULTS["orders"] == "on" else None
    return self_play_pace(game, players, options=dict(options), orders=shipped)


#: the process that self-plays the games behind an estimate of the time to finish (issue 46: three games of
#: the slowest game are over 3 s of Python, which in a thread held the interpreter's lock the bot's loop needs)
ESTIMATES = Workers(1)
atexit.register(ESTIMATES.shutdown)
#: (game, players, options) -> its waits in self-play, once computed; and those being computed
_EXPECTED: dict[tuple[str, int, OptionsKey], SelfPlayPace] = {}
_EXPECTING: dict[tuple[str, int, OptionsKey], asyncio.Future[SelfPlayPace]] = {}


async def self_played(game_key: str, players: int, options: OptionsKey) -> SelfPlayPace:
    """A game's waits in self-play, whole and per Round (``rules.engine.pace.self_play_pace``), computed once per
    game, player count and options in a worker process; asked again meanwhile, the computation under way is
    awaited."""
    key = (game_key, players, options)
    if key in _EXPECTED:
        return _EXPECTED[key]
    loop = asyncio.get_running_loop()
    running = _EXPECTING.get(key)
    if running is None or running.get_loop() is not loop:  # a test's earlier event loop is gone
        # a game registered at run time (a test's) or changed at run time is unknown to the worker: a thread
        shared = package_of(game_key) is not None and not vars(get_game(game_key))
        work = (
            ESTIMATES.run(_self_play_pace, game_key, players, options)
            if shared
            else asyncio.to_thread(_self_play_pace, game_key, players, options)
        )
        running = _EXPECTING[key] = asyncio.ensure_future(work)
    try:
        # shielded: an asker that gives up (a bot closing) leaves the computation to the others
        _EXPECTED[key] = value = await asyncio.shield(running)
    finally:
        if running.done() and _EXPECTING.get(key) is running:
            del _EXPECTING[key]
    return value


#: the spread of the number of waits still to come, relative (the waits of a Round vary from one to the next,
#: and a game may end before its last Round): its rms log error over 30 simulated 4-player games of Rounds read
#: at the start of Rounds 2-5 was 0.20-0.22 (``tests/host/test_time_to_finish.py``); with the uncertainty of the
#: mean wait and of the sum of the waits to come, the range shown is the estimate times exp(+- ``RANGE_Z`` times
#: all three)
WAITS_SPREAD = 0.2
RANGE_Z = 1.28
#: the earlier games of a table its time to finish reads (the latest first), and how many waits of this game's
#: weigh as much as their pace (``Queries._estimate``): some three Rounds' of a 4-player game of six Rounds, so that
#: a table whose pace has changed since (a new player, a holiday) shows it within a game
TABLE_GAMES = 5
TABLE_WEIGHT = 45.0
#: for a table new to the game, the earlier games of anyone on its server stand in for its own; people differ, so
#: this game's own pace weighs more against theirs: as much as theirs at some 15 waits (a first Round's)
SERVER_WEIGHT = 15.0
#: how much a game's time from a Round on varies between games of the same table, relative (rms log; some 0.15 at
#: Round 2 and 0.2 at Round 4 over 40 simulated 4-player games of one table): the range's spread with fewer than
#: three earlier games to measure it from
TABLE_SPREAD = 0.2


def _window(decision: Decision) -> bool:
    """A card window (``Decision.timing``), whose pass may be the automatic one: which it was is the seat's secret
    while the game runs (issue 42), so the time to finish counts every person's window as a wait whoever answered
    it (every seat that could act is asked, whatever its hand) and samples none of their answer times."""
    return decision.timing == "window"


def _span(likely: float, relative: float, at_round: bool) -> str:
    """The time to finish's opening: its range, +- ``RANGE_Z`` times the ``relative`` uncertainty (a log), and its
    most likely value; ``at_round``: read at the start of the current Round."""
    low, high = likely * math.exp(-RANGE_Z * relative), likely * math.exp(RANGE_Z * relative)
    span = f"Time to finish: about {_duration(low)} to {_duration(high)}, most likely {_duration(likely)}"
    return f"{span} (read at the start of this Round)" if at_round else span


def _holdup(live: Live, pace: LogPace) -> str:
    """Who has held the game up most so far (" ..." as a sentence of its own), from the answer times sampled."""
    per_seat: dict[int, float] = {}
    for seat, seconds in pace.samples:
        per_seat[seat] = per_seat.get(seat, 0.0) + seconds
    if not per_seat:
        return ""
    slowest = max(per_seat, key=lambda seat: per_seat[seat])
    return f" {live.seats[slowest].name} holds the game up most ({_duration(per_seat[slowest])} of waiting so far)."


def _duration(seconds: float) -> str:
    """A span as a person says it: "40 min", "5 h", "3 days"."""
    if seconds < 60:
        return "under a minute"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    if seconds < 48 * 3600:
        return f"{round(seconds / 3600)} h"
    return f"{round(seconds / 86400)} days"


class Queries:
    """What front-ends ask without changing a game: status, boards, hands, logs, exports, settings, prompts."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def suggestions(self, game_id: int, user_id: str, typed: str = "", limit: int = 25) -> list[Choice]:
        """The user's legal actions containing ``typed``; once their sealed choice is in, only free actions."""
        live = await self.games.load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return []
        sealed = await self.games.sealed_for(live) if live.game.pending(live.state).get(seat) else {}
        typed = typed.strip().lower()
        choices = []
        for action in live.game.legal_actions(live.state, seat):
            if seat in sealed and not live.game.is_free(live.state, seat, action):
                continue
            label = telling.named(live, live.game.describe(live.state, action))
            if typed in action.lower() or typed in label.lower():
                choices.append(Choice(action, label if label == action else f"{action} — {label}"))
                if len(choices) >= limit:
                    break
        return choices

    async def is_sealed_input(self, game_id: int, user_id: str) -> bool:
        live = await self.games.load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return False
        decision = live.game.pending(live.state).get(seat)
        return bool(decision and decision.sealed) or live.game.hidden_information

    async def board(self, channel_id: str, region: str | None = None) -> Snapshot:
        live = await self.games.live_in_channel_or_last(channel_id)
        if not live.state:
            raise HostError("The game has not started yet.")
        sealed = await self.games.sealed_for(live) if live.row["status"] == "active" else {}
        return Snapshot(live.row["kind"], self._status_text(live, sealed), telling.seat_view(live, None))

    async def hand(self, channel_id: str, actor: Actor) -> Snapshot:
        live = await self.games.live_in_channel_or_last(channel_id)
        seat = self.games.seat_for(live, actor)
        if not live.state:
            raise HostError("The game has not started yet.")
        text = f"{live.game.title} #{live.id}, {seat.name}'s view."
        if live.row["status"] in OVER:
            text += f" {self.games.over_text(live)}"
        elif decision := live.game.pending(live.state).get(seat.seat):
            sealed = await self.games.sealed_for(live) if decision.sealed else {}
            if seat.seat in sealed:
                others = [s for s, d in live.game.pending(live.state).items() if s not in sealed]
                waiting = listing([live.seats[s].name for s in sorted(others)]) or "the reveal"
                text += f" You have sealed your choice ({kind_words(decision.kind)}); waiting for {waiting}."
            else:
                text += f" Your decision: {decision.prompt}"
        if live.row["status"] == "active" and (coming := live.game.ahead(live.state).get(seat.seat)):
            text += f"\nComing to you: {coming.prompt} /ahead shows its answers and answers it now."
        if live.game.standing_topics and live.row["status"] not in OVER:
            text += "\n" + orders_summary(live.game, live.orders.get(actor.user_id, {}))
        return Snapshot(live.row["kind"], telling.named(live, text), telling.seat_view(live, seat.seat))

    async def prompt_of(self, game_id: int, user_id: str) -> Prompt | None:
        """The caller's open decision as a prompt (for the "Open my hand" fallback and /game status)."""
        return self._open_prompt(await self.games.load(game_id), user_id)

    async def click_context(self, game_id: int, user_id: str, locale: str) -> Clicked:
        """What a click on a game's choice reads before the move, in one call (issue 44): the game, the
        clicker's open decision and the language their answer reads in; the locale of their client is noted
        on the way (stored only when it changed)."""
        live = await self.games.load(game_id)
        settings = await stored_settings.language_settings(self.games.store, user_id)
        await self.games.remember_locale(user_id, settings, locale)
        return Clicked(
            self.games.info(live), self._open_prompt(live, user_id), user_language_from(settings, locale)
        )

    def _open_prompt(self, live: Live, user_id: str) -> Prompt | None:
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return None
        decision = live.game.pending(live.state).get(seat)
        return self.games.prompt_for(live, seat, decision) if decision else None

    def _status_text(self, live: Live, sealed: Collection[int] = ()) -> str:
        """The game, then whom it waits for (``sealed``: seats whose sealed choice is in), or its result."""
        if live.row["status"] in OVER:
            return self.games.over_text(live)
        head = f"{live.game.title} #{live.id} ({live.row['status']})"
        lines = [head, *telling.waiting_lines(live, live.game.pending(live.state), sealed)]
        return telling.named(live, "\n".join(lines))

    async def status(self, channel_id: str) -> str:
        """The channel's game: whom it waits for and until when; right after it ended, its result."""
        info = await self.games.game_in_channel(channel_id)
        if info is None:
            return await self.games.no_game_text(channel_id)
        live = await self.games.load(info.game_id)
        if live.row["status"] == "lobby":
            return self.games.info(live).lobby_text()
        sealed = await self.games.sealed_for(live) if live.row["status"] == "active" else {}
        lines = [self._status_text(live, sealed)]
        deadlines = await self._waiting_since(live)
        lines += deadlines or [f"Waiting since <t:{int(live.row['updated_at'])}:R>."]
        lines.append("Seats: " + ", ".join(f"{s.seat + 1}. {s.label}" for s in live.seats))
        if live.row["status"] == "active":
            lines.append(await self._time_to_finish(live))
        return "\n".join(lines)

    @functools.cached_property
    def _finish_lines(self) -> LruCache[int, tuple[tuple[Any, ...], str]]:
        """game id -> (what the line was computed for, the time-to-finish line): a repeated /game status of an
        unchanged game replays nothing."""
        return LruCache(KNOWN_GAMES)

    async def _time_to_finish(self, live: Live) -> str:
        """How long the rest of the game may take (``_estimate``), kept until the game changes."""
        key = (live.version, tuple((seat.name, seat.is_ai) for seat in live.seats))
        kept = self._finish_lines.get(live.id)
        if kept is not None and kept[0] == key:
            return str(kept[1])
        line = await self._estimate(live)
        self._finish_lines[live.id] = (key, line)
        return line

    async def _estimate(self, live: Live) -> str:
        """How long the rest of the game may take, from its own pace so far (issue 47) and, where its table or its
        server has played this game before, their earlier games' (``_table_pace``).

        The waits: a wait runs from its start until the last of the seats asked at its start answered (stored
        event times; a sealed choice's own moment): a decision asked of several seats at once (a sealed plan, the
        option ``together``) waits for the slowest. Only a person's answer is waited for: the AI's, a standing
        order's, an answer given ahead (``automatic_answers``) and the automatic pass's are automatic. A
        deadline's default is not: the game waited for the person until then. A person's card window is a wait
        however it was answered, weighed by the share of windows that do not pass by themselves
        (``Game.window_pass_share``).

        The waits to come: a game whose rules tell the share played (``Game.progress``, its Rounds) is read at the
        start of its current Round (so the line changes Round by Round, never with one window's automatic pass),
        and its waits to come are its waits so far times the self-played waits of the Rounds still to play over
        those of the Rounds played (``SelfPlayPace.later_over_earlier``): Rounds differ (a game's first Round may
        ask more, as a Period's first asks its Princes). Another game's come from a whole self-played game
        (``self_played``).

        The time per wait: the game's time so far over its waits so far, so that the time the waits to come
        stand for is counted as the waits so far were (the windows weighed alike, a player's further decisions
        in the same sitting, the automatic answers' seconds): for a Round game the estimate is the time so far
        times the Rounds to come's waits over those played. Against the mean answer time of the timed waits (the
        estimate before), on 20 simulated 4-player first games (``tests/host/test_time_to_finish.py``'s players,
        seeds 1-20) at Rounds 2 and 4: within 35% of what remained in 13 and 13 of 20 (10 and 10 before), rms log
        error 0.31 and 0.30 (0.34 and 0.33), bias +6% and +14% (+17% and +22%).

        What one game's first Round can tell is little: its waits' times spread so (a person's answer time is
        heavy-tailed) that the mean of 13 of them is off by 30% as often as not, and a game's later Rounds ask
        from half to twice as much as its first; even an estimate that knew the true number of waits to come and
        the players' true mean answer time missed 35% in 2 and 4 of 40 readings. So where the same table
        (``_table_pace``) has finished this game before, the estimate is their mean time from this point to
        their end, times this game's time to here over theirs raised to the weight of this game's waits so far,
        w = waits / (waits + ``TABLE_WEIGHT``): at Round 2 (some 15 waits) this game's own pace weighs a quarter,
        at Round 4 (45) a half. One table playing 20 games in a row, read from its fourth: within 35% in 16 of
        17 readings at Round 2 and 16 of 17 at Round 4, rms log error 0.16 and 0.19, bias -2% and +1%. A table new
        to the game on a server that has hosted it goes by the server's earlier games the same way, its own pace
        weighing more (``SERVER_WEIGHT``: a half at Round 2, three quarters at Round 4), since other people's pace
        tells less of this table's: new people at each of 20 games on one server, read from the fourth: 16 of 17
        and 15 of 17 within 35%, rms 0.18 and 0.21. Only a server's first games go by their own pace alone.

        The range: without earlier games, the uncertainty of the time per wait (the timed waits' spread over
        their number), of the sum still to come (the same spread over the waits to come) and of the number of
        waits to come (``WAITS_SPREAD``); with earlier games, how much their times from here vary
        (``TABLE_SPREAD`` with fewer than three), and the uncertainty of their mean; +- ``RANGE_Z`` of them.
        What remained fell inside it in 34 of 40 first-game readings at Rounds 2 and 4, 27 of 34 of the table's
        and 27 of 34 of the server's."""
        events = await self.games.store.events(live.id, -1)
        game, players = live.game, live.row["num_players"]
        start = setup_state(game, players, json.loads(live.row["options"]), events[0])
        pace = await asyncio.to_thread(
            log_pace,
            game,
            start,
            [(event, event.created_at) for event in events[1:]],
            events[0].created_at,
            await self._automatic(live, events),
            await stored_decisions.sealing_times(self.games.store, live.id),
            [seat.seat for seat in live.seats if seat.is_ai],
            game.progress(live.state) is not None,
            _window,
            lambda index: events[index + 1].user_id == "deadline",
        )
        # a person's window is a wait only when it did not pass by itself: weighed by the share that does not
        waits = pace.waits - pace.unsampled_waits * game.window_pass_share
        options = tuple(sorted(json.loads(live.row["options"]).items()))
        played = await self_played(game.key, players, options)
        later = played.later_over_earlier(pace.share) if pace.share is not None else None
        to_come = max(1.0, waits * later if later is not None else played.waits - waits)
        elapsed = pace.at - events[0].created_at
        scope, table = await self._table_pace(live, pace.share) if pace.share is not None else ("table", [])
        if table and elapsed > 0:
            return self._table_line(live, pace, scope, table, (elapsed, waits, to_come))
        # each wait as long as it lasted, those that ran to the deadline included: min(answer time, deadline)
        times = sorted([*pace.wait_times, *pace.expired_times])
        if len(times) < 2 or pace.waits < 2 or pace.elapsed <= 0:
            return (
                f"Time to finish: about {plural(round(to_come), 'more wait')} for a player; too few answers "
                "yet to say how long they take."
            )
        per_wait = pace.elapsed / max(1.0, waits)
        mean = statistics.fmean(times)
        spread = statistics.stdev(times) / mean if mean > 0 else 0.0
        relative = math.sqrt(spread**2 / len(times) + spread**2 / to_come + WAITS_SPREAD**2)
        return (
            f"{_span(to_come * per_wait, relative, pace.share is not None)}: about "
            f"{plural(round(to_come), 'more wait')} for a player, at this game's pace so far of "
            f"{_duration(per_wait)} per wait (median answer {_duration(quantile(times, 0.5))}, {len(times)} answers "
            f"so far).{_holdup(live, pace)}"
        )

    @staticmethod
    def _table_line(
        live: Live,
        pace: LogPace,
        scope: str,
        table: list[tuple[float, float]],
        here: tuple[float, float, float],
    ) -> str:
        """The time to finish from earlier games (``_table_pace``: whose, and what each took to here and from
        here) and this game's time to here, its waits so far and those to come (``here``, ``_estimate``)."""
        elapsed, waits, to_come = here
        before = statistics.fmean(b for b, _after in table)
        after = statistics.fmean(a for _before, a in table)
        weight = waits / (waits + (TABLE_WEIGHT if scope == "table" else SERVER_WEIGHT))
        likely = after * (elapsed / before) ** weight
        spread = statistics.stdev(math.log(a) for _before, a in table) if len(table) >= 3 else TABLE_SPREAD
        relative = spread * math.sqrt(1 + 1 / len(table))
        whose = "this table's" if scope == "table" else "this server's"
        return (
            f"{_span(likely, relative, True)}: from here {whose} earlier games took {_duration(after)} (mean "
            f"of {len(table)}), and this one got here in {round(100 * elapsed / before)}% of their time; about "
            f"{plural(round(to_come), 'more wait')} for a player.{_holdup(live, pace)}"
        )

    async def _automatic(self, live: Live, events: list[Any]) -> Callable[[int, int, Decision | None], bool]:
        """Whether event ``index`` (of ``events`` after the setup) was an automatic answer, for ``log_pace``."""
        by_order = await stored_decisions.automatic_answers(self.games.store, live.id)

        def automatic(index: int, seat: int, decision: Decision | None) -> bool:
            actor = events[index + 1].user_id or ""
            if actor.startswith("ai:"):
                return True
            if decision is not None and _window(decision):
                return False  # whoever answered: see ``_window``
            return actor == AUTOPASS or (decision.id if decision else None, seat) in by_order

        return automatic

    async def _table_pace(self, live: Live, share: float) -> tuple[str, list[tuple[float, float]]]:
        """The pace of the earlier games that tell this one's (``TABLE_GAMES`` at most, the latest first), and
        whose they are: "table", the finished games of this game (under today's rules), player count, options and
        server where at least half of this game's people sat; else "server", those of anyone on this server.
        Per game that got to ``share``: its time from its start to there, and from there to its end."""
        people = [seat.user_id for seat in live.seats if seat.user_id is not None and not seat.is_ai]
        like = {**live.row, "rules_version": live.game.rules_version}
        options = json.loads(live.row["options"])
        for scope, asked in (("table", people), ("server", None)):
            found = await stored_games.earlier_tables(self.games.store, live.id, like, asked, 4 * TABLE_GAMES)
            same = [
                game_id
                for game_id, stored_options, sat in found
                if json.loads(stored_options) == options
                and (asked is None or 2 * len(sat & set(people)) >= len(people))
            ]
            paces = []
            for game_id in same[:TABLE_GAMES]:
                moments = await self._moments(game_id, live)
                reached = moments.at(share)
                if reached is not None and reached > moments.started and moments.ended > reached:
                    paces.append((reached - moments.started, moments.ended - reached))
            if paces:
                return scope, paces
        return "table", []

    @functools.cached_property
    def _finished_moments(self) -> LruCache[int, ProgressMoments]:
        """finished game id -> when it reached each Round (its log no longer changes)."""
        return LruCache(KNOWN_GAMES)

    async def _moments(self, game_id: int, like: Live) -> ProgressMoments:
        """When finished game ``game_id`` (of ``like``'s game, player count and options) reached each Round."""
        kept = self._finished_moments.get(game_id)
        if kept is not None:
            return kept
        events = await self.games.store.events(game_id, -1)
        game = like.game
        start = setup_state(game, like.row["num_players"], json.loads(like.row["options"]), events[0])
        timed = [(event, event.created_at) for event in events[1:]]
        moments = await asyncio.to_thread(progress_moments, game, start, timed, events[0].created_at)
        self._finished_moments[game_id] = moments
        return moments

    async def _waiting_since(self, live: Live) -> list[str]:
        """Per awaited seat: since when the game waits for it, its deadline, and for a sealed decision whether
        it has sealed already (the seats still to seal are what the reveal waits for)."""
        if live.row["status"] != "active" or not live.state:
            return []
        pending = live.game.pending(live.state)
        sealed = await self.games.sealed_for(live)
        timers = await stored_timers.deadlines(self.games.store, live.id)
        lines = []
        for timer in timers:
            seat, due = timer["seat"], timer["due"]
            decision = pending.get(seat)
            if decision is None or decision.id != timer["decision_id"]:
                continue
            span = live.row["window_seconds"] if decision.timing == "window" else live.row["deadline_seconds"]
            sealing = ""
            if decision.sealed:
                sealing = ", sealed, waiting for the others" if seat in sealed else ", not sealed yet"
            lines.append(
                f"Deadline for {live.seats[seat].name} ({kind_words(decision.kind)}{sealing}): <t:{int(due)}:R>; "
                f"waiting since <t:{int(due - span)}:R>."
            )
        return lines

    async def last_mover(self, channel_id: str) -> str | None:
        """The user id behind the last move of the channel's game in progress (what /undo would take back),
        for a front-end that types for several players at once (the console's hot seat)."""
        info = await self.games.game_in_channel(channel_id)
        if info is None:
            return None
        return await stored_games.last_mover(self.games.store, info.game_id)

    async def log(self, channel_id: str, n: int = 20) -> str:
        """The last ``n`` log lines, with the players' names; once the game is over its result, and for a game
        with chance the seed and the chance results of the events shown (the export holds them all)."""
        live = await self.games.live_in_channel_or_last(channel_id)
        events = await self.games.store.events(live.id, 0)
        over = live.row["status"] in OVER
        people = {s.seat for s in live.seats if s.user_id is not None}
        # a stand-in's move says so; an automatic pass reads as a chosen one until the game is over (issue 42)
        numbered: list[tuple[int | None, str]] = [
            (
                e.seq,
                f"{e.seq}. {telling.named(live, text)}{actor_mark(e.user_id, e.seat in people, over)}",
            )
            for e in events
            for _kind, text in e.log
        ]
        if not numbered:
            numbered = [(None, "(nothing has happened yet)")]
        if live.row["status"] in OVER:
            numbered.append((None, self.games.over_text(live)))
        shown = numbered[-max(1, min(n, 200)) :]
        text = "\n".join(line for _seq, line in shown)
        if live.row["status"] in OVER and live.game.has_chance:
            seqs = {seq for seq, _line in shown}
            rolls = "; ".join(f"{e.seq}: {e.draws}" for e in events if e.draws and e.seq in seqs)
            seed = live.row[
                "seed"
            ]  # 64 hex digits (hmac-sha256), or a stored game's integer (sha256-mt19937)
            text += f"\nSeed {seed} ({seed_scheme(seed)})." + (
                f" Chance results of these events: {rolls}." if rolls else ""
            )
        return text

    @staticmethod
    def rules_sections(game_key: str | None, language: str = DEFAULT) -> list[tuple[str, str]]:
        """(key, title) of each section of a game's rules notes, the titles in ``language`` (none for a game
        without sections, or a name that is no game: autocomplete asks before anything is checked)."""
        return rules_pages.rules_sections(game_key, language)

    @staticmethod
    def rules_page(
        game_key: str | None = None, section: str | None = None, language: str = DEFAULT
    ) -> rules_pages.RulesPage:
        """What ``/rules`` shows (``rules_pages.rules_page``): its title and text in ``language``."""
        return rules_pages.rules_page(game_key, section, language)

    @staticmethod
    def rules_text(game_key: str | None = None, section: str | None = None, language: str = DEFAULT) -> str:
        """A game's rules notes: a game whose notes have sections shows its introduction, the table of contents
        and the options; ``section`` shows one section (``all``: every one); without a game, the games."""
        return rules_pages.rules_page(game_key, section, language).text

    async def my_games(self, user_id: str) -> list[GameInfo]:
        return [
            await self.games.game_info(game_id)
            for game_id in await stored_games.open_games_of(self.games.store, user_id)
        ]

    async def last_over_in_channel(self, channel_id: str) -> int | None:
        """The channel's latest game that is over after it started (what a replay shows)."""
        return await stored_games.last_over_in_channel(self.games.store, channel_id)

    async def over_games(self) -> list[int]:
        """Every game that is over after it started, oldest first (what ``export-all`` writes)."""
        return await stored_games.over_games(self.games.store)

    async def game_kind(self, game_id: int) -> str | None:
        """The game's kind without loading it (None: no such game)."""
        return await stored_games.kind_of(self.games.store, game_id)

    async def get_settings(self, user_id: str) -> dict[str, str]:
        settings = dict(notify.DEFAULTS)
        settings.update(await stored_settings.user_settings(self.games.store, user_id))
        return settings

    async def settings_text(self, user_id: str) -> str:
        """Every setting with its value and meaning (the defaults for a new player), and the muted games."""
        values = await self.get_settings(user_id)
        muted = sorted(
            int(key[len(notify.MUTE_PREFIX) :]) for key in values if key.startswith(notify.MUTE_PREFIX)
        )
        return "Your settings:\n" + "\n".join(f"- {line}" for line in notify.settings_lines(values, muted))

    async def set_setting(self, user_id: str, key: str, value: str) -> None:
        """Change one setting; ``mute``/``unmute`` take a game number. Untrusted input: checked here."""
        if key in ("mute", "unmute"):
            await self._mute(user_id, value, key == "mute")
            return
        await self.games.put_setting("user_settings", user_id, key, notify.normalise(key, value))
        self.games.known.clear()  # notification preferences are part of each loaded game

    async def _mute(self, user_id: str, game_text: str, mute: bool) -> None:
        number = game_text.strip().lstrip("#")
        if not number.isdigit() or not 0 < int(number) < 2**63:
            raise HostError("Name the game by its number, as 12 (the number after # in its messages).")
        key = f"{notify.MUTE_PREFIX}{int(number)}"
        async with self.games.store.transaction() as db:
            await stored_settings.drop_user_setting(db, user_id, key)
            if mute:
                if not await stored_games.is_seated(db, int(number), user_id):
                    raise HostError(f"You have no seat in game #{int(number)}.")
                await stored_settings.switch_on(db, user_id, key)
        self.games.known.clear()

    async def remember_message(self, game_id: int, purpose: str, channel_id: str, message_id: str) -> None:
        """The message posted for ``purpose`` (edited later in its place). A message just posted has nothing below
        it yet: its count of messages below (``find_card``) starts again at 0."""
        async with self.games.store.transaction() as db:
            await stored_messages.remember(db, game_id, purpose, channel_id, message_id)
        self.games.placed(game_id, purpose, channel_id, message_id)

    async def find_message(self, game_id: int, purpose: str) -> tuple[str, str] | None:
        found = await stored_messages.find(self.games.store, game_id, purpose)
        return found[:2] if found else None

    async def find_card(self, game_id: int) -> tuple[str, str, int] | None:
        """The game's live card: its channel, its message and how many of the game's messages were posted below
        it since (counted by ``mark_sent``)."""
        return await stored_messages.find(self.games.store, game_id, CARD_KEY)

    # ---- export ----------------------------------------------------------------------------------------------
    async def export(self, channel_id: str) -> dict[str, Any]:
        """The channel's game (else its most recent finished one) as JSON data: see ``export_game``."""
        live = await self.games.live_in_channel_or_last(channel_id)
        return await self.export_game(live.id)

    async def export_game(self, game_id: int) -> dict[str, Any]:
        """A game with its seats and every event (actor, action, time, log lines), as plain JSON data.

        Once the game is over everything is included: the seed and its scheme (``rng``), each event's action and
        chance results with the range each was drawn from (``ranges``, so the draws can be checked against the
        seed without this project's rules), and every sealed choice with its nonce. While it runs, only what its
        public log shows: no seed when it would predict future dice or shuffles, and for games with hidden
        information no action or chance results (a card played face down, a shuffled deck); sealed choices
        appear as their public commits. ``bot.verify`` checks a complete export.
        """
        live = await self.games.load(game_id)
        row, game = live.row, live.game
        complete = row["status"] in OVER
        hides_actions = not complete and game.hidden_information
        hides_seed = not complete and (game.has_chance or game.hidden_information)
        events = await self.games.store.events(game_id, -1, include_undone=True)
        actors = self._shown_actors(live, events, complete)
        undone = await self._undone_seqs(game_id)
        sealed = await self.games.sealed_record(game_id)
        ranges = None
        if complete and row["num_players"] is not None:  # a replay: off the event loop
            played = [(e.seq, e.seat, e.action, e.draws, e.seq in undone) for e in events]
            options = json.loads(row["options"])
            ranges = await asyncio.to_thread(chance_ranges, game.key, row["num_players"], options, played)
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "complete": complete,
            "withheld": self._withheld_text(hides_seed, hides_actions, bool(sealed) and not complete),
            "game": {
                "id": live.id,
                "kind": row["kind"],
                "title": game.title,
                "status": row["status"],
                "guild_id": row["guild_id"],
                "channel_id": row["channel_id"],
                "creator_id": row["creator_id"],
                "options": json.loads(row["options"]),
                "seed": None if hides_seed else row["seed"],
                "rng": None if hides_seed else seed_scheme(row["seed"]),
                # the number the sealed commits name: this game's, or for an imported game the one it had first
                "origin_id": row["origin_id"] or live.id,
                "rules_version": row["rules_version"],
                "num_players": row["num_players"],
                "deadline_seconds": row["deadline_seconds"],
                "window_seconds": row["window_seconds"],
                "result": json.loads(row["result"]) if row["result"] else None,
                "created_at": row["created_at"],
                "updated_at": row["updated_at"],
            },
            "seats": [
                {"seat": s.seat, "user_id": s.user_id, "name": s.name, "ai_level": s.ai_level, "away": s.away}
                for s in live.seats
            ],
            "events": [
                {
                    "seq": event.seq,
                    "seat": event.seat,
                    "actor": actors[index],
                    "action": None if hides_actions else event.action,
                    "draws": None if hides_actions else event.draws,
                    "ranges": ranges[index] if ranges is not None else None,
                    "log": event.log,
                    "undone": event.seq in undone,
                    "time": event.created_at,
                }
                for index, event in enumerate(events)
            ],
            "sealed": [
                {
                    "decision_id": record["decision_id"],
                    "seat": record["seat"],
                    "commit": record["commit_hash"],
                    "action": record["action"] if complete else None,
                    "nonce": record["nonce"] if complete else None,
                }
                for record in sealed
            ],
        }

    @staticmethod
    def _shown_actors(live: Live, events: list[Any], complete: bool) -> list[str | None]:
        """Each event's actor as an export shows it. While the game runs an automatic pass (given when "pass" was
        the seat's only answer) shows as the seat's own answer, under the person who last answered for the seat
        (else who holds it), so the file does not tell the table when a player held no playable card (issue 42);
        once the game is over it shows as ``autopass``."""
        shown: list[str | None] = []
        holders: dict[int, str] = {}
        for event in events:
            actor = event.user_id
            if event.seat is not None and actor and actor != AUTOPASS and not actor.startswith("ai:"):
                if actor != "deadline":
                    holders[event.seat] = actor
            if actor == AUTOPASS and not complete and event.seat is not None:
                seat = live.seats[event.seat] if 0 <= event.seat < len(live.seats) else None
                actor = holders.get(event.seat) or (seat.user_id if seat else None)
            shown.append(actor)
        return shown

    async def _undone_seqs(self, game_id: int) -> set[int]:
        return await stored_games.undone_seqs(self.games.store, game_id)

    @staticmethod
    def _withheld_text(seed: bool, actions: bool, sealed: bool) -> str:
        """What a running game's export leaves out, said in the file so a reader knows the nulls are deliberate."""
        parts = [
            *(["the seed (it would predict the dice and shuffles to come)"] if seed else []),
            *(["the actions and chance results of events (hidden information)"] if actions else []),
            *(["the sealed choices and their nonces (only their commits are public)"] if sealed else []),
        ]
        if not parts:
            return ""
        return "Until the game is over this export leaves out " + "; ".join(parts) + "."

    # ---- verify ----------------------------------------------------------------------------------------------
    async def verify(self, channel_id: str) -> Verdict:
        """Check the channel's game (else its most recent one) from its complete export: see ``bot.verify``."""
        live = await self.games.live_in_channel_or_last(channel_id)
        title = f"{live.game.title} #{live.id}"
        if live.row["num_players"] is None:
            raise HostError(f"{title} has not started: there is nothing to verify yet.")
        if live.row["status"] not in OVER:
            raise HostError(
                f"{title} is still being played: its seed and sealed choices stay secret until it ends, so it "
                "can be verified once it is over."
            )
        data = await self.export_game(live.id)
        return await asyncio.to_thread(verify_export, data)

    # ---- import ----------------------------------------------------------------------------------------------
    async def import_game(self, data: Any) -> int:
        """Store a game's complete export (a finished or abandoned game) under a new id; returns that id.

        The file is checked first by the game verifier (``bot.verify``): its shape, every sealed commit against
        its published nonce and choice, every chance result against the seed, and the result against the replay.
        A file that fails is refused with one sentence naming the first problem, and nothing is stored. Only a
        game that is over can be imported, so it never becomes a channel's live game. Names and log lines are
        stored with their mentions defused (``@everyone`` and ``<@id>`` never ping). The game keeps its guild and
        channel, so /game log there shows it like any past game.
        """
        verdict = await asyncio.to_thread(verify_export, data)
        if not verdict.verified:
            raise HostError(str(verdict))
        row, events = data["game"], data["events"]
        game = get_game(row["kind"])
        result = row["result"]
        if result is not None:
            result = {**result, "reason": _defused(result["reason"])}
        async with self.games.store.transaction() as db:
            game_id = await stored_games.create_imported(
                db,
                (
                    row["guild_id"],
                    row["channel_id"],
                    game.key,
                    row["status"],
                    json.dumps(row["options"]),
                    str(row["seed"]),
                    row["rules_version"],
                    row["num_players"],
                    row["creator_id"],
                    row["deadline_seconds"],
                    row["window_seconds"],
                    json.dumps(result) if result else None,
                    row["created_at"],
                    row["updated_at"],
                    row.get("origin_id") or row["id"],
                ),
            )
            await stored_games.insert_seats(
                db,
                game_id,
                [
                    (s["seat"], (s["user_id"], _defused(s["name"]), s["ai_level"], bool(s["away"])))
                    for s in data["seats"]
                ],
            )
            await self.games.store.append_events(
                db,
                [
                    (
                        game_id,
                        e["seq"],
                        e["seat"],
                        e["action"],
                        e["draws"],
                        e["actor"],
                        [[kind, _defused(text)] for kind, text in e["log"]],
                        e["time"],
                    )
                    for e in events
                ],
            )
            await stored_games.mark_undone(db, game_id, [e["seq"] for e in events if e["undone"]])
            await stored_decisions.import_sealed(
                db,
                game_id,
                [
                    (
                        r["decision_id"],
                        r["seat"],
                        r["action"],
                        r["nonce"],
                        r["commit"],
                        row["created_at"] + index / 1000,  # the sealed record is read in this order
                    )
                    for index, r in enumerate(data["sealed"])
                ],
            )
        return game_id


def _defused(text: str) -> str:
    """``text`` with a zero-width space after each ``@`` that could start a mention: shown the same, never pings."""
    return _MENTION.sub(lambda match: match.group(0) + "\u200b", text)
