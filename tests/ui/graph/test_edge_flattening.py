"""Edges are Graphviz's cubic B-splines drawn as polylines: as few points as keep every
drawn edge within `layout.FLATNESS` (plus the 0.1-point rounding) of the true curve, or, for
a piece so sharp that the cap of 16 chords binds, within the flattening bound for 16 chords."""
import math

import numpy as np
import pytest

from tapeviz.ui.graph import dot_layout as layout


def _curve(points, n=2000):
    """The spline densely sampled (the truth the polyline is checked against)."""
    out = []
    for k in range(0, len(points) - 3, 3):
        p = np.array(points[k:k + 4], float)
        t = np.linspace(0, 1, n)[:, None]
        u = 1 - t
        out.append(u ** 3 * p[0] + 3 * u * u * t * p[1] + 3 * u * t * t * p[2] + t ** 3 * p[3])
    return np.vstack(out)


def _distance_to_polyline(q, xs, ys):
    best = math.inf
    for (x0, y0, x1, y1) in zip(xs, ys, xs[1:], ys[1:]):
        a, b = np.array([x0, y0]), np.array([x1, y1])
        d = b - a
        t = 0.0 if not d.any() else float(np.clip(np.dot(q - a, d) / np.dot(d, d), 0, 1))
        best = min(best, float(np.linalg.norm(q - (a + t * d))))
    return best


def _splines():
    rng = np.random.default_rng(11)
    straight = [[10.0, 300.0], [10.0, 250.0], [10.0, 200.0], [10.0, 150.0]]
    slanted = [[0.0, 0.0], [30.0, 10.0], [60.0, 20.0], [90.0, 30.0]]         # collinear
    gentle = [[0.0, 0.0], [5.0, 40.0], [-4.0, 80.0], [2.0, 120.0]]
    loop = [[0.0, 0.0], [200.0, 50.0], [-200.0, 50.0], [0.0, 0.0]]          # a sharp turn
    two = [[0, 0], [0, 30], [40, 30], [40, 60], [40, 90], [0, 90], [0, 120]]  # 2 pieces
    randoms = [(rng.uniform(-300, 300, size=(7, 2))).tolist() for _ in range(6)]
    return [straight, slanted, gentle, loop, two] + randoms


def _allowed(points, cap=16):
    """The documented bound: FLATNESS, or 0.75 * bend / cap**2 for a piece that needs more
    than `cap` chords (bend: the piece's largest second difference of control points)."""
    worst = layout.FLATNESS
    for k in range(0, len(points) - 3, 3):
        p = np.array(points[k:k + 4], float)
        bend = max(np.linalg.norm(p[0] - 2 * p[1] + p[2]), np.linalg.norm(p[1] - 2 * p[2] + p[3]))
        worst = max(worst, 0.75 * bend / cap ** 2)
    return worst


@pytest.mark.parametrize("points", _splines())
def test_a_drawn_edge_stays_within_its_bound_of_the_spline(points):
    xs, ys = layout._bezier(points)
    assert (xs[0], ys[0]) == tuple(points[0]) and (xs[-1], ys[-1]) == (
        round(points[-1][0], 1), round(points[-1][1], 1))
    worst = max(_distance_to_polyline(q, xs, ys) for q in _curve(points, 400))
    assert worst <= _allowed(points) + 0.08          # (+ the rounding to a tenth of a point)


def test_straight_pieces_take_one_chord_and_curves_more():
    straight = [[10.0, 300.0], [10.0, 250.0], [10.0, 200.0], [10.0, 150.0]]
    assert len(layout._bezier(straight)[0]) == 2
    loop = [[0.0, 0.0], [200.0, 50.0], [-200.0, 50.0], [0.0, 0.0]]
    assert len(layout._bezier(loop)[0]) == 17          # a sharp turn: the cap, 16 chords
    gentle = [[0.0, 0.0], [5.0, 40.0], [-4.0, 80.0], [2.0, 120.0]]
    assert 2 < len(layout._bezier(gentle)[0]) < 9
