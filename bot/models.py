"""Plain data the host hands to front-ends (Discord, console, tests). No discord import here."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any


class HostError(Exception):
    """Something the user asked for cannot be done; ``str(error)`` is the sentence to show (ephemerally)."""


@dataclass(frozen=True)
class Actor:
    """Who asks: a Discord member (or a console player). ``can_manage`` = Manage Channels permission."""

    user_id: str
    name: str
    can_manage: bool = False
    #: Manage Server permission (server-wide rules such as the away allowance)
    can_manage_server: bool = False


@dataclass(frozen=True)
class Choice:
    action: str
    label: str


#: the kind of a prompt that offers to answer an upcoming decision ahead (a later turn of a queue, or what a sealed
#: plan implies): its ``decision_id`` is the decision's slot, its choices the answers (``ask``: ask me then), each
#: answered with ``Host.answer_ahead_slot``; it is never the seat's open decision
AHEAD_KIND = "ahead"


@dataclass
class Prompt:
    """A decision offered to one seat, with its full list of choices (front-ends page them beyond 25)."""

    game_id: int
    seat: int
    decision_id: str
    kind: str
    text: str
    sealed: bool
    choices: list[Choice]
    deadline: float | None = None
    #: set for "the deadline expired: claim / wait / hand to the AI" prompts, answered with ``answer_expiry``
    expiry_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # by hand: dataclasses.asdict deep-copies and costs milliseconds on a prompt with 100+ choices
        return {
            "game_id": self.game_id,
            "seat": self.seat,
            "decision_id": self.decision_id,
            "kind": self.kind,
            "text": self.text,
            "sealed": self.sealed,
            "choices": [{"action": c.action, "label": c.label} for c in self.choices],
            "deadline": self.deadline,
            "expiry_id": self.expiry_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Prompt:
        data = dict(data)
        data["choices"] = [Choice(**choice) for choice in data["choices"]]
        return cls(**data)


@dataclass(frozen=True)
class Attachment:
    """A text file posted with a message (the end of a game's sealed choices, every one of them)."""

    name: str
    text: str


#: a delivery that posts nothing: the DM prompt remembered under its ``edit_key`` loses its buttons (its decision
#: closed, however it closed: issue 47); front-ends without buttons (the console) skip it
CLOSE_KIND = "close"
#: a league's notice in its channel (``bot.leagues``): an outbox row of no game (its ``game_id`` 0), its text
#: already in the server's language; with an ``edit_key``, the id of the league's message to edit instead (the
#: edit takes the message's buttons off: the sign-up message of a league that has started)
LEAGUE_KIND = "league"


@dataclass
class Delivery:
    """A message to post: to the game's channel (``public``) or to one player by DM (``private``); or a DM
    prompt's buttons to take off (``CLOSE_KIND``).

    ``view`` is the view to draw as the image (already stripped for its audience). A front-end posts it, then
    calls ``Host.mark_sent(id)``; until then it stays in the outbox and is delivered again after a restart.
    """

    id: int
    game_id: int
    game_key: str
    kind: str
    text: str
    channel_id: str | None = None
    user_id: str | None = None
    seat: int | None = None
    view: dict[str, Any] | None = None
    mentions: list[str] = field(default_factory=list)
    prompt: Prompt | None = None
    #: edit the message remembered under this purpose instead of posting a new one
    edit_key: str | None = None
    #: text files posted with the message
    attachments: list[Attachment] = field(default_factory=list)
    #: the game is over: the front-end attaches its animated replay (drawn when posting, see bot.replay)
    replay: bool = False
    #: a turn's DM: the front-end opens it on the catch-up digest (``Host.turn_digest``), when there is one
    catchup: bool = False
    #: a game's live card with something still to act on: once it has sunk under the game's newer messages,
    #: the front-end posts it again under the newest one and deletes the old one instead of editing it
    keep_in_reach: bool = False
    #: what the commit that made this delivery read for its front-end (issue 44), so posting it needs no query
    #: but the mark; not stored in the outbox: a row posted later (after a restart) is looked up afresh
    addressed: Addressed | None = field(default=None, compare=False, repr=False)

    def to_payload(self) -> dict[str, Any]:
        """What the outbox stores (everything but the row id); the view is stored as it is."""
        return {
            "game_id": self.game_id,
            "game_key": self.game_key,
            "kind": self.kind,
            "text": self.text,
            "channel_id": self.channel_id,
            "user_id": self.user_id,
            "seat": self.seat,
            "view": self.view,
            "mentions": list(self.mentions),
            "prompt": self.prompt.to_dict() if self.prompt else None,
            "edit_key": self.edit_key,
            "attachments": [{"name": a.name, "text": a.text} for a in self.attachments],
            "replay": self.replay,
            "catchup": self.catchup,
            "keep_in_reach": self.keep_in_reach,
        }

    def nonce(self, part: str) -> str:
        """The nonce the front-end sends with message ``part`` of this delivery (one letter: a delivery may post
        more than one message), the same after a restart: Discord creates one message per nonce within a few
        minutes (``enforce_nonce``), so a row posted again after a crash between its post and its mark-sent
        returns the message already there instead of a second one. Derived from the row id and what the row
        says, so a database started afresh does not reuse a recent row's nonce for another message. Discord
        takes at most 25 characters.

        >>> row = Delivery(7, 1, "some-game", "public", "Alice moves.", channel_id="42")
        >>> row.nonce("p") == Delivery.from_payload(7, row.to_payload()).nonce("p")
        True
        >>> len(row.nonce("p")), row.nonce("p") != row.nonce("c"), row.nonce("p") != Delivery(8, **row.to_payload()).nonce("p")
        (25, True, True)
        """
        where = self.channel_id if self.kind == "public" else self.user_id
        digest = hashlib.blake2b(
            f"{self.id}|{self.game_id}|{self.kind}|{where}|{self.text}".encode(), digest_size=15
        )
        return f"{part[:1]}{base64.b32encode(digest.digest()).decode()[:24].lower()}"

    @classmethod
    def from_payload(cls, delivery_id: int, payload: dict[str, Any]) -> Delivery:
        payload = dict(payload)
        if payload.get("prompt"):
            payload["prompt"] = Prompt.from_dict(payload["prompt"])
        payload["attachments"] = [Attachment(**a) for a in payload.get("attachments") or []]
        return cls(id=delivery_id, **payload)


@dataclass(frozen=True)
class Clicked:
    """What a click on a game's choice reads before the move (``Host.click_context``): the game, the clicker's
    open decision (None: none) and the language their answer reads in."""

    info: GameInfo
    prompt: Prompt | None
    language: str


@dataclass(frozen=True)
class Remembered:
    """A message a front-end posted for a game and edits in place: where it is, and (for the live card) how many
    of the game's messages were posted below it since."""

    channel_id: str
    message_id: str
    below: int = 0


@dataclass(frozen=True)
class Addressed:
    """What a delivery's front-end needs, read in the commit that made it: the reader's language (the server's
    for the channel, the player's for a DM) and the message remembered under its edit key (None: none yet).
    ``tick`` orders it among this process's later changes to remembered messages (``Host.remembered``)."""

    tick: int
    language: str
    remembered: Remembered | None = None


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: str | None
    name: str
    ai_level: str | None
    away: bool = False
    #: deadlines missed in a row
    missed: int = 0
    #: the AI plays the seat because its player is away (/away), until their period ends or /away off
    vacation: bool = False

    @property
    def is_ai(self) -> bool:
        """Played by the AI now: an AI seat, or an absent player's seat the AI stands in for."""
        return self.ai_level is not None

    @property
    def label(self) -> str:
        if self.user_id is None:  # an AI seat; the lobby names them for their level ("AI easy")
            return self.name if self.name.startswith("AI") else f"{self.name} (AI)"
        return f"{self.name} (away, AI plays)" if self.away else self.name


@dataclass
class GameInfo:
    game_id: int
    key: str
    title: str
    status: str
    guild_id: str | None
    channel_id: str
    creator_id: str
    seats: list[SeatInfo]
    options: dict[str, str]
    min_players: int
    max_players: int
    deadline_seconds: int
    result: dict[str, Any] | None = None
    pending_users: list[str] = field(default_factory=list)
    #: table options: counts for the ratings; posts its animated replay with the result
    rated: bool = True
    replay: bool = True

    def seat_of(self, user_id: str) -> SeatInfo | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def waiting_on_user(self, user_id: str) -> bool:
        return user_id in self.pending_users

    def lobby_text(self) -> str:
        lines = [f"**{self.title}** (game #{self.game_id}) — {self.status}"]
        lines.append(f"Players ({len(self.seats)}/{self.max_players}, at least {self.min_players}):")
        lines += [f"{seat.seat + 1}. {seat.label}" for seat in self.seats] or ["(nobody yet)"]
        if self.options:  # as typed (``/game new options:``): notation, the same in every language
            lines.append("Options: " + ", ".join(f"`{k}={v}`" for k, v in self.options.items()))
        hours = self.deadline_seconds / 3600
        lines.append(f"Decision deadline: {hours:g} h")
        table = [*([] if self.rated else ["`rated=no`"]), *([] if self.replay else ["`replay=no`"])]
        if table:
            lines.append("Table: " + ", ".join(table))
        return "\n".join(lines)


@dataclass(frozen=True)
class Snapshot:
    """A view to show once (``/board``, ``/hand``): never stored, never sent to anyone else."""

    game_key: str
    text: str
    view: dict[str, Any]
