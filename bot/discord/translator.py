"""Slash commands in the player's language: discord.py's ``Translator`` fed from the message catalogs.

Discord shows each command's name, description, options and choices in the locale of the user's client when
the synced command carries a localisation for it. Names have their own catalog context (``command``) and must
follow Discord's rules (lowercase, no spaces, at most 32 characters: ``valid_name``); descriptions are plain
entries, shared with ``/help``.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from forms.labels import fit
from i18n import COMMAND, DEFAULT, LANGUAGES, gettext

#: Discord's rule for command and option names (a letter or digit of any script, ``-`` and ``_``)
NAME = re.compile(r"^[-_\w]{1,32}$")
#: Discord's longest command, option or choice description (a longer translation keeps its whole words)
DESCRIPTION = 100
#: catalog context of command, group and option names
NAME_CONTEXT = COMMAND
_NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def valid_name(name: str) -> bool:
    return bool(NAME.match(name)) and name == name.lower()


def language_of_locale(locale: discord.Locale) -> str | None:
    """The catalog language for a Discord locale we translate into (``pl``), else None."""
    code = locale.value.split("-")[0]
    return code if code in LANGUAGES and code != DEFAULT else None


def command_text(language: str, text: str, *, name: bool) -> str | None:
    """``text`` (a name or a description) in ``language``, or None when the catalog has none."""
    translated = gettext(language, text, NAME_CONTEXT if name else None)
    if translated == text:
        return None
    if name and not valid_name(translated):
        return None
    return fit(translated, DESCRIPTION)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of_locale(locale)
        if language is None:
            return None
        return command_text(language, string.message, name=context.location in _NAMES)
