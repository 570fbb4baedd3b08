"""Results and ratings: one rating per player per game, across every server, from openskill's Plackett-Luce model.

When a game finishes, the transaction that finishes it also records its result (``record_result``): a
``results`` row, a ``result_seats`` row per seat (who played it, the side they played, whether they won, how many
decisions they took and how long those took them) and, for a rated game, every player's new rating. Nothing is
lost or counted twice: the result commits with the game's end or not at all, and a game has one result row.

Why Plackett-Luce (openskill): it rates games of 2 to 4 players from their finishing order, ties included (a draw,
or the losers of a game with one winner), with an uncertainty per rating that shrinks as a player plays. Elo and
Glicko rate pairs only; TrueSkill's Python package is unmaintained (its last release is from 2018).

Who is rated: each seat's player, a person (their user id) or an AI level (``ai:<level>``, one rating per level
and game), so people playing alone against the AI get a rating and the AI levels get measured strengths. A seat
is its person's when they took most of its decisions. A seat is *left out* of the ratings when its decisions were
taken by the AI (away mode, missed deadlines, a seat handed to the AI) for more than ``AI_STAND_IN_SHARE`` of them,
or by anyone else (the AI, a deadline's default, a substitute) for more than ``STAND_IN_SHARE``; the other seats
are rated among themselves. A game is *unrated* when the table chose ``rated=no``, when one player held every
seat, or when fewer than two players are left to rate; its result still counts for games and wins.

Ratings can be rebuilt from the stored results (``rebuild``): applying them in their recording order (``number``)
gives exactly the values the incremental updates stored.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from .models import HostError
from .storage import Connection, Store
from .storage import ratings as stored

#: the rating model; its defaults (mu 25, sigma 25/3, tau 25/300) are openskill's
MODEL = PlackettLuce()
#: a seat whose decisions were taken by someone else (the AI, a deadline's default, a substitute) for more than
#: this share is left out of the game's ratings
STAND_IN_SHARE = 0.25
#: a seat whose decisions the AI took for more than this share is left out too (issue 42): an AI's answer may be
#: stronger than the player's own (the exact solver, say), so the share it may take is small
AI_STAND_IN_SHARE = 0.10
#: actors that are not anyone's decision: a pass given because it was the only answer
FORCED_ACTORS = frozenset({"autopass"})
#: actors that are stand-ins, not a person: a deadline's default (AI stand-ins are ``ai:<level>``)
DEADLINE_ACTOR = "deadline"
#: table options (not rules) that ``/game new`` takes, with their defaults
TABLE_FLAGS = {"rated": True, "replay": True}

Rating = tuple[float, float]
#: what ``/rules`` says of the two table options and of when a game counts for ratings
RATING_RULES = (
    "- `rated` (yes/no, default yes): whether the game counts for the ratings (one per player and game, across "
    "all servers; AI levels have theirs). A seat is left out of the ratings when the AI played it (away mode, "
    f"missed deadlines) for more than {AI_STAND_IN_SHARE:.0%} of its decisions, or anyone else (the AI, a "
    f"deadline's default, a substitute) for more than {STAND_IN_SHARE:.0%}; the others are rated among "
    "themselves. In a rated game the AI that stands in for a player plays the game's modest level. A game is "
    "unrated when one player held every seat or fewer than two players are left to rate; its result still "
    "counts in /stats.\n"
    "- `replay` (yes/no, default yes): post the game's animated replay with its result (/game replay shows it "
    "any time after the end).\n"
    "- `posts` (card/every-move, default card): `card` keeps one live message per game (status, board and "
    "buttons), edited as the game goes, and posts a short line per move; `every-move` posts the board after "
    "every move."
)


def default_rating() -> Rating:
    return (float(MODEL.mu), float(MODEL.sigma))


def conservative(rating: Rating) -> float:
    """The rating minus three times its uncertainty: what leaderboards sort by, so a lucky newcomer with few games
    does not top them."""
    return rating[0] - 3 * rating[1]


def ai_player(level: str) -> str:
    return f"ai:{level}"


def is_ai_player(player: str) -> bool:
    return player.startswith("ai:")


def player_label(player: str, name: str) -> str:
    return f"AI {player[3:]}" if is_ai_player(player) else name


# ---------------------------------------------------------------------------------------------- table options
def pop_table_flags(options: dict[str, str]) -> dict[str, bool]:
    """Take ``rated`` and ``replay`` (yes/no) out of the options typed at ``/game new``: table options, not rules."""
    flags = dict(TABLE_FLAGS)
    for name in TABLE_FLAGS:
        text = options.pop(name, None)
        if text is None:
            continue
        value = text.strip().lower()
        if value not in ("yes", "no"):
            raise HostError(f"Option {name} takes yes or no, not {text!r}.")
        flags[name] = value == "yes"
    return flags


# ---------------------------------------------------------------------------------------------- one game's result
@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str
    name: str
    side: str | None
    rank: int
    won: bool
    decisions: int
    answer_seconds: float
    #: why the seat is left out of a rated game's ratings (stand-ins took too many of its decisions); None: it
    #: counts whenever the game does
    unrated_reason: str | None = None

    @property
    def rated(self) -> bool:
        return self.unrated_reason is None


@dataclass(frozen=True)
class GameResult:
    game_id: int
    kind: str
    guild_id: str | None
    num_players: int
    draw: bool
    rated: bool
    unrated_reason: str | None
    finished_at: float
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True)
class _Decision:
    seat: int
    actor: str
    seconds: float


def _decisions(events: Sequence[Mapping[str, Any]], sealed: Sequence[Mapping[str, Any]]) -> list[_Decision]:
    """Every decision taken (forced passes left out), with who took it and how long after it was asked.

    A decision is asked when the game last changed before it was answered. Sealed choices are answered when they
    are sealed, not when the last seat seals and all of them are played together: each played event is matched
    to its seat's next applied sealed choice (same action, sealed before it was played)."""
    times = sorted({float(event["created_at"]) for event in events})
    waiting: dict[int, deque[Mapping[str, Any]]] = {}
    for record in sorted(sealed, key=lambda r: (float(r["created_at"]), int(r["seat"]))):
        if record["applied"]:
            waiting.setdefault(int(record["seat"]), deque()).append(record)
    found = []
    for event in events:
        if event["seq"] == 0 or event["undone"] or event["seat"] is None:
            continue
        seat, actor, at = int(event["seat"]), str(event["user_id"] or ""), float(event["created_at"])
        queue = waiting.get(seat)
        if queue and queue[0]["action"] == event["action"] and float(queue[0]["created_at"]) <= at:
            record = queue.popleft()
            actor, at = str(record["actor"] or actor), float(record["created_at"])
        if actor in FORCED_ACTORS:
            continue
        asked = times[max(0, bisect.bisect_left(times, at) - 1)]
        found.append(_Decision(seat, actor, max(0.0, at - min(asked, at))))
    return found


