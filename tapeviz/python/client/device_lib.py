"""`tensorflow.python.client.device_lib`: ``list_local_devices``, the usual way scripts ask
whether TensorFlow sees a GPU. tapeviz runs on NumPy, so the answer is one CPU."""
from __future__ import annotations

import random

from .. import private_module

__getattr__ = private_module("client.device_lib", "tf.config.list_physical_devices")

#: TensorFlow's CPU device's memory limit (256 MiB), as it reports it.
_CPU_MEMORY_LIMIT = 256 << 20


class DeviceAttributes:
    """What ``list_local_devices`` says of a device, with the fields of TensorFlow's
    ``DeviceAttributes`` message that scripts read, printed as TensorFlow prints it."""

    def __init__(self, name: str, device_type: str, memory_limit: int):
        self.name, self.device_type, self.memory_limit = name, device_type, memory_limit
        # (TensorFlow draws a new incarnation for each process)
        self.incarnation = random.getrandbits(63)
        self.physical_device_desc = ""
        self.xla_global_id = -1

    def __repr__(self):
        return (f'name: "{self.name}"\ndevice_type: "{self.device_type}"\n'
                f"memory_limit: {self.memory_limit}\nlocality {{\n}}\n"
                f"incarnation: {self.incarnation}\nxla_global_id: {self.xla_global_id}\n")

    __str__ = __repr__


def list_local_devices(session_config=None):
    """The devices this process can run ops on: one CPU, ``/device:CPU:0``."""
    return [DeviceAttributes("/device:CPU:0", "CPU", _CPU_MEMORY_LIMIT)]
