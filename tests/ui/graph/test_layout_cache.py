"""The layout cache must not hand one graph's node keys to another graph of the same shape."""
from tapeviz.ui.graph import dot_layout as layout


def test_same_shape_different_keys_gets_its_own_keys():
    first = layout.layout([("a", 1, .5, "box", None), ("b", 1, .5, "box", None)], [("a", "b")])
    second = layout.layout([("c", 1, .5, "box", None), ("d", 1, .5, "box", None)], [("c", "d")])
    assert sorted(first.nodes) == ["a", "b"]
    assert sorted(second.nodes) == ["c", "d"]
    again = layout.layout([("a", 1, .5, "box", None), ("b", 1, .5, "box", None)], [("a", "b")])
    assert again is first   # a true repeat is still a cache hit
