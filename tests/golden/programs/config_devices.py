# tf.config's device queries as a training script meets them on a machine without a GPU:
# `list_physical_devices('GPU')` is [], the CPU is '/physical_device:CPU:0', memory growth is
# refused for it, and a device that is not there is refused.


def described(devices):
    return [[d.name, d.device_type, repr(d)] for d in devices]


report("gpus", described(tf.config.list_physical_devices("GPU")))
report("all_physical", described(tf.config.list_physical_devices()))
report("cpus_keyword", described(tf.config.list_physical_devices(device_type="CPU")))
report("lowercase_type", described(tf.config.list_physical_devices("cpu")))
report("unknown_type", described(tf.config.list_physical_devices("TPU")))
report("experimental_gpus", described(tf.config.experimental.list_physical_devices("GPU")))
report("logical", described(tf.config.list_logical_devices()))
report("logical_gpus", described(tf.config.list_logical_devices("GPU")))
report("visible", described(tf.config.get_visible_devices()))
report("visible_gpus", described(tf.config.get_visible_devices("GPU")))

cpu = tf.config.list_physical_devices("CPU")[0]
report("cpu_is_a_tuple", [cpu == ("/physical_device:CPU:0", "CPU"), tuple(cpu)])
report("set_visible_cpu", tf.config.set_visible_devices(cpu))
report("set_visible_cpu_list", tf.config.set_visible_devices([cpu], "CPU"))
report("set_visible_no_gpu", tf.config.set_visible_devices([], "GPU"))
report("visible_after", described(tf.config.get_visible_devices()))


def error_text(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the message is the answer
        return [type(exc).__name__, str(exc).split(". ")[0]]   # (tapeviz adds a fix after it)
    return None


report("set_visible_string", error_text(lambda: tf.config.set_visible_devices("x")))
report("set_visible_cpu_as_gpu", error_text(
    lambda: tf.config.set_visible_devices([cpu], "GPU")))
report("set_visible_fake_gpu", error_text(lambda: tf.config.set_visible_devices(
    [tf.config.LogicalDevice("/physical_device:GPU:0", "GPU")])))
report("set_memory_growth_cpu", error_text(
    lambda: tf.config.experimental.set_memory_growth(cpu, True)))
expect_error("get_memory_growth_cpu", lambda: tf.config.experimental.get_memory_growth(cpu))
# the usual guard of a training script
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
report("guard_ran", True)
report("soft_placement", tf.config.get_soft_device_placement())
# thread counts: 0 (the runtime's choice) unless set (TensorFlow refuses to set them once its
# runtime has started, as here; tapeviz has no such moment, docs/tensorflow-differences.md)
threading = tf.config.threading
report("threads_default", [threading.get_inter_op_parallelism_threads(),
                           threading.get_intra_op_parallelism_threads()])
# switches set at the top of training scripts
experimental = tf.config.experimental
report("tf32_default", experimental.tensor_float_32_execution_enabled())
report("tf32_off", [experimental.enable_tensor_float_32_execution(False),
                    experimental.tensor_float_32_execution_enabled()])
report("op_determinism", experimental.enable_op_determinism())
