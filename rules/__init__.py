"""Pure, synchronous, deterministic game rules. No discord, no database, no I/O."""