def _is_person(actor: str) -> bool:
    return bool(actor) and not is_ai_player(actor) and actor != DEADLINE_ACTOR and actor not in FORCED_ACTORS


def summarise(
    game: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    events: Sequence[Mapping[str, Any]],
    sealed: Sequence[Mapping[str, Any]],
    sides: Sequence[str | None],
    finished_at: float,
) -> GameResult:
    """A finished game's result from its stored rows (pure): each seat's player, rank and decisions, and whether
    the game is rated (with the reason when it is not)."""
    result = json.loads(game["result"]) if isinstance(game["result"], str) else dict(game["result"])
    winners = {int(seat) for seat in result.get("winners") or []}
    draw = bool(result.get("draw")) or not winners
    decisions = _decisions(events, sealed)
    reason = None if game["rated"] else "the table chose rated=no"
    out = []
    for row in sorted(seats, key=lambda r: int(r["seat"])):
        seat = int(row["seat"])
        own = [d for d in decisions if d.seat == seat]
        if row["user_id"] is None:
            player = ai_player(str(row["ai_level"] or "random"))
        else:
            people = Counter(d.actor for d in own if _is_person(d.actor))
            player = max(people, key=lambda p: (people[p], p == row["user_id"])) if people else row["user_id"]
        mine = [d for d in own if d.actor == player]
        won = seat in winners and not draw
        out.append(
            SeatResult(
                seat=seat,
                player=str(player),
                name=str(row["name"]),
                side=sides[seat] if seat < len(sides) else None,
                rank=1 if won or draw else 2,
                won=won,
                decisions=len(mine),
                answer_seconds=sum(d.seconds for d in mine),
                unrated_reason=_left_out(str(row["name"]), own, mine, row["user_id"] is not None),
            )
        )
    counted = {s.player for s in out if s.rated}
    if reason is None and len(counted) < 2:
        left_out = [s.unrated_reason for s in out if s.unrated_reason]
        reason = (
            left_out[0] if left_out and len({s.player for s in out}) > 1 else "one player held every seat"
        )
    return GameResult(
        game_id=int(game["id"]),
        kind=str(game["kind"]),
        guild_id=game["guild_id"],
        num_players=len(out),
        draw=draw,
        rated=reason is None,
        unrated_reason=reason,
        finished_at=finished_at,
        seats=tuple(out),
    )


