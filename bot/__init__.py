"""Princes' Table: the host service, storage and front-ends (Discord adapter, console)."""
