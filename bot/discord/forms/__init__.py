"""Guided decision forms, one module per game (see :mod:`.base`); importing this package registers them.

To add a game's form: write ``forms/<package>.py`` (the game's package name in ``rules.engine.registry``) with a
:class:`~.base.Form` subclass instance named ``FORM``; ``prompt_view`` then offers it for the kinds it lists, and
its components dispatch by themselves. A game without such a module has no form.
"""

from __future__ import annotations

import importlib

from rules.engine.registry import GAMES

from .base import (
    FORM_ITEMS,
    FORMS,
    Form,
    FormContext,
    FormPage,
    form_for,
    inline_page,
    open_button,
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
    "FORM_ITEMS",
    "Form",
    "FormContext",
    "FormPage",
    "form_for",
    "inline_page",
    "open_button",
    "short_label",
]
