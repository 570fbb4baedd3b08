"""Checking a game that is over from its export alone: every sealed commit, every chance result, the result.

Pure: no discord, no database, no clock. Given the JSON data of ``/game export`` (``Host.export_game``), it

1. checks the file's shape (a top-level object, every key present with the right type, a game that is over);
2. replays the game through this release's rules from the published seed: every event's chance results are
   drawn again from the seed (``rules.engine.rng``) and compared with the recorded ones, so the host could not
   have chosen a die, a shuffle or a draw;
3. at each sealed decision, recomputes the commit from the published nonce and choice (``commit_hash``) and
   checks the choice is the action played;
4. checks the recorded result against where the replay ends.

The answer is a ``Verdict``: verified, or the first thing that does not match, in one sentence naming its
event. ``python -m bot verify``, ``/game verify`` and ``python -m bot import`` all use it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine import Game, RulesError, State, get_game
from rules.engine.rng import ReplayRng, Rng, seed_scheme

#: the ``format`` field of an exported game, and its version (bumped when a field changes meaning)
EXPORT_FORMAT, EXPORT_VERSION = "princes-table-game", 2
#: versions this release reads: 1 had integer seeds and no ``rng``, ``origin_id`` or per-event ``ranges``
READABLE_VERSIONS = (1, 2)
#: statuses after which nothing about a game is secret any more
OVER = ("finished", "abandoned")
#: longest seat name accepted (Discord's display names are at most 32 characters)
MAX_NAME = 100
MAX_PLAYERS = 12


def commit_string(nonce: str, game_id: int, decision_id: str, seat: int, action: str) -> str:
    """The text a sealed choice's commit is the SHA-256 of (seat numbered from 0)."""
    return f"{nonce}|{game_id}|{decision_id}|{seat}|{action}"


def commit_hash(nonce: str, game_id: int, decision_id: str, seat: int, action: str) -> str:
    """The public commitment to a sealed choice: anyone can recompute it once nonce and action are published."""
    return hashlib.sha256(commit_string(nonce, game_id, decision_id, seat, action).encode()).hexdigest()


class ExportError(ValueError):
    """The data is not a well-formed export of a game that is over; ``str(error)`` says what is wrong."""


@dataclass(frozen=True)
class Verdict:
    """``verified``, or the first problem found (``problem``, a sentence; ``seq`` its event when it has one)."""

    verified: bool
    problem: str = ""
    seq: int | None = None
    title: str = ""
    events: int = 0
    draws: int = 0
    commits: int = 0
    scheme: str = ""
    result: str = ""

    def __str__(self) -> str:
        return "verified" if self.verified else self.problem

    def sentence(self) -> str:
        """The answer to /game verify."""
        if self.verified:
            return f"Verified. {self.details()}"
        return f"Not verified: {self.problem}"

    def details(self) -> str:
        """What was checked, for a verified game."""
        chance = (
            f"its {self.draws} chance results are each the one the seed gives ({self.scheme})"
            if self.draws
            else "it used no chance"
        )
        commits = (
            f"; its {self.commits} sealed commits match their published nonces and choices"
            if self.commits
            else ""
        )
        return (
            f"{self.title}: {self.events} events replay through the rules; {chance}{commits}; {self.result}"
        )


class Mismatch(Exception):
    """The first event of a replay that does not match (what is wrong, and the event's number)."""

    def __init__(self, problem: str, seq: int) -> None:
        super().__init__(problem)
        self.problem, self.seq = problem, seq


def _bad(problem: str, seq: int | None = None) -> Verdict:
    return Verdict(False, problem if seq is None else f"event {seq}: {problem}", seq)


# ---- the file's shape ----------------------------------------------------------------------------------------
_TYPE_NAMES = {str: "a text", int: "a whole number", bool: "true or false", list: "a list", dict: "an object"}


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _get(
    obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str, null: bool = False
) -> Any:
    """``obj[key]`` if it has the expected type (``bool`` is never taken for a number); else ``ExportError``."""
    if key not in obj:
        raise ExportError(f"{where} has no {key!r}.")
    value = obj[key]
    if value is None and null:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        wanted = " or ".join(_TYPE_NAMES.get(k, "a number") for k in kinds) + (" or null" if null else "")
        raise ExportError(f"{where}'s {key!r} is {_describe(value)}, not {wanted}.")
    return value


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ExportError(f"{where} is {_describe(value)}, not an object.")
    return value


