"""Guided decision forms, one module per game (see :mod:`.base`), free of any front-end; importing this package
registers them.

To add a game's form: write ``forms/<package>.py`` (the game's package name in ``rules.engine.registry``) with a
:class:`~.base.Form` subclass instance named ``FORM``; the front-end then offers it for the kinds it lists. A game
without such a module has no form.

Layer: ``forms`` imports ``rules`` and ``i18n`` only; ``bot`` imports it (``bot.discord.forms`` turns its pages
into Discord components).
"""

from __future__ import annotations

import importlib

from rules.engine.registry import GAMES

from .base import (
    FORMS,
    Form,
    FormButton,
    FormContext,
    FormError,
    FormItem,
    FormOption,
    FormPage,
    FormSelect,
    entry_button,
    first_page,
    form_for,
    review_page,
    short_label,
)


def _register_forms() -> None:
    for key, package in GAMES.items():
        try:
            module = importlib.import_module(f"{__name__}.{package}")
        except ModuleNotFoundError as error:
            if error.name == f"{__name__}.{package}":
                continue  # this game has no form
            raise
        FORMS[key] = module.FORM


_register_forms()

__all__ = [
    "FORMS",
    "Form",
    "FormButton",
    "FormContext",
    "FormError",
    "FormItem",
    "FormOption",
    "FormPage",
    "FormSelect",
    "entry_button",
    "first_page",
    "form_for",
    "review_page",
    "short_label",
]
