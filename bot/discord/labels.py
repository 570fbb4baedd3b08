"""Moved to :mod:`forms.labels` (the Discord length limits labels are fitted to, and ``fit``, ``distinct_labels``),
where the games' forms use them too; re-exported here for code that still imports it from the bot."""

from forms.labels import (
    BUTTON_LABEL,
    CHOICE_NAME,
    ELLIPSIS,
    NOTE_SEPARATOR,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    SEPARATORS,
    distinct_labels,
    fit,
    fit_with_rest,
)

__all__ = [
    "BUTTON_LABEL",
    "CHOICE_NAME",
    "ELLIPSIS",
    "NOTE_SEPARATOR",
    "OPTION_DESCRIPTION",
    "OPTION_LABEL",
    "PLACEHOLDER",
    "SEPARATORS",
    "distinct_labels",
    "fit",
    "fit_with_rest",
]
