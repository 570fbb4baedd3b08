"""One codec for the custom_ids of our components: each layout is declared once, as an :class:`IdFormat`.

An ``IdFormat`` is a tag (``pt:c``) and typed fields, joined by ``:``. From that one declaration it gives

- ``build(**values)``: the custom_id, with text fields percent-quoted (so a ``:`` inside a decision id cannot
  split the fields); an id longer than Discord's 100 characters, or that its own template would not read, is
  refused with ``ValueError``;
- ``template``: the compiled regex discord.py's ``DynamicItem`` matches a clicked custom_id against (one named
  group per field, named as the field);
- ``parse(match_or_text)``: the fields' values, each read by its kind. A custom_id is untrusted input: a field
  no build would have made raises ``ValueError``, or ``HostError`` with a sentence naming the problem (``rebuilt``
  in ``bot.discord.common`` turns either into an answer to the click).

The ids are stored in messages already posted to Discord, so a layout never changes once released: a button
posted by an older version must still be read.

>>> DEMO = IdFormat("pt:d", (("game_id", GAME), ("seat", SEAT), ("note", TEXT)))
>>> DEMO.build(game_id=1, seat=0, note="a:b é")
'pt:d:1:0:a%3Ab%20%C3%A9'
>>> DEMO.parse("pt:d:1:0:a%3Ab%20%C3%A9")
{'game_id': 1, 'seat': 0, 'note': 'a:b é'}
>>> DEMO.template.pattern
'pt:d:(?P<game_id>\\\\d+):(?P<seat>\\\\d+):(?P<note>[^:]*)'
>>> DEMO.room(game_id=1, seat=0)  # characters left for the note once quoted
91
>>> DEMO.build(game_id=1, seat=0, note="x" * 92)
Traceback (most recent call last):
...
ValueError: custom_id too long (101 chars > 100): pt:d:1:0:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
>>> DEMO.parse("pt:d:1:0:a:b")
Traceback (most recent call last):
...
ValueError: not a pt:d custom_id: 'pt:d:1:0:a:b'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import quote, unquote

from .common import game_number, small_number

#: Discord's limit on a custom_id's length
CUSTOM_ID = 100

T = TypeVar("T")


@dataclass(frozen=True)
class Kind(Generic[T]):
    """How one field is written into a custom_id and read back.

    ``pattern`` is the regex (without groups) of the field's text in the id; ``read`` gets a text matching it and
    raises ``ValueError`` (or a ``HostError`` naming the problem) for a value no build made."""

    pattern: str
    write: Callable[[T], str]
    read: Callable[[str], T]


def quoted(text: str) -> str:
    """``text`` as a text field carries it: percent-quoted, nothing left safe (so never a ``:``).

    >>> quoted("5>9"), quoted("#0"), quoted("0:r1s0")
    ('5%3E9', '%230', '0%3Ar1s0')
    """
    return quote(text, safe="")


def number(what: str) -> Kind[int]:
    """A seat or page number: ASCII digits, at most four (``small_number``'s sentence names ``what``)."""
    return Kind(r"\d+", str, lambda text: small_number(text, what))


def digits(at_most: int) -> Kind[int]:
    """A number of ``at_most`` ASCII digits (the template itself refuses any other)."""
    return Kind(f"[0-9]{{1,{at_most}}}", str, int)


def one_of(*words: str) -> Kind[str]:
    """One of a few fixed words (the template itself refuses any other); building with another is refused.

    >>> one_of("join", "leave").pattern
    'join|leave'
    """
    return Kind("|".join(re.escape(word) for word in words), str, str)


#: free text (a decision id, an action, a form's draft), percent-quoted
TEXT: Kind[str] = Kind(r"[^:]*", quoted, unquote)
#: a game's id: ASCII digits a database integer holds (``game_number``)
GAME: Kind[int] = Kind(r"\d+", str, game_number)
SEAT = number("seat")
PAGE = number("page")


class IdFormat:
    """One custom_id layout: ``tag:field:field…``, the fields given as ``(name, kind)`` in order.

    The names are the parameters ``build`` takes and the keys ``parse`` returns (the attributes of the item that
    carries the id)."""

    def __init__(
        self, tag: str, fields: tuple[tuple[str, Kind[Any]], ...] = (), limit: int = CUSTOM_ID
    ) -> None:
        self.tag, self.fields, self.limit = tag, fields, limit
        self.names = tuple(name for name, _ in fields)
        groups = (f"(?P<{name}>{kind.pattern})" for name, kind in fields)
        self.template: re.Pattern[str] = re.compile(":".join([re.escape(tag), *groups]))

    def __repr__(self) -> str:
        return f"IdFormat({self.tag!r}, {', '.join(self.names)})"

    def _joined(self, values: Mapping[str, Any]) -> str:
        """The id with ``values`` written, a field not given left empty."""
        unknown = set(values) - set(self.names)
        if unknown:
            raise TypeError(f"{self.tag} has no field {', '.join(sorted(unknown))} (it has {self.names})")
        written = (kind.write(values[name]) if name in values else "" for name, kind in self.fields)
        return ":".join([self.tag, *written])

    def build(self, **values: Any) -> str:
        """The custom_id carrying ``values`` (every field); ``ValueError`` when it would be too long for Discord
        or a value cannot be written in the layout (a negative number, a word not offered)."""
        missing = [name for name in self.names if name not in values]
        if missing:
            raise TypeError(f"{self.tag} needs {', '.join(missing)}")
        custom_id = self._joined(values)
        if len(custom_id) > self.limit:
            raise ValueError(f"custom_id too long ({len(custom_id)} chars > {self.limit}): {custom_id}")
        if self.template.fullmatch(custom_id) is None:
            raise ValueError(f"{values} cannot be written as a {self.tag} custom_id")
        return custom_id

    def fits(self, **values: Any) -> bool:
        """Whether the custom_id carrying ``values`` is within the length limit."""
        return len(self._joined(values)) <= self.limit

    def room(self, **values: Any) -> int:
        """The characters left, within the limit, for the written text of the fields not given."""
        return self.limit - len(self._joined(values))

    def parse(self, custom_id: str | re.Match[str]) -> dict[str, Any]:
        """The values a custom_id carries, given as text or as the ``template``'s match of it (what discord.py
        hands ``from_custom_id``). Raises ``ValueError`` when the text does not fit the layout, and whatever a
        field's kind raises for a field no build would make."""
        match = custom_id if isinstance(custom_id, re.Match) else self.template.fullmatch(custom_id)
        if match is None:
            raise ValueError(f"not a {self.tag} custom_id: {custom_id!r}")
        return {name: kind.read(match[name]) for name, kind in self.fields}