def _int_list(value: list[Any], where: str) -> list[int]:
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        raise ExportError(f"{where} holds something other than whole numbers.")
    return value


def check_shape(data: Any) -> None:
    """Raise ``ExportError`` naming the first key that is missing or of the wrong type, or a game not over."""
    if not isinstance(data, dict):
        raise ExportError(f"The file holds {_describe(data)}, not a Princes' Table game export (an object).")
    if data.get("format") != EXPORT_FORMAT:
        raise ExportError(
            f"The file is not a Princes' Table game export (its format is not {EXPORT_FORMAT!r})."
        )
    if data.get("version") not in READABLE_VERSIONS:
        raise ExportError(
            f"Export version {data.get('version')!r} is not one this bot reads {READABLE_VERSIONS}."
        )
    if _get(data, "complete", bool, "The file") is not True:
        raise ExportError(
            "This export was made while the game was running: it holds no seed and no sealed choices. "
            "Export the game again once it is over."
        )
    game = _get(data, "game", dict, "The file")
    _check_game(game)
    players = game["num_players"]
    seats = _get(data, "seats", list, "The file")
    if len(seats) != players:
        raise ExportError(f"The file has {len(seats)} seats for a game of {players} players.")
    for index, seat in enumerate(seats):
        _check_seat(_object(seat, f"Seat {index + 1}"), index)
    events = _get(data, "events", list, "The file")
    if not events:
        raise ExportError("The file has no events (not even the setup).")
    for index, event in enumerate(events):
        _check_event(_object(event, f"Event {index}"), index, players)
    for index, record in enumerate(_get(data, "sealed", list, "The file")):
        _check_sealed(_object(record, f"Sealed choice {index + 1}"), index, players)


def _check_game(game: Mapping[str, Any]) -> None:
    where = "The game"
    if _get(game, "id", int, where) <= 0:
        raise ExportError("The game's 'id' is not a positive number.")
    _get(game, "kind", str, where)
    status = _get(game, "status", str, where)
    if status not in OVER:
        raise ExportError(
            f"The game's status is {status[:40]!r}: only a game that is over (finished or abandoned) is "
            "complete and can be checked or imported."
        )
    for key in ("channel_id", "creator_id"):
        _get(game, key, str, where)
    _get(game, "guild_id", str, where, null=True)
    options = _object(game.get("options"), "The game's 'options'")
    if not all(isinstance(value, str) for value in options.values()):
        raise ExportError("The game's 'options' have a value that is not a text.")
    _check_seed(game)
    for key in ("rules_version", "num_players", "deadline_seconds", "window_seconds"):
        _get(game, key, int, where)
    if not 1 <= game["num_players"] <= MAX_PLAYERS:
        raise ExportError(f"The game's 'num_players' ({game['num_players']}) is not 1 to {MAX_PLAYERS}.")
    for key in ("created_at", "updated_at"):
        _get(game, key, (int, float), where)
    if "origin_id" in game and _get(game, "origin_id", int, where, null=True) is not None:
        if game["origin_id"] <= 0:
            raise ExportError("The game's 'origin_id' is not a positive number.")
    _check_result(game)


def _check_seed(game: Mapping[str, Any]) -> None:
    seed = _get(game, "seed", (str, int), "The game", null=True)
    if seed is None:
        raise ExportError(
            "The game has no seed: it was exported while running. Export it again now it is over."
        )
    try:
        seed_scheme(seed)
    except ValueError as error:
        raise ExportError(f"The game's seed: {error}.") from None


def _check_result(game: Mapping[str, Any]) -> None:
    result = game.get("result")
    if result is not None:
        result = _object(result, "The game's 'result'")
        winners = _int_list(_get(result, "winners", list, "The result"), "The result's 'winners'")
        if any(not 0 <= seat < game["num_players"] for seat in winners):
            raise ExportError("The result names a winner who has no seat.")
        _get(result, "draw", bool, "The result")
        _get(result, "reason", str, "The result")


