"""Security tests at the host level: the leak scan and hostile-input fuzzing (issue 12)."""
