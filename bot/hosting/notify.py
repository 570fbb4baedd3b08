"""Notification settings (``/settings``): how and when a player is pinged. Pure functions, no I/O.

A ping is a channel mention (a fresh decision, a reminder). Each player chooses whether turns mention them in
the channel and/or come by DM, quiet hours in their time zone (a ping due then waits for the end of the quiet
hours; the deadline stays where it was), when reminders come (fractions of the decision's time left), and games
to mute (no mentions and no reminders from them).
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from i18n import LANGUAGES

from ..models import HostError

#: the value of ``/settings language`` that follows the player's Discord client
AUTO_LANGUAGE = "auto"

#: what a new player finds: mentioned in the channel, no turn DMs (games with hidden information DM anyway),
#: automatic passes, each game begun with its recommended standing orders (those measured not to weaken play,
#: ``Game.recommended_orders``: the player is told which by DM and changes them with /orders), no quiet hours, one
#: reminder when a quarter of the time is left, times in UTC
DEFAULTS = {
    "turn_dms": "off",
    "mentions": "on",
    "autopass": "on",
    "orders": "on",
    "quiet_hours": "off",
    "time_zone": "UTC",
    "reminders": "25%",
    "language": AUTO_LANGUAGE,
}
#: what each setting means, as ``/settings`` lists it
MEANINGS = {
    "turn_dms": "your turns by DM with buttons (on/off)",
    "mentions": "your turns mention you in the game's channel (on/off)",
    "autopass": "take the automatic pass where a game offers one (on/off)",
    "orders": "begin each new game with its recommended standing orders (on/off)",
    "quiet_hours": "no pings between these times, e.g. 22:00-07:00 (off: none)",
    "time_zone": "your time zone for quiet hours and /away dates, e.g. Europe/Paris",
    "reminders": "reminders at these shares of the time left, e.g. 50%,10% (off: none)",
    "language": "the language of your DMs and of the answers only you see: "
    f"{', '.join(f'`{code}`' for code in LANGUAGES)} (auto: your "
    "Discord's)",
}
MAX_REMINDERS = 3
_QUIET = re.compile(r"([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)")
_SHARE = re.compile(r"(\d{1,2})%")
#: the key of a per-game mute (value "on")
MUTE_PREFIX = "mute:"


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def normalise(key: str, value: str) -> str:
    """The stored form of a setting's value, or ``HostError`` with a sentence saying what is expected."""
    value = value.strip()
    if key in ("turn_dms", "mentions", "autopass", "orders"):
        if value.lower() not in ("on", "off"):
            raise HostError(f"Write on or off for {key}.")
        return value.lower()
    if key == "time_zone":
        if value not in _zones():
            raise HostError(
                f"{value[:40]!r} is not a time zone I know: write an IANA name such as Europe/Paris, "
                "America/New_York or UTC."
            )
        return value
    if key == "quiet_hours":
        compact = value.replace(" ", "").lower()
        if compact == "off":
            return "off"
        match = _QUIET.fullmatch(compact)
        if match is None or match.group(1, 2) == match.group(3, 4):
            raise HostError("Quiet hours are two different times, as 22:00-07:00, or off.")
        return compact
    if key == "reminders":
        return _reminders(value)
    if key == "language":
        return normalise_language(value)
    raise HostError(f"There is no setting {key[:30]!r}. Settings: {', '.join(MEANINGS)}.")


def normalise_language(value: str) -> str:
    """A language code of ``i18n.LANGUAGES`` or ``auto`` (follow the player's Discord client)."""
    code = value.strip().lower()
    if code == AUTO_LANGUAGE or code in LANGUAGES:
        return code
    choices = ", ".join([AUTO_LANGUAGE, *LANGUAGES])
    raise HostError(f"There is no language {value[:20]!r}. Languages: {choices}.")


def _reminders(value: str) -> str:
    compact = value.replace(" ", "").lower()
    if compact == "off":
        return "off"
    shares = []
    for part in compact.split(","):
        match = _SHARE.fullmatch(part)
        if match is None or not 1 <= int(match.group(1)) <= 99:
            raise HostError("Reminders are shares of the time left from 1% to 99%, as 50%,10%, or off.")
        shares.append(int(match.group(1)))
    if len(shares) > MAX_REMINDERS:
        raise HostError(f"At most {MAX_REMINDERS} reminders per decision.")
    return ",".join(f"{share}%" for share in sorted(set(shares), reverse=True))


def reminder_fractions(value: str) -> list[float]:
    """The shares of the time left at which reminders come: "50%,10%" -> [0.5, 0.1]."""
    if value == "off":
        return []
    return [int(part.rstrip("%")) / 100 for part in value.split(",") if part]


def quiet_until(now: float, quiet_hours: str, zone: str) -> float | None:
    """When the quiet hours around ``now`` end (in the zone ``zone``), or None if ``now`` is not in them."""
    match = _QUIET.fullmatch(quiet_hours)
    if match is None:
        return None
    start_h, start_m, end_h, end_m = (int(part) for part in match.groups())
    local = dt.datetime.fromtimestamp(now, ZoneInfo(zone))
    minute = local.hour * 60 + local.minute
    start, end = start_h * 60 + start_m, end_h * 60 + end_m
    inside = start <= minute < end if start < end else minute >= start or minute < end
    if not inside:
        return None
    day = local.date() if minute < end else local.date() + dt.timedelta(days=1)
    return _wall_time_reached(dt.datetime(day.year, day.month, day.day, end_h, end_m), ZoneInfo(zone), now)


def _wall_time_reached(wall: dt.datetime, zone: ZoneInfo, now: float) -> float:
    """The moment the clocks of ``zone`` reach the naive local time ``wall``, across a daylight-saving change: a
    time the clocks skip (spring forward) is reached when they jump past it; a time they show twice (fall back),
    at its first showing still after ``now``."""
    first = wall.replace(tzinfo=zone).timestamp()  # fold 0: the offset before a change
    second = wall.replace(tzinfo=zone, fold=1).timestamp()  # fold 1: the offset after it
    if first > second:  # skipped: find the jump, the first second whose local time is past ``wall``
        low, high = int(second), int(first)
        while high - low > 1:
            middle = (low + high) // 2
            if dt.datetime.fromtimestamp(middle, zone).replace(tzinfo=None) >= wall:
                high = middle
            else:
                low = middle
        return float(high)
    return first if first > now or second <= first else second


def settings_lines(values: dict[str, str], muted: list[int]) -> list[str]:
    lines = [f"`{key}` = `{values[key]}`: {meaning}" for key, meaning in MEANINGS.items()]
    games = ", ".join(f"#{game}" for game in muted) or "none"
    lines.append(f"muted games: {games} (mute=GAME to add one, unmute=GAME to take one off)")
    return lines
