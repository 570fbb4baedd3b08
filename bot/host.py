"""The host service: lobby, seats, turn flow, sealed decisions, AI seats, deadlines and the outbox.

It imports no discord. The Discord cogs, the console and the tests all drive this one class, so no front-end
holds game logic. Every change is one storage transaction: event(s), version bump, snapshot, timers and the
outbox rows of the messages it causes. Deliveries returned to the caller are those outbox rows.

The parts live in ``bot/hosting``: ``core`` (load, store, deliveries), ``lobby``, ``play``, ``deadlines``,
``table`` (resign, votes, substitutes), ``queries``, ``catchup`` (the digest since a player's last move) and
``standing`` (standing orders).
"""

from __future__ import annotations

from .hosting.away import AwayMixin
from .hosting.catchup import CatchUp, CatchUpMixin
from .hosting.core import Change, Live, commit_hash
from .hosting.deadlines import DeadlinesMixin
from .hosting.language import LanguageMixin
from .hosting.lobby import LobbyMixin
from .hosting.play import PlayMixin
from .hosting.queries import QueriesMixin
from .hosting.standing import StandingMixin
from .hosting.table import TableMixin
from .models import Actor, Choice, Delivery, GameInfo, HostError, Prompt, SeatInfo, Snapshot


class Host(
    LobbyMixin,
    PlayMixin,
    DeadlinesMixin,
    TableMixin,
    QueriesMixin,
    CatchUpMixin,
    StandingMixin,
    AwayMixin,
    LanguageMixin,
):
    """The one service every front-end drives (see the module docstring)."""


__all__ = [
    "Actor",
    "CatchUp",
    "Change",
    "Choice",
    "Delivery",
    "GameInfo",
    "Host",
    "HostError",
    "Live",
    "Prompt",
    "SeatInfo",
    "Snapshot",
    "commit_hash",
]
