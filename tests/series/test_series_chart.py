"""The rating chart of a career page: where its points and ticks fall, and its words."""

import pytest

from tournament.series.chart import rating_chart


def test_no_history_no_chart():
    assert rating_chart([]) is None


def test_one_tournament_is_a_dot_in_the_middle():
    chart = rating_chart([("Spring Open", 12.34)])
    assert chart is not None
    (point,) = chart.points
    assert point.x == chart.mid_x
    assert chart.top <= point.y <= chart.bottom
    assert point.label == "Spring Open: 12.3"
    assert chart.description == "after tournament 1 (Spring Open): 12.3"


def test_higher_ratings_are_higher_up_and_tournaments_go_left_to_right():
    chart = rating_chart([("A", -3.0), ("B", 4.5), ("C", 1.0)])
    assert chart is not None
    xs = [p.x for p in chart.points]
    ys = [p.y for p in chart.points]
    assert xs == sorted(xs)
    assert xs[0] == chart.left
    assert xs[-1] == chart.right
    assert ys[1] < ys[2] < ys[0]
    assert all(chart.top <= y <= chart.bottom for y in ys)
    assert [t.label for t in chart.x_ticks] == ["1", "2", "3"]
    assert chart.polyline.count(",") == 3


@pytest.mark.parametrize(
    ("ratings", "ticks"),
    [
        ([-3.0, 4.5], ["-4", "-2", "0", "2", "4", "6"]),
        ([10.0, 10.0], ["10", "10.5"]),
        ([0.1, 0.4, 1.9], ["0", "0.5", "1", "1.5", "2"]),
    ],
)
def test_the_rating_axis_has_round_ticks_around_every_point(ratings, ticks):
    chart = rating_chart([(str(i), r) for i, r in enumerate(ratings)])
    assert chart is not None
    assert [t.label for t in chart.y_ticks] == ticks
    positions = [t.position for t in chart.y_ticks]
    assert positions[0] == chart.bottom
    assert positions[-1] == chart.top
