"""Small statistics shared by the benchmarks."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def summary(samples: list[float]) -> tuple[float, float]:
    """(median, p99) in the unit of the samples."""
    return statistics.median(samples), percentile(samples, 0.99)


def time_ms(function: Callable[[], object], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def line(
    name: str, samples_ms: list[float], floor_ms: float | None = None, goal_ms: float | None = None
) -> str:
    median, p99 = summary(samples_ms)
    text = f"{name}: median {median:.2f} ms, p99 {p99:.2f} ms"
    if floor_ms:
        text += f", floor {floor_ms:.2f} ms, p99/floor {p99 / floor_ms:.1f}x"
    if goal_ms:
        text += f", goal p99 <= {goal_ms:g} ms: {'met' if p99 <= goal_ms else 'NOT met'}"
    return text
