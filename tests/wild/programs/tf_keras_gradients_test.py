# After: https://github.com/keras-team/tf-keras (keras/integration_test/gradients_test.py:
# TestKerasModelClass with add_weight in build; GradientsTest._TestVariablesGradient with
# tf.recompute_grad and a persistent tape watching inputs or variables;
# testKerasRecompute; testLSTMBatchJacobian with a HasLSTM model, batch_jacobian eagerly
# and in tf.function, tf.test.compute_gradient against numeric gradients;
# testEmbeddingLookupGradientsHaveKnownShape with tf.nn.embedding_lookup inside a
# tf.function)
# Adapted: the tf.test.TestCase methods run from main() on one instance, each returning
# what it compared; fixed weights for the LSTM model; main() reports the embedding
# gradient's shape once (TensorFlow traces _run twice, as its first call creates a
# variable: a count of traces is not what the test checks).
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


class TestKerasModelClass(tf.keras.Model):
    """A simple tensorflow keras Model class definition."""

    def __init__(self, width):
        super().__init__()
        self.width = width

    def build(self, input_shape):
        self.weight = self.add_weight(
            name="test_keras_var",
            shape=(self.width,),
            dtype=tf.float32,
            trainable=True,
        )

    def call(self, inputs):
        return self.weight * inputs


class GradientsTest(tf.test.TestCase):
    def _TestVariablesGradient(self, inputs, test_model, vars_to_grad):
        """Returns gradients of `test_model` with respect to `vars_to_grad`."""

        test_model_re = tf.recompute_grad(test_model)

        with tf.GradientTape(persistent=True) as tape:
            tape.watch(vars_to_grad)
            out_re = test_model_re(inputs)
            out = test_model(inputs)

        grads_re = tape.gradient(out_re, vars_to_grad)
        grads = tape.gradient(out, vars_to_grad)

        return grads_re, grads

    def testKerasRecompute(self):
        """Checks that recompute_grad works for a simple Keras Model."""

        test_model = TestKerasModelClass(10)
        test_input = tf.constant(tf.zeros((10, 10), dtype=np.float32))
        # Ensures keras model is initialized.
        test_model(test_input)
        fixed_weights(test_model.variables, seed=1)
        grads_re, grads = self._TestVariablesGradient(
            test_input, test_model, test_input
        )

        grads_re = self.evaluate(grads_re)
        grads = self.evaluate(grads)
        for g, g_re in zip(grads, grads_re):
            self.assertAllClose(g, g_re)

        grads_re, grads = self._TestVariablesGradient(
            test_input, test_model, test_model.variables
        )

        grads_re = self.evaluate(grads_re)
        grads = self.evaluate(grads)
        for g, g_re in zip(grads, grads_re):
            self.assertAllClose(g, g_re)
        return grads_re, grads

    def testLSTMBatchJacobian(self):
        class HasLSTM(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.lstm = tf.keras.layers.LSTM(units=5)
                self.dense = tf.keras.layers.Dense(1, activation=tf.nn.sigmoid)

            def call(self, x):
                return self.dense(self.lstm(x))

        m = HasLSTM()

        def jacobian(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = m(x)
            return tape.batch_jacobian(y, x)

        inp = tf.nn.l2_normalize(tf.ones([1, 2, 3]), axis=[1, 2])
        m(inp)
        fixed_weights(m.trainable_variables, seed=2)
        eager_result = jacobian(inp)
        function_result = tf.function(jacobian)(inp)
        self.assertAllClose(eager_result, function_result)
        backprop_result, numeric_result = tf.test.compute_gradient(
            m, [inp], delta=1e-3
        )
        self.assertAllClose(numeric_result, backprop_result, atol=1e-3)
        self.assertAllClose(
            tf.reshape(numeric_result, [-1]),
            tf.reshape(eager_result, [-1]),
            atol=1e-3,
        )
        return eager_result, backprop_result

    def testEmbeddingLookupGradientsHaveKnownShape(self):
        class MyLayer(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.embedding = None

            def build(self, _):
                self.embedding = tf.Variable(
                    tf.cast(tf.range(0, 100), dtype=tf.float32),
                    name="embedding",
                )

            def call(self, x):
                return tf.nn.embedding_lookup(self.embedding, x)

        layer = MyLayer()
        shapes = []

        @tf.function
        def _run(x):
            with tf.GradientTape() as tape:
                y = layer(x)
                loss = tf.math.reduce_sum(y)
            gradients = tape.gradient(loss, layer.weights)
            self.assertListEqual(gradients[0].shape.as_list(), [100])
            shapes.append(gradients[0].shape.as_list())

        _run(tf.random.uniform([4, 16], minval=0, maxval=100, dtype=tf.int64))
        return shapes


def main():
    test = GradientsTest()
    recompute = test.testKerasRecompute()
    jacobian = test.testLSTMBatchJacobian()
    shapes = test.testEmbeddingLookupGradientsHaveKnownShape()
    # the gradient's shape, seen inside the tf.function (not how many times it was traced)
    return {"recompute": recompute, "jacobian": jacobian, "shape": shapes[-1]}