def _check_seat(seat: Mapping[str, Any], index: int) -> None:
    where = f"Seat {index + 1}"
    if _get(seat, "seat", int, where) != index:
        raise ExportError(f"{where} is numbered {seat['seat']}: seats come in order from 0.")
    name = _get(seat, "name", str, where)
    if not 0 < len(name) <= MAX_NAME:
        raise ExportError(f"{where}'s name is empty or longer than {MAX_NAME} characters.")
    for key in ("user_id", "ai_level"):
        value = _get(seat, key, str, where, null=True)
        if value is not None and len(value) > MAX_NAME:
            raise ExportError(f"{where}'s {key!r} is longer than {MAX_NAME} characters.")
    _get(seat, "away", bool, where)


def _check_event(event: Mapping[str, Any], index: int, players: int) -> None:
    where = f"Event {index}"
    if _get(event, "seq", int, where) != index:
        raise ExportError(f"{where} is numbered {event['seq']}: events are numbered 0, 1, 2, ... in order.")
    seat = _get(event, "seat", int, where, null=True)
    if index == 0:
        if seat is not None or event.get("action") != "setup":
            raise ExportError("Event 0 is not the setup (no seat, action 'setup').")
    elif seat is None or not 0 <= seat < players:
        raise ExportError(f"{where}'s seat is {seat!r}: the game has seats 0 to {players - 1}.")
    _get(event, "actor", str, where, null=True)
    _get(event, "action", str, where)
    _int_list(_get(event, "draws", list, where), f"{where}'s 'draws'")
    for line in _get(event, "log", list, where):
        if not (isinstance(line, list) and len(line) == 2 and all(isinstance(part, str) for part in line)):
            raise ExportError(f"{where}'s 'log' holds a line that is not [kind, text].")
    _get(event, "undone", bool, where)
    _get(event, "time", (int, float), where)
    ranges = _get(event, "ranges", list, where, null=True) if "ranges" in event else None
    if ranges is not None and not all(
        isinstance(pair, list) and len(pair) == 2 and _int_list(pair, f"{where}'s 'ranges'")
        for pair in ranges
    ):
        raise ExportError(f"{where}'s 'ranges' holds something other than [low, high] pairs.")


def _check_sealed(record: Mapping[str, Any], index: int, players: int) -> None:
    where = f"Sealed choice {index + 1}"
    for key in ("decision_id", "commit", "action", "nonce"):
        _get(record, key, str, where)
    if not 0 <= _get(record, "seat", int, where) < players:
        raise ExportError(f"{where}'s seat {record['seat']} is not a seat of the game.")


# ---- the replay ----------------------------------------------------------------------------------------------
def verify_export(data: Any) -> Verdict:
    """Verified, or the first thing in ``data`` that does not match (see the module doc)."""
    try:
        check_shape(data)
    except ExportError as error:
        return _bad(str(error))
    try:
        return _Replay(data).run()
    except Exception as error:  # a hostile file must end in a sentence, whatever it holds
        return _bad(f"The file could not be checked ({_reason(error)}).")


