"""Charts drawn on the server: escaped labels, one point per known value."""

from __future__ import annotations

from vouched._review._charts import Series, line_chart


def test_labels_and_series_names_are_escaped() -> None:
    svg = line_chart("c", "t<i>", ["<b>day</b>"], [Series("<s>", "s1", [0.5])])
    assert "<b>" not in svg
    assert "<i>" not in svg
    assert "&lt;b&gt;day&lt;/b&gt;" in svg


def test_a_missing_value_draws_no_point() -> None:
    svg = line_chart("c", "t", ["a", "b", "c"], [Series("rate", "s1", [0.2, None, 0.4])])
    assert svg.count("<circle") == 2


def test_the_edge_labels_stay_inside_the_chart() -> None:
    svg = line_chart("c", "t", ["first", "mid", "last"], [Series("rate", "s1", [0.1, 0.2, 0.3])])
    assert 'text-anchor="start">first<' in svg
    assert 'text-anchor="end">last<' in svg
