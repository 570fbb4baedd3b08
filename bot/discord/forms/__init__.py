"""Guided decision forms, one module per game (see :mod:`.base`); importing this package registers them.

To add a game's form: write ``forms/<game>.py`` with a :class:`~.base.Form` subclass and register it below under
the game's key; ``prompt_view`` then offers it for the kinds it lists, and its components dispatch by themselves.
"""

from __future__ import annotations

from .base import FORM_ITEMS, FORMS, Form, FormContext, FormPage, form_for, inline_page, open_button
from .principes import PrincipesForm
from .the_prince import ThePrinceForm

FORMS["the-prince"] = ThePrinceForm()
FORMS["principes"] = PrincipesForm()

__all__ = [
    "FORMS",
    "FORM_ITEMS",
    "Form",
    "FormContext",
    "FormPage",
    "form_for",
    "inline_page",
    "open_button",
]