class _Replay:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.row = data["game"]
        self.seats = data["seats"]
        self.events = data["events"]
        self.sealed = data["sealed"]
        #: the game number the commits name: the original one for an imported game
        self.commit_id = self.row.get("origin_id") or self.row["id"]
        self.draws = 0
        self.commits = 0

    def who(self, seat: int) -> str:
        return f"seat {seat + 1} ({self.seats[seat]['name']})"

    def run(self) -> Verdict:
        row = self.row
        try:
            game = get_game(row["kind"])
        except RulesError as error:
            return _bad(f"This bot cannot check the game: {error}")
        if row["rules_version"] != game.rules_version:
            return _bad(
                f"The export follows {game.title} rules version {row['rules_version']}; this bot plays version "
                f"{game.rules_version} and can only check games played under it."
            )
        try:
            if game.resolve_options(row["options"]) != row["options"]:
                return _bad(f"The game's options are not a complete set of {game.title}'s options.")
        except RulesError as error:
            return _bad(f"The game's options: {error}")
        records: dict[tuple[str, int], Mapping[str, Any]] = {}
        for record in self.sealed:
            key = (record["decision_id"], record["seat"])
            if key in records:
                return _bad(f"Two sealed choices of {self.who(key[1])} answer decision {key[0]!r}.")
            records[key] = record
        state, verdict = self.replay(game, records)
        if verdict is not None:
            return verdict
        for record in self.sealed:  # choices sealed but never played (the game ended before the reveal)
            if (record["decision_id"], record["seat"]) in records:
                problem = self.commit_problem(record)
                if problem:
                    return _bad(f"{problem} (sealed, never revealed in play)")
        result = self.result_problem(game, state)
        if isinstance(result, Verdict):
            return result
        return Verdict(
            True,
            title=f"{game.title} #{row['id']}",
            events=len(self.events),
            draws=self.draws,
            commits=self.commits,
            scheme=seed_scheme(row["seed"]),
            result=result,
        )

    def replay(
        self, game: Game, records: dict[tuple[str, int], Mapping[str, Any]]
    ) -> tuple[State, Verdict | None]:
        """Replay every event from the seed; the state reached, and the first event that does not match."""
        state: State = {}
        ended_at: int | None = None
        try:
            for event in self.events:
                seq = event["seq"]
                if seq == 0:
                    state = self.setup_step(game, event)
                elif event["undone"]:
                    if event["draws"]:
                        raise Mismatch(
                            "was taken back (/undo) yet used chance: the host never takes back a move with chance",
                            seq,
                        )
                else:
                    if ended_at is not None:
                        raise Mismatch(
                            f"comes after the end of the game (the rules ended it at event {ended_at})", seq
                        )
                    state = self.play_step(game, state, event, records)
                    ended_at = seq if game.outcome(state).finished else None
        except Mismatch as mismatch:
            return state, _bad(mismatch.problem, mismatch.seq)
        return state, None

    def setup_step(self, game: Game, event: Mapping[str, Any]) -> State:
        rng = Rng.for_event(self.row["seed"], 0)
        try:
            state = game.setup(self.row["num_players"], self.row["options"], rng)
        except Exception as error:  # a forged player count: the rules say why in their own words
            raise Mismatch(f"the rules cannot set up the game ({_reason(error)})", 0) from None
        problem = self.draw_problem(event, rng)
        if problem:
            raise Mismatch(problem, 0)
        return state

    def play_step(
        self,
        game: Game,
        state: State,
        event: Mapping[str, Any],
        records: dict[tuple[str, int], Mapping[str, Any]],
    ) -> State:
        seq, seat, action = event["seq"], event["seat"], event["action"]
        problem = self.sealed_problem(game, state, seat, action, records, seq)
        if problem:
            raise Mismatch(problem, seq)
        rng = Rng.for_event(self.row["seed"], seq)
        try:
            state = game.apply(state, seat, action, rng).state
        except RulesError as error:
            raise Mismatch(f"the rules refuse {self.who(seat)}'s `{action[:200]}`: {error}", seq) from None
        except Exception as error:  # a forged action the rules cannot even read
            raise Mismatch(
                f"the rules cannot apply {self.who(seat)}'s `{action[:200]}` ({_reason(error)})", seq
            ) from None
        problem = self.draw_problem(event, rng)
        if problem:
            raise Mismatch(problem, seq)
        return state

    def draw_problem(self, event: Mapping[str, Any], rng: Rng) -> str:
        """The recorded chance results against those the seed gives for the ranges the rules asked for."""
        recorded, drawn, asked = event["draws"], rng.draws, rng.ranges
        for index, (mine, theirs) in enumerate(zip(recorded, drawn, strict=False)):
            if mine != theirs:
                low, high = asked[index]
                return (
                    f"chance result {index + 1} of {len(drawn)} is {mine}, but the seed gives {theirs} "
                    f"(a number from {low} to {high})"
                )
        if len(recorded) != len(drawn):
            return f"the file records {len(recorded)} chance results, the rules asked for {len(drawn)}"
        ranges = event.get("ranges")
        if ranges is not None and [tuple(pair) for pair in ranges] != asked:
            index = next(
                (i for i, pair in enumerate(ranges) if i >= len(asked) or tuple(pair) != asked[i]), len(asked)
            )
            said = f"{ranges[index][0]} to {ranges[index][1]}" if index < len(ranges) else "nothing"
            meant = f"{asked[index][0]} to {asked[index][1]}" if index < len(asked) else "nothing"
            return f"the file says chance result {index + 1} was a number from {said}; the rules asked for {meant}"
        self.draws += len(drawn)
        return ""

    def sealed_problem(
        self,
        game: Game,
        state: State,
        seat: int,
        action: str,
        records: dict[tuple[str, int], Mapping[str, Any]],
        seq: int,
    ) -> str:
        """At a sealed decision: the commit must match the published nonce and choice, and the choice the action
        (or, for a choice the sealer's own free actions made illegal before its reveal, its deadline answer)."""
        decision = game.pending(state).get(seat)
        if decision is None or not decision.sealed:
            return ""
        try:
            if game.is_free(state, seat, action):
                return ""
        except Exception:  # an action the rules cannot read is reported when it is applied
            return ""
        record = records.pop((decision.id, seat), None)
        if record is None:
            return f"{self.who(seat)} played the sealed decision {decision.id!r} with no sealed choice in the file"
        problem = self.commit_problem(record)
        if problem:
            return problem
        if record["action"] != action and not self.gave_way(game, state, seat, record["action"], action, seq):
            return (
                f"{self.who(seat)} played `{action[:200]}`, but the sealed choice for {decision.id!r} is "
                f"`{record['action'][:200]}`"
            )
        return ""

    def gave_way(self, game: Game, state: State, seat: int, sealed: str, played: str, seq: int) -> bool:
        """Whether ``played`` rightly replaced the sealed choice at its reveal (``bot.hosting.step.apply_move``):
        the rules refuse the sealed choice in the replayed state and ``played`` is the decision's deadline
        answer there. Both are read from the replay, so no host could pass off another answer this way."""
        if played != game.on_deadline(state, seat):
            return False
        try:
            game.apply(state, seat, sealed, Rng.for_event(self.row["seed"], seq))
        except RulesError:
            return True
        return False

    def commit_problem(self, record: Mapping[str, Any]) -> str:
        expected = commit_hash(
            record["nonce"], self.commit_id, record["decision_id"], record["seat"], record["action"]
        )
        if expected != record["commit"]:
            return (
                f"{self.who(record['seat'])}'s sealed choice for {record['decision_id']!r}: the SHA-256 of its "
                f"published nonce and choice is {_short(expected)}, not its commit {_short(record['commit'])}"
            )
        self.commits += 1
        return ""

    def result_problem(self, game: Game, state: State) -> Verdict | str:
        """The recorded status and result against the replay's end; a description of the result when they fit."""
        row, outcome = self.row, game.outcome(state)
        result, status = row["result"], row["status"]
        if outcome.finished:
            ending = (
                "a draw" if outcome.draw else "won by " + " and ".join(self.who(s) for s in outcome.winners)
            )
            if status != "finished" or result is None:
                return _bad(
                    f"result: the rules ended the game ({ending}), but the file records it as {status}"
                )
            if sorted(result["winners"]) != sorted(outcome.winners) or result["draw"] != outcome.draw:
                recorded = (
                    "a draw"
                    if result["draw"]
                    else "won by " + (" and ".join(self.who(s) for s in result["winners"]) or "nobody")
                )
                return _bad(f"result: the replay ends {ending}, the file records {recorded}")
            return f"the result ({ending}) is where the rules end the game."
        if status == "abandoned":
            return "the game was abandoned before the rules ended it."
        if result is None:
            return _bad("result: the game is recorded as finished but has no result")
        return f"the rules had not ended the game: its players did ({result['reason'] or 'no reason given'})."


def _short(digest: str) -> str:
    return digest if len(digest) <= 16 else digest[:16] + "…"


def _reason(error: BaseException) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text[:200]}" if text else type(error).__name__


def chance_ranges(
    kind: str,
    num_players: int,
    options: Mapping[str, str],
    events: list[tuple[int, int | None, str, list[int], bool]],
) -> list[list[list[int]]] | None:
    """The ``[low, high]`` range of each chance result of each event (``(seq, seat, action, draws, undone)``), found
    by replaying the recorded draws, for an export's readers to check draws without the rules; None if the events
    do not replay (undone events used no chance: their list is empty)."""
    game = get_game(kind)
    ranges: list[list[list[int]]] = []
    state: State = {}
    try:
        for seq, seat, action, draws, undone in events:
            rng = ReplayRng(draws)
            if seq == 0:
                state = game.setup(num_players, options, rng)
            elif not undone:
                state = game.apply(state, seat or 0, action, rng).state
            ranges.append([[low, high] for low, high in rng.ranges])
    except Exception:  # a stored game that no longer replays: its export just has no ranges
        return None
    return ranges
