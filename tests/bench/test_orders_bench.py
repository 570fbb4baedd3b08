"""``python -m bench orders``: its paired test of a loss, its verdict, and the recommended set it measures (issue
47: no order that costs strength; Council "keep" is not recommended)."""

from __future__ import annotations

import pytest

from bench.bench_orders import (
    LEVEL,
    PLAYERS,
    REFERENCE,
    Changes,
    Paired,
    candidates,
    holder,
    loss_p_value,
)
from rules.engine import get_game
from rules.engine.pace import paced_play
from rules.engine.standing import Order, check_order, recommended_orders

GAME = get_game("principes")


@pytest.mark.parametrize(
    ("lost", "gained", "p"),
    [
        (0, 0, 1.0),  # no discordant pair: nothing to tell
        (5, 0, 1 / 32),  # all five lost: 1/2**5
        (0, 5, 1.0),  # all gained: at least 0 lost is certain
        (3, 1, 5 / 16),  # P(X >= 3), X ~ Binomial(4, 1/2) = (4 + 1) / 16
        (10, 2, 79 / 4096),  # (C(12,10) + C(12,11) + C(12,12)) / 2**12
        (30, 25, 0.2950),  # 1 - P(X <= 29), X ~ Binomial(55, 1/2) (scipy: binom.sf(29, 55, 0.5))
    ],
)
def test_the_loss_p_value_is_the_one_sided_sign_test(lost: int, gained: int, p: float) -> None:
    assert loss_p_value(lost, gained) == pytest.approx(p, abs=5e-5)


def test_a_line_shows_both_win_shares_the_discordant_pairs_and_the_verdict() -> None:
    # 10 seeds: 4 won in both games, 4 won only without the order, 0 only with it, 2 lost in both
    pairs = ((True, True),) * 4 + ((True, False),) * 4 + ((False, False),) * 2
    losing = Paired("council keep", pairs, 4, 7)
    assert (losing.lost, losing.gained) == (4, 0)
    assert losing.p_value == pytest.approx(1 / 16)
    assert not losing.loses  # 0.0625: not below 0.05
    line = losing.line()
    assert "10 games, the order's seat won 40.0% with it, 80.0% without (control)" in line
    assert "answered on 7 seeds, an answer changed on 4 seeds" in line  # a rare decision shows it here
    assert "discordant 4 lost / 0 gained, p=0.062: no significant loss" in line
    assert Paired("x", pairs + ((True, False),), 5).line().endswith("p=0.031: LOSS (p<0.05)")


def test_the_recommended_set_leaves_council_keep_out_and_says_what_each_order_gives_up() -> None:
    recommended = recommended_orders(GAME)
    assert recommended.get("council") != Order("keep")
    assert "council" not in recommended  # neither choice measured without a cost with the rest of the set
    assert {"council": Order("keep")} in REFERENCE.values()  # measured for the record
    for key, entry in GAME.recommended_orders.items():
        assert check_order(GAME, key, entry.order.choice, entry.order.names) == entry.order
        assert entry.gives_up and "\n" not in entry.gives_up and len(entry.gives_up) <= 100
    assert recommended_orders(get_game("pharaoh")) == {}


def test_a_test_game_whose_order_changes_no_answer_is_the_control_game() -> None:
    seed = 2
    dice, council = {"dice": Order("default")}, {"council": Order("pledge")}
    changes = Changes(GAME, holder(seed), {"dice": dice, "council": council})
    control = paced_play(GAME, PLAYERS, seed, LEVEL, None, autopass=True, paired=True, watch=changes)
    assert changes.changed == {"council"}
    assert changes.changed <= changes.answered
    paired = paced_play(GAME, PLAYERS, seed, LEVEL, {holder(seed): dice}, autopass=True, paired=True)
    moves = [(record.seat, record.action, record.draws) for record in paired.playout.records]
    assert moves == [(record.seat, record.action, record.draws) for record in control.playout.records]


def test_a_subset_of_topics_measures_only_the_lines_that_set_them() -> None:
    """``BENCH_ORDERS_TOPICS``: the lines whose orders set one of the topics, the whole set among them."""
    lines = candidates(topics=("hand_limit",))
    assert "the whole recommended set" in lines and len(lines) >= 3
    assert all("hand_limit" in orders for orders in lines.values())
    assert set(candidates()) > set(lines)
