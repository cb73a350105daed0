# tf.__version__ as TensorFlow programs check it (e.g. `assert tf.__version__.startswith('2.')`
# at the top of dragen1860/TensorFlow-2.x-Tutorials' programs)
version = tf.__version__
report("is_a_str", isinstance(version, str))
report("starts_with_2", version.startswith("2."))
report("major", int(version.split(".")[0]))
report("minor_is_a_number", version.split(".")[1].isdigit())