def _left_out(name: str, own: Sequence[_Decision], mine: Sequence[_Decision], person: bool) -> str | None:
    """Why a seat is left out of the ratings (stand-ins took more than their share of its decisions), or None."""
    if not own:
        return None
    by_ai = sum(1 for d in own if is_ai_player(d.actor)) if person else 0
    if by_ai / len(own) > AI_STAND_IN_SHARE:
        return (
            f"{name}'s seat was played by the AI for {by_ai} of its {len(own)} decisions, more than "
            f"{AI_STAND_IN_SHARE:.0%}"
        )
    others = len(own) - len(mine)
    if others / len(own) > STAND_IN_SHARE:
        return (
            f"{name}'s seat was played by a stand-in (AI, deadline default or substitute) for {others} of its "
            f"{len(own)} decisions, more than {STAND_IN_SHARE:.0%}"
        )
    return None


# ---------------------------------------------------------------------------------------------- the model
def rate(seats: Sequence[tuple[str, int]], before: Mapping[str, Rating]) -> dict[str, Rating]:
    """New ratings after one game: ``seats`` lists (player, rank) per seat, rank 1 best, equal ranks tie.

    Each seat is a team of one. A player holding several seats (three copies of one AI level against a person)
    takes the mean of its seats' new ratings."""
    teams = [[MODEL.rating(mu=before[player][0], sigma=before[player][1])] for player, _ in seats]
    rated = MODEL.rate(teams, ranks=[float(rank) for _, rank in seats])
    per_player: dict[str, list[Rating]] = {}
    for (player, _), team in zip(seats, rated, strict=True):
        per_player.setdefault(player, []).append((float(team[0].mu), float(team[0].sigma)))
    return {
        player: (sum(r[0] for r in new) / len(new), sum(r[1] for r in new) / len(new))
        for player, new in per_player.items()
    }


# ---------------------------------------------------------------------------------------------- storing
@dataclass
class Recorded:
    """What ``record_result`` stored: the result and, for a rated game, each player's rating before and after."""

    result: GameResult
    changes: dict[str, tuple[Rating, Rating]] = field(default_factory=dict)
    post_replay: bool = True

    def text(self, title: str) -> str:
        """The line the channel gets with the result."""
        if not self.result.rated:
            return f"{title} is not rated: {self.result.unrated_reason}."
        names = {s.player: player_label(s.player, s.name) for s in self.result.seats}
        parts = [
            f"{names[player]} {old[0]:.1f} → {new[0]:.1f} (±{new[1]:.1f})"
            for player, (old, new) in self.changes.items()
        ]
        left_out = [
            f"Left out of the ratings: {s.unrated_reason}." for s in self.result.seats if s.unrated_reason
        ]
        return " ".join([f"Ratings for {title}: " + ", ".join(parts) + ".", *left_out])


async def _ratings_of(
    db: Connection, kind: str, players: Sequence[str]
) -> dict[str, tuple[float, float, int, int]]:
    found = {}
    for player in dict.fromkeys(players):
        rating = await stored.rating_of(db, kind, player)
        if rating is not None:
            found[player] = rating
    return found


async def _store_ratings(
    db: Connection,
    kind: str,
    result: GameResult,
    known: Mapping[str, tuple[float, float, int, int]],
    after: Mapping[str, Rating],
    now: float,
) -> None:
    wins = Counter(s.player for s in result.seats if s.won and s.rated)
    for player, (mu, sigma) in after.items():
        games, won = known.get(player, (0.0, 0.0, 0, 0))[2:]
        await stored.put_rating(db, kind, player, (mu, sigma, games + 1, won + min(1, wins[player])), now)


async def _insert_result(
    db: Connection, number: int, result: GameResult, changes: Mapping[str, tuple[Rating, Rating]]
) -> None:
    await stored.insert_result(
        db,
        (
            result.game_id,
            number,
            result.kind,
            result.guild_id,
            result.num_players,
            int(result.draw),
            int(result.rated),
            result.unrated_reason,
            result.finished_at,
        ),
        [
            (
                result.game_id,
                s.seat,
                s.player,
                s.name,
                s.side,
                s.rank,
                int(s.won),
                s.decisions,
                s.answer_seconds,
                *(changes[s.player][0] if s.player in changes and s.rated else (None, None)),
                *(changes[s.player][1] if s.player in changes and s.rated else (None, None)),
                s.unrated_reason,
            )
            for s in result.seats
        ],
    )


