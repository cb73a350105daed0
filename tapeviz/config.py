"""`tv.config`: switches.

- `explain_none = True` (or TAPEVIZ_EXPLAIN=1) warns on every None/NaN gradient with its
  explanation.
- `keep_values = True` (or TAPEVIZ_KEEP_VALUES=1) makes a one-shot tape keep its saved values
  after `gradient` until the tape object is dropped, so that `tape.show()` afterwards can replay
  the call step by step. The default is on in IPython and Jupyter (where `show()` comes in the
  next cell) and off elsewhere: there, as in TensorFlow, `gradient` frees them, which lets the
  optimizer update variables in place (a healthy step's memory peak is about a third lower).
  A tape whose answer has a `None`, zero or NaN gradient keeps them either way, for `explain`.
  It also makes every tape keep every op's values while it records; otherwise a tape keeps
  only what each op's gradient reads (`defop(saves=...)`) and the rest is freed at once.
"""
import os
import sys


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "")
    if value == "":
        return default
    return value not in ("0", "false", "False")


def _interactive() -> bool:
    ipython = sys.modules.get("IPython")   # loaded by every Jupyter kernel and IPython shell
    return ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None


explain_none = _flag("TAPEVIZ_EXPLAIN", False)
keep_values = _flag("TAPEVIZ_KEEP_VALUES", _interactive())


# --- TensorFlow's tf.config, for code that calls it --------------------------------------------
_functions_run_eagerly = False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """`tf.config.run_functions_eagerly(True)`: tapeviz always runs `@tv.function` eagerly;
    the setting is kept so that `functions_run_eagerly()` answers as TensorFlow's does."""
    global _functions_run_eagerly
    _functions_run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _functions_run_eagerly


# TensorFlow's older names of the two above
experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly



# --- devices and threads (tapeviz/device_config.py): one CPU, as TensorFlow without a GPU --------
from types import SimpleNamespace as _Namespace  # noqa: E402

from .device_config import (LogicalDevice, PhysicalDevice, get_soft_device_placement,  # noqa: E402,F401,E501
                            get_visible_devices, list_logical_devices, list_physical_devices,
                            set_soft_device_placement, set_visible_devices,
                            LogicalDeviceConfiguration, get_logical_device_configuration,
                            set_logical_device_configuration)
from . import device_config as _devices  # noqa: E402

experimental = _Namespace(
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    set_memory_growth=_devices.set_memory_growth, get_memory_growth=_devices.get_memory_growth,
    enable_op_determinism=_devices.enable_op_determinism,
    enable_tensor_float_32_execution=_devices.enable_tensor_float_32_execution,
    tensor_float_32_execution_enabled=_devices.tensor_float_32_execution_enabled,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    get_virtual_device_configuration=get_logical_device_configuration,
    set_virtual_device_configuration=set_logical_device_configuration)
threading = _Namespace(**{name: getattr(_devices, name) for name in (
    "get_inter_op_parallelism_threads", "set_inter_op_parallelism_threads",
    "get_intra_op_parallelism_threads", "set_intra_op_parallelism_threads")})
