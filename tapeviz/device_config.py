"""TensorFlow's device and threading settings (`tf.config.list_physical_devices`, ...).

tapeviz computes with NumPy on one device, the CPU, so these answer as TensorFlow does on a
machine without a GPU: training scripts that ask `tf.config.list_physical_devices('GPU')`
first thing get `[]` and go on. The thread counts are kept and returned but do not change how
NumPy computes.
"""
from __future__ import annotations

import collections


class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """`PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')`, as TensorFlow's."""
    __slots__ = ()


class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """`LogicalDevice(name='/device:CPU:0', device_type='CPU')`, as TensorFlow's."""
    __slots__ = ()


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_visible = [_CPU]
_threads = {"inter_op": 0, "intra_op": 0}


def _of_type(devices, device_type):
    # TensorFlow compares the type exactly: 'cpu' and 'TPU' give [] rather than an error
    return [d for d in devices if device_type is None or d.device_type == device_type]


def list_physical_devices(device_type=None) -> list:
    return _of_type([_CPU], device_type)


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """How to split a physical device into logical ones (TensorFlow's; also
    `tf.config.experimental.VirtualDeviceConfiguration`)."""
    __slots__ = ()

    def __new__(cls, memory_limit=None, experimental_priority=None,
                experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


#: the CPU's logical devices once set; `_initialized`: TensorFlow refuses a change once its
#: runtime has started, which tapeviz takes as once the logical devices were listed or set
_logical = {"configuration": None, "initialized": False}


def list_logical_devices(device_type=None) -> list:
    _logical["initialized"] = True
    count = len(_logical["configuration"] or [None])
    cpus = [LogicalDevice(f"/device:CPU:{i}", "CPU") for i in range(count)]
    return _of_type(cpus if _visible else [], device_type)


def get_logical_device_configuration(device):
    _check_device(device, "get_logical_device_configuration")
    return None if _logical["configuration"] is None else list(_logical["configuration"])


def set_logical_device_configuration(device, logical_devices) -> None:
    """Split the CPU into `len(logical_devices)` logical CPUs (`/device:CPU:0`, ...); they all
    compute with NumPy in this process, so they differ in name only."""
    if device != _CPU:
        raise ValueError(f"Unrecognized device: {device!r}")
    if _logical["initialized"]:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    _logical["configuration"] = list(logical_devices) if logical_devices else None
    _logical["initialized"] = True


def get_visible_devices(device_type=None) -> list:
    return _of_type(_visible, device_type)


def set_visible_devices(devices, device_type=None) -> None:
    """Show the CPU or hide it (`[]`); any other device is refused as TensorFlow refuses one
    it does not have. `device_type` limits the change to that type, as in TensorFlow."""
    if isinstance(devices, (PhysicalDevice, LogicalDevice)) or \
            not isinstance(devices, (list, tuple)):
        devices = [devices]
    for device in devices:
        if device != _CPU or (device_type is not None and device_type != "CPU"):
            raise ValueError(f"Unrecognized device: {device!r}. tapeviz has one device, "
                             f"{_CPU!r}. Fix: pass tf.config.list_physical_devices('CPU')")
    if device_type is None or device_type == "CPU":
        _visible[:] = list(devices)


def _check_device(device, what):
    if not isinstance(device, (PhysicalDevice, LogicalDevice)):
        raise ValueError(f"{what}: expected a device from tf.config.list_physical_devices(), "
                         f"got {device!r}")


def set_memory_growth(device, enable) -> None:
    _check_device(device, "set_memory_growth")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device):
    # TensorFlow looks the device up among GPUs and raises KeyError for the CPU
    _check_device(device, "get_memory_growth")
    raise KeyError(device)


def get_inter_op_parallelism_threads() -> int:
    return _threads["inter_op"]


def set_inter_op_parallelism_threads(num_threads) -> None:
    _threads["inter_op"] = int(num_threads)


def get_intra_op_parallelism_threads() -> int:
    return _threads["intra_op"]


def set_intra_op_parallelism_threads(num_threads) -> None:
    _threads["intra_op"] = int(num_threads)


def get_soft_device_placement() -> bool:
    return True


def set_soft_device_placement(enabled) -> None:
    """Accepted: with one device, every op is placed on it either way."""


# Switches training scripts set first thing: NumPy on the CPU is deterministic and has no
# TensorFloat-32, so they change nothing; the TF32 switch is kept so that it reads back.
_tensor_float_32 = [True]


def enable_op_determinism() -> None:
    """Accepted: tapeviz's ops give the same answer on every run already."""


def enable_tensor_float_32_execution(enabled) -> None:
    _tensor_float_32[0] = bool(enabled)


def tensor_float_32_execution_enabled() -> bool:
    return _tensor_float_32[0]


class device:
    """`with tf.device("CPU:0"):`: tapeviz computes on one CPU, so the block runs as it is
    (TensorFlow's eager soft placement puts ops on a device that exists)."""

    def __init__(self, device_name):
        if device_name is not None and not isinstance(device_name, str):
            raise TypeError(f"tf.device: expected a device name string such as 'CPU:0', got "
                            f"{type(device_name).__name__}")
        self._device_name = device_name     # (as TensorFlow's context keeps it: d2l prints it)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
