"""Benchmarks: ``python -m bench`` (``make bench``) runs every ``bench_*.py`` module's ``run()``."""
