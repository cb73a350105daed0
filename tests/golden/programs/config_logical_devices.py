# tf.config.LogicalDeviceConfiguration and set/get_logical_device_configuration (also the
# experimental VirtualDeviceConfiguration names): splitting the CPU into logical CPUs before
# the runtime starts, and TensorFlow's refusal afterwards

cpu = tf.config.list_physical_devices("CPU")[0]
report("configuration.default", repr(tf.config.LogicalDeviceConfiguration()))
report("configuration.memory", repr(tf.config.LogicalDeviceConfiguration(memory_limit=1024)))
report("virtual_is_logical", tf.config.experimental.VirtualDeviceConfiguration
       is tf.config.LogicalDeviceConfiguration)
report("get.before", tf.config.get_logical_device_configuration(cpu))
report("set", tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration()] * 3))
report("logical_devices", [repr(d) for d in tf.config.list_logical_devices("CPU")])
report("logical_devices.gpu", tf.config.list_logical_devices("GPU"))
report("get.after", [repr(c) for c in tf.config.get_logical_device_configuration(cpu)])
report("get.experimental", len(tf.config.experimental.get_virtual_device_configuration(cpu)))
report("physical_unchanged", [repr(d) for d in tf.config.list_physical_devices("CPU")])
expect_error("set.again", lambda: tf.config.set_logical_device_configuration(
    cpu, [tf.config.LogicalDeviceConfiguration()] * 2))
expect_error("set.not_a_device", lambda: tf.config.set_logical_device_configuration("cpu", []))
with tf.device("/CPU:2"):
    report("device_block", tf.constant(2.0) * 3.0)
