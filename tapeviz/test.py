"""`tv.test`: TensorFlow's `tf.test` for eager code: `TestCase` (a `unittest.TestCase` with
TensorFlow's array assertions and `evaluate`), `compute_gradient`, `main`.

The assertions read tensors as NumPy arrays and fail with AssertionError, as TensorFlow's do:
`assertAllClose` compares nested lists, tuples and dicts element by element (`np.allclose`,
shapes equal, NaN equal to NaN), `assertAllEqual` exactly.
"""
from __future__ import annotations

import math
import unittest
from collections.abc import Mapping

import numpy as np

from .engine import nest
from .engine.indexed_slices import IndexedSlices
from .engine.tensor import _Operand
from .gradient_checker import compute_gradient  # noqa: F401


def main(argv=None):
    """Run the tests of the calling module (`unittest.main`)."""
    return unittest.main(argv=argv)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return False                      # tapeviz computes on the CPU, with NumPy


def gpu_device_name():
    return ""


def _eval_tensor(value):
    if value is None:
        return None
    if callable(value) and not isinstance(value, _Operand):
        return evaluate_structure(value())
    if isinstance(value, IndexedSlices):
        return IndexedSlices(value.values.numpy(), value.indices.numpy(),
                             None if value.dense_shape is None else value.dense_shape.numpy())
    try:
        return value.numpy()
    except AttributeError:
        raise ValueError(f"Unsupported type {type(value)!r}. Fix: evaluate tensors, "
                         "variables or nested lists/dicts of them") from None


def evaluate_structure(values):
    return nest.pack_sequence_as(values, [_eval_tensor(v) for v in nest.flatten(values)])


def _array(a):
    if isinstance(a, _Operand):
        return np.asarray(a.numpy())
    if isinstance(a, np.ndarray):
        return a
    try:
        return np.array(a)
    except ValueError as e:
        if "inhomogeneous shape" in str(e):
            return np.array(a, dtype=object)
        raise


