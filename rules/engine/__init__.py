"""The shared engine contract of Princes' Table games (see ``core`` for the details)."""

from .core import (
    Applied,
    Decision,
    Event,
    Game,
    IllegalAction,
    InvalidAction,
    Option,
    OptionError,
    Outcome,
    ResultSeat,
    RoundStatus,
    RulesError,
    State,
    View,
)
from .registry import available_games, get_game
from .rng import NoChance, ReplayMismatch, ReplayRng, Rng
from .text import listing, name_seats, plural, seat_ref

__all__ = [
    "Applied",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidAction",
    "NoChance",
    "Option",
    "OptionError",
    "Outcome",
    "ReplayMismatch",
    "ReplayRng",
    "ResultSeat",
    "Rng",
    "RoundStatus",
    "RulesError",
    "State",
    "View",
    "available_games",
    "get_game",
    "listing",
    "name_seats",
    "plural",
    "seat_ref",
]
