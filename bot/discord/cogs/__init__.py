"""Slash-command cogs, one per concern; each module ends with ``async def setup(bot)``."""