class TestCase(unittest.TestCase):
    """A `unittest.TestCase` with TensorFlow's assertions on tensors and arrays."""

    def evaluate(self, tensors):
        """Tensors (or nested lists, tuples, dicts of them) as NumPy values."""
        return evaluate_structure(tensors)

    def assertItemsEqual(self, first, second, msg=None):   # (absl's name)
        return self.assertCountEqual(first, second, msg)

    # --- closeness ------------------------------------------------------------------------------
    def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        a, b = _array(a), _array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}.")
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            msgs = [msg]
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b),
                                 np.isnan(a) != np.isnan(b))
            x, y = (a[np.where(cond)], b[np.where(cond)]) if a.ndim else (a, b)
            if a.ndim:
                msgs.append(f"not close where = {np.where(cond)}")
            msgs += [f"not close lhs = {x}", f"not close rhs = {y}",
                     f"not close dif = {np.abs(x - y)}",
                     f"not close tol = {atol + rtol * np.abs(y)}",
                     f"dtype = {a.dtype}, shape = {a.shape}"]
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol,
                                       err_msg="\n".join(str(m) for m in msgs), equal_nan=True)

    def _assertAllCloseRecursive(self, a, b, rtol, atol, path, msg):
        path_str = ("[" + "][".join(str(p) for p in path) + "]") if path else ""
        msg = msg or ""
        a = a._asdict() if hasattr(a, "_asdict") else a
        b = b._asdict() if hasattr(b, "_asdict") else b
        if isinstance(a, Mapping) != isinstance(b, Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{path_str} vs b{path_str}. "
                             f"{msg}")
        what = f"Mismatched value: a{path_str} is different from b{path_str}. {msg}"
        if isinstance(a, Mapping):
            self.assertItemsEqual(a.keys(), b.keys(),
                                  msg=f"mismatched keys: a{path_str} has keys {a.keys()}, but "
                                      f"b{path_str} has keys {b.keys()}. {msg}")
            for k in a:
                self._assertAllCloseRecursive(a[k], b[k], rtol, atol, path + [k], msg)
        elif isinstance(a, (list, tuple)):
            try:       # a list of numbers (or of tensors of one shape) is one array
                self._assertArrayLikeAllClose(_array(a), _array(b), rtol, atol, what)
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{path_str} has {len(a)} items, "
                                     f"but b{path_str} has {len(b)} items. {msg}") from None
                for i, (x, y) in enumerate(zip(a, b)):
                    self._assertAllCloseRecursive(x, y, rtol, atol, path + [str(i)], msg)
        else:
            self._assertArrayLikeAllClose(a, b, rtol, atol, what)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """Nested structures of arrays or tensors are elementwise close:
        |a - b| <= atol + rtol * |b|."""
        self._assertAllCloseRecursive(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                      bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
        a, b = _array(a), _array(b)
        kinds = {a.dtype.name, b.dtype.name}
        if kinds & {"float32", "complex64"}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if "float16" in kinds:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        if "bfloat16" in kinds:
            rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertNear(self, f1, f2, err, msg=None):
        f1, f2 = np.squeeze(f1), np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s" % (
                f1, f2, err, diff, f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):
        self.assertTrue(np.linalg.norm(ndarray1 - ndarray2) < err, msg=msg)

    # --- equality and bounds --------------------------------------------------------------------
    def assertAllEqual(self, a, b, msg=None):
        """Arrays or tensors of one shape with equal elements (NaN equals NaN)."""
        msg = msg or ""
        a, b = _array(a), _array(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got "
                                           f"{b.shape}. Contents: {b!r}. \n{msg}.")
        same = a == b
        if a.dtype.kind == "f":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            diff = np.logical_not(same)
            x, y = (a[np.where(diff)], b[np.where(diff)]) if a.ndim else (a, b)
            np.testing.assert_array_equal(a, b, err_msg="\n".join(
                [msg, f"not equal lhs = {x!r}", f"not equal rhs = {y!r}"]))

    def assertNotAllEqual(self, a, b, msg=None):
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    def assertAllGreater(self, a, comparison_target):
        self.assertGreater(np.min(_array(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):
        self.assertLess(np.max(_array(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):
        self.assertGreaterEqual(np.min(_array(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):
        self.assertLessEqual(np.max(_array(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,
                         open_upper_bound=False):
        target = _array(target)
        below = target <= lower_bound if open_lower_bound else target < lower_bound
        above = target >= upper_bound if open_upper_bound else target > upper_bound
        outside = np.logical_or(below, above)
        if np.any(outside) or np.any(np.isnan(target)):
            raise AssertionError(
                f"{int(np.sum(outside))} of the {target.size} element(s) are outside the range "
                f"{'(' if open_lower_bound else '['}{lower_bound}, {upper_bound}"
                f"{')' if open_upper_bound else ']'}: {target[outside]}")

    def assertAllInSet(self, target, expected_set):
        target = _array(target)
        diff = np.setdiff1d(target.flatten().tolist(), list(expected_set))
        if np.size(diff):
            raise AssertionError(f"{len(diff)} unique element(s) are not in the set "
                                 f"{expected_set}: {diff}")

    def assertDTypeEqual(self, target, expected_dtype):
        target = _array(target)
        arrays = target if target.dtype == object else [target]
        for arr in arrays:
            self.assertEqual(np.asarray(arr).dtype, np.dtype(getattr(
                expected_dtype, "as_numpy_dtype", expected_dtype)))

    def assertShapeEqual(self, input_a, input_b, msg=None):
        self.assertEqual(tuple(_array(input_a).shape), tuple(input_b.shape), msg=msg)

    def assertStartsWith(self, actual, expected_start, msg=None):
        if not actual.startswith(expected_start):
            self.fail(f"{actual!r} does not start with {expected_start!r}" +
                      (f" : {msg!r}" if msg else ""))
