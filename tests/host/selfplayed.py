"""Self-played games recorded as the host stores them (seat, action, draws, public log lines, who acted), for
the pure tests of the catch-up digest and of the images' alt texts: no host, no database."""

from __future__ import annotations

from dataclasses import dataclass

from bot.digest import EventRecord
from rules.engine import Game, State, get_game
from rules.engine.playout import play, start, step

#: players' names that appear nowhere in the games' own texts, so a test can tell a name from a rules word
NAMES = ("Ysolde", "Brannoc", "Cadwy", "Dervla")


@dataclass
class Recorded:
    game: Game
    options: dict[str, str]
    setup_draws: list[int]
    records: list[EventRecord]
    #: states[i] is the state after the first i records (states[0]: after the setup)
    states: list[State]
    players: int

    @property
    def names(self) -> list[str]:
        return list(NAMES[: self.players])

    def upto(self, count: int) -> Recorded:
        """The same game as it stood after its first ``count`` records (a digest asked for mid-game)."""
        return Recorded(
            self.game,
            self.options,
            self.setup_draws,
            self.records[:count],
            self.states[: count + 1],
            self.players,
        )

    def view(self, index: int, seat: int | None) -> dict:
        """The view after the first ``index`` records, with the players' names, as the host renders it."""
        view = self.game.view(self.states[index], seat)
        view["seat_names"] = self.names
        return view


def who_acted(seat: int, index: int) -> str:
    """Mostly the seat's own player; now and then the AI or the deadline, as when a player is away."""
    if index % 11 == 5:
        return "ai:random"
    if index % 17 == 3:
        return "deadline"
    return f"user-{seat}"


def recorded(
    key: str, players: int, seed: int, max_actions: int, options: dict[str, str] | None = None
) -> Recorded:
    """A seeded random playout of ``key``, replayed step by step to keep every state and each event's log."""
    game = get_game(key)
    played = play(game, players, seed, options or {}, stop_after=max_actions)
    again = start(game, players, played.options, seed)
    states, records = [again.state], []
    for index, record in enumerate(played.records):
        events = step(game, again, record.seat, record.action)
        log = [[event.kind, event.text] for event in events]
        records.append(
            EventRecord(record.seat, record.action, record.draws, log, who_acted(record.seat, index))
        )
        states.append(again.state)
    return Recorded(game, played.options, played.setup_draws, records, states, players)
