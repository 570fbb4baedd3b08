"""``/rules`` in the reader's language: the list of games, a game's page (its notes' introduction, the contents of
a game whose notes have sections, its options and AI levels), one section or all of them, and the section titles
the section's autocomplete offers.

Each piece is read in the reader's language on its own, before the page is cut into messages: a game's notes, an
introduction and each section (its ``**Title**`` line and its body) are catalog entries of several lines
(``i18n.blocks``), which ``localize`` only reads whole, so a page cut first and read part by part mixed both
languages. The frame around them (the list of games, the contents' heading, the options' lines, the AI levels)
is built here with ``translate``, the command names as the reader's Discord client shows them. With the English
language (the console, the host's errors) the page is the canonical English the rules write.
"""

from __future__ import annotations

from dataclasses import dataclass

from i18n import COMMAND, DEFAULT, command_path, localize, translate, translate_in
from rules.engine import Game, RulesError, available_games, get_game

from ..models import HostError
from ..ratings import RATING_RULES
from .core import Games

#: the section that shows every section
ALL = "all"
#: the line the lobby option ``window`` adds for a game with card windows
WINDOW = "- `window` (hours, default 2, at most the decision deadline): how long a card window stays open"


@dataclass(frozen=True)
class RulesPage:
    """What ``/rules`` shows, in the reader's language: a title and the text's pieces (the introduction, each
    section, each option...), which a page cut into messages keeps whole where it can."""

    title: str
    pieces: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.pieces)


def notes_sections(notes: str) -> tuple[str, list[tuple[str, str, str]]]:
    """A game's rules notes cut at their ``## key: Title`` lines: the introduction, then (key, title, body)."""
    intro: list[str] = []
    sections: list[tuple[str, str, list[str]]] = []
    for line in notes.splitlines():
        heading = line[3:].split(":", 1) if line.startswith("## ") else []
        if len(heading) == 2 and heading[0].strip():
            sections.append((heading[0].strip().lower(), heading[1].strip(), []))
        elif sections:
            sections[-1][2].append(line)
        else:
            intro.append(line)
    return "\n".join(intro).strip(), [(key, title, "\n".join(body).strip()) for key, title, body in sections]


def _game(game_key: str) -> Game:
    try:
        return get_game(game_key, include_unplayable=True)
    except RulesError as error:
        raise HostError(str(error)) from None


def rules_sections(game_key: str | None, language: str = DEFAULT) -> list[tuple[str, str]]:
    """(key, title in ``language``) of each section of a game's rules notes (none for a game without sections, or
    a name that is no game: autocomplete asks before anything is checked)."""
    try:
        game = get_game(game_key or "", include_unplayable=True)
    except RulesError:
        return []
    return [(key, translate(language, title)) for key, title, _body in notes_sections(game.rules_notes)[1]]


def rules_page(game_key: str | None = None, section: str | None = None, language: str = DEFAULT) -> RulesPage:
    """``/rules``: without a game, the list of games; a game whose notes have sections shows its introduction,
    the contents and the options; ``section`` shows one section (``all``: every one), each in ``language``."""
    if not game_key:
        return RulesPage(translate(language, "Games"), (games_text(language),))
    game = _game(game_key)
    title = translate(language, "Rules notes: {title}", title=game.title)
    intro, sections = notes_sections(game.rules_notes)
    wanted = (section or "").strip().lower()
    if wanted and wanted != ALL:
        found = [_section(key_title, body, language) for key, key_title, body in sections if key == wanted]
        if not found:
            raise HostError(_no_section(game, wanted, [key for key, _title, _body in sections]))
        return RulesPage(title, (found[0],))
    pieces = [localize(intro, language)]
    if sections and not wanted:
        pieces.append(
            translate(
                language,
                "Sections (/{command} {game} with a section, or `all`):",
                command=command_path(language, "rules"),
                game=f"`{game.key}`",  # typed as it is in every language
            )
        )
        pieces += [f"- `{key}`: {translate(language, key_title)}" for key, key_title, _body in sections]
    else:
        pieces += [_section(key_title, body, language) for _key, key_title, body in sections]
    pieces += options_lines(game, language)
    return RulesPage(title, tuple(pieces))


def _section(title: str, body: str, language: str) -> str:
    """A section with its title in bold: one catalog entry, read whole."""
    return localize(f"**{title}**\n{body}", language)


def _no_section(game: Game, wanted: str, keys: list[str]) -> str:
    """The refusal of a section the notes do not have (canonical English: the error is read at delivery)."""
    if not keys:
        return f"The rules notes of {game.title} have no sections."
    known = ", ".join(f"`{key}`" for key in keys)
    return f"The rules notes of {game.title} have no section {wanted!r} (sections: {known})."


def games_text(language: str = DEFAULT) -> str:
    """The games one may play, by key and title, and how to read one's notes."""
    names = ", ".join(f"`{key}` ({get_game(key).title})" for key in available_games())
    return translate(
        language,
        "Games: {games}. Use /{command} <{game}> for one game's rules notes.",
        games=names,
        command=command_path(language, "rules"),
        game=translate_in(COMMAND, language, "game"),
    )


def options_lines(game: Game, language: str = DEFAULT) -> list[str]:
    """The lobby's options of a game (name, values and default as typed, what each does), the table's own options
    (ratings, replay, posts) and the AI levels."""
    lines = [translate(language, "Options:")]
    for option in game.options:
        lines.append(
            translate(
                language,
                "- `{name}` ({choices}, default {default}): {text}",
                name=option.name,
                choices="/".join(f"`{choice}`" for choice in option.choices),
                default=f"`{option.default}`",
                text=localize(option.help, language),
            )
        )
    if game.has_windows:
        lines.append(translate(language, WINDOW))
    lines.append(localize(RATING_RULES, language))
    levels = ", ".join(f"`{level}`" for level in Games.ai_levels(game))
    lines.append(translate(language, "AI levels: {levels}.", levels=levels))
    return lines