async def record_result(
    db: Connection, game_id: int, sides: Sequence[str | None], now: float
) -> Recorded | None:
    """Record the result of a game that has just finished (inside the transaction that finished it), and for a
    rated game update its players' ratings. None when the game is not finished or its result is stored already."""
    game, seats, events, sealed = await stored.game_for_result(db, game_id)
    if game is None or game["status"] != "finished" or not game["result"]:
        return None
    if await stored.has_result(db, game_id):
        return None
    number = await stored.next_result_number(db)
    result = summarise(game, seats, events, sealed, sides, now)
    changes: dict[str, tuple[Rating, Rating]] = {}
    if result.rated:
        counted = [s for s in result.seats if s.rated]  # seats left out are not rated
        known = await _ratings_of(db, result.kind, [s.player for s in counted])
        before = {s.player: known[s.player][:2] if s.player in known else default_rating() for s in counted}
        after = rate([(s.player, s.rank) for s in counted], before)
        changes = {player: (before[player], after[player]) for player in after}
        await _store_ratings(db, result.kind, result, known, after, now)
    await _insert_result(db, number, result, changes)
    return Recorded(result, changes, bool(game["post_replay"]))


# ---------------------------------------------------------------------------------------------- rebuilding
@dataclass
class Rebuilt:
    results: int = 0
    rated: int = 0
    backfilled: int = 0
    ratings: dict[tuple[str, str], tuple[float, float, int, int]] = field(default_factory=dict)


async def rebuild(store: Store, now: float) -> Rebuilt:
    """Recompute every rating from the stored results, in their recording order, in one transaction.

    Finished games that have no result yet (finished before results were recorded, or imported) get one first,
    oldest first; an imported game is recorded unrated (it was not played here, so its players cannot be
    vouched for)."""
    report = Rebuilt()
    for game_id in await stored.finished_without_result(store):
        await _backfill(store, game_id)
        report.backfilled += 1
    async with store.transaction() as db:
        # the clock row's lock keeps games from finishing (and rating) in the middle of the rebuild
        await stored.lock_clock(db)
        await stored.clear_ratings(db)
        results = await stored.results_in_order(db)
        current: dict[tuple[str, str], tuple[float, float, int, int]] = {}
        for result in results:
            report.results += 1
            seats = await stored.rated_seats(db, result["game_id"])  # seats left out of the ratings stay out
            if not result["rated"]:
                continue
            report.rated += 1
            kind = str(result["kind"])
            before = {
                s["player"]: current.get((kind, s["player"]), (*default_rating(), 0, 0))[:2] for s in seats
            }
            after = rate([(str(s["player"]), int(s["rank"])) for s in seats], before)
            for s in seats:
                await stored.set_seat_ratings(
                    db, result["game_id"], s["seat"], before[s["player"]], after[s["player"]]
                )
            winners = {s["player"] for s in seats if s["won"]}
            for player, (mu, sigma) in after.items():
                games, wins = current.get((kind, player), (0.0, 0.0, 0, 0))[2:]
                current[(kind, player)] = (mu, sigma, games + 1, wins + int(player in winners))
            for player in after:
                await stored.put_rating(db, kind, player, current[(kind, player)], result["finished_at"])
        report.ratings = current
    return report


async def _backfill(store: Store, game_id: int) -> None:
    """Record the result of a finished game that has none, from its stored rows and its replayed final state."""
    from rules.engine import ReplayRng, get_game

    game_row = await stored.game_setup(store, game_id)
    assert game_row is not None
    game = get_game(game_row["kind"])
    events = await store.events(game_id, -1)
    state = game.setup(game_row["num_players"], json.loads(game_row["options"]), ReplayRng(events[0].draws))
    for event in events[1:]:
        state = game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
    sides = game.seat_sides(game.view(state, None), game_row["num_players"])
    async with store.transaction() as db:
        row, seats, stored_events, sealed = await stored.game_for_result(db, game_id)
        assert row is not None  # a finished game without a result, read just above
        result = summarise(row, seats, stored_events, sealed, sides, float(row["updated_at"]))
        if row["origin_id"] is not None:
            result = GameResult(**{**result.__dict__, "rated": False, "unrated_reason": "imported"})
        await _insert_result(db, await stored.next_result_number(db), result, {})
