"""An op seed is checked for its type only: a negative one draws TensorFlow's numbers, as
TensorFlow takes any int (``random_seed.get_seed`` folds it modulo 2**31 - 1). Truth:
TensorFlow 2.21's draws for these calls, recorded."""
from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv


@pytest.fixture(autouse=True)
def _no_global_seed():
    tv.random.set_seed(None)
    yield
    tv.random.set_seed(None)


def test_a_negative_op_seed_draws_tensorflows_numbers():
    np.testing.assert_allclose(tv.random.normal([3], seed=-1).numpy(),
                               [-0.9625476598739624, -0.7559224963188171, -1.3977608680725098],
                               rtol=1e-6)
    np.testing.assert_allclose(tv.random.uniform([3], seed=-7).numpy(),
                               [0.22001373767852783, 0.7886157035827637, 0.67181396484375],
                               rtol=1e-6)
    tv.random.set_seed(5)
    np.testing.assert_allclose(tv.random.uniform([3], seed=-7).numpy(),
                               [0.7438944578170776, 0.40790045261383057, 0.12281298637390137],
                               rtol=1e-6)


@pytest.mark.parametrize("seed", ["3", 1.5, True])
def test_a_seed_of_another_type_is_refused_with_the_fix(seed):
    with pytest.raises(TypeError, match=r"random: seed must be an int or None, got .*"
                                        r"Fix: e\.g\. seed=42"):
        tv.random.normal([2], seed=seed)
