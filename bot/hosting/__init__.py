"""The host service, split by concern; ``bot.host.Host`` puts the parts together."""
