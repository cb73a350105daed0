"""`tf.compat.v1.keras.utils.DeterministicRandomTestTool`: seeds every stateful random op of
a scope from the tool, as tf-keras's, for comparing a migrated model's random draws.

Inside `scope()` each random op (`tv.random.uniform`, `normal`, `truncated_normal`,
`shuffle`, `categorical`, `tv.nn.dropout` and what calls them) is seeded with the pair
(`seed`, operation seed), whatever seed it was given: with `mode='constant'` the operation
seed is always `operation_seed` (equal draws for equal shapes), with `mode='num_random_ops'`
it is the number of random ops seen so far (`operation_seed` counts them and may be set; a
seed used twice raises). As in tf-keras 2.x, Keras initializers and stateless ops are not
the tool's. Float32 `uniform`, `normal` and dropout draw TensorFlow's own numbers there
(Philox for the op's seed pair: tapeviz/engine/ops/philox.py); other ops and dtypes draw
from NumPy, seeded by the pair, so which draws are equal is as in TensorFlow, their values
are not.
"""
from __future__ import annotations

from ..engine.ops import makers


class DeterministicRandomTestTool:
    """`DeterministicRandomTestTool(seed=42, mode='constant')`; `with tool.scope(): ...`."""

    def __init__(self, seed: int = 42, mode="constant"):
        if mode not in {"constant", "num_random_ops"}:
            raise ValueError("Mode arg must be 'constant' or 'num_random_ops'. "
                             f"Got: {mode}")
        self._mode = mode
        self._seed = seed
        self.operation_seed = 0
        self._observed_seeds: set = set()

    def scope(self):
        """A context in which random ops take their seeds from the tool (it sets the global
        seed to `seed` at once, as tf-keras's)."""
        makers.set_seed(self._seed)
        return _SeedScope(self._op_seeds)

    def _op_seeds(self) -> tuple:
        op_seed = self.operation_seed
        if self._mode == "constant":
            makers.set_seed(op_seed)
        else:
            if op_seed in self._observed_seeds:
                raise ValueError(
                    "This `DeterministicRandomTestTool` object is trying to re-use the "
                    f"already-used operation seed {op_seed}. It cannot guarantee random numbers "
                    "will match between eager and sessions when an operation seed is reused. "
                    "You most likely set `operation_seed` explicitly but used a value that "
                    "caused the naturally-incrementing operation seed sequences to overlap "
                    "with an already-used seed.")
            self._observed_seeds.add(op_seed)
            self.operation_seed += 1
        return self._seed, op_seed


class _SeedScope:
    def __init__(self, source):
        self._source = source

    def __enter__(self):
        self._outer, makers.OpSeeds.source = makers.OpSeeds.source, self._source
        return self

    def __exit__(self, *exc):
        makers.OpSeeds.source = self._outer
        return False
