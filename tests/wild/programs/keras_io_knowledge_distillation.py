# After: https://keras.io/examples/vision/knowledge_distillation/
# Adapted: small dense teacher and student with fixed weights instead of convnets,
# seeded synthetic 8x8 "digits" instead of MNIST, one epoch of 3 batches each.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, labels, fixed_weights


class Distiller(keras.Model):
    def __init__(self, student, teacher):
        super().__init__()
        self.teacher = teacher
        self.student = student

    def compile(
        self,
        optimizer,
        metrics,
        student_loss_fn,
        distillation_loss_fn,
        alpha=0.1,
        temperature=3,
    ):
        super().compile(optimizer=optimizer, metrics=metrics)
        self.student_loss_fn = student_loss_fn
        self.distillation_loss_fn = distillation_loss_fn
        self.alpha = alpha
        self.temperature = temperature

    def train_step(self, data):
        # Unpack data
        x, y = data

        # Forward pass of teacher
        teacher_predictions = self.teacher(x, training=False)

        with tf.GradientTape() as tape:
            # Forward pass of student
            student_predictions = self.student(x, training=True)

            # Compute losses
            student_loss = self.student_loss_fn(y, student_predictions)
            distillation_loss = self.distillation_loss_fn(
                tf.nn.softmax(teacher_predictions / self.temperature, axis=1),
                tf.nn.softmax(student_predictions / self.temperature, axis=1),
            )
            loss = self.alpha * student_loss + (1 - self.alpha) * distillation_loss

        # Compute gradients
        trainable_vars = self.student.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))

        # Update the metrics configured in `compile()`.
        self.compiled_metrics.update_state(y, student_predictions)

        # Return a dict of performance
        results = {m.name: m.result() for m in self.metrics}
        results.update(
            {"student_loss": student_loss, "distillation_loss": distillation_loss}
        )
        return results

    def test_step(self, data):
        # Unpack the data
        x, y = data

        # Compute predictions
        y_prediction = self.student(x, training=False)

        # Calculate the loss
        student_loss = self.student_loss_fn(y, y_prediction)

        # Update the metrics.
        self.compiled_metrics.update_state(y, y_prediction)

        # Return a dict of performance
        results = {m.name: m.result() for m in self.metrics}
        results.update({"student_loss": student_loss})
        return results


teacher = keras.Sequential(
    [keras.Input(shape=(8, 8, 1)), layers.Flatten(), layers.Dense(32, activation="relu"), layers.Dense(10)],
    name="teacher",
)
student = keras.Sequential(
    [keras.Input(shape=(8, 8, 1)), layers.Flatten(), layers.Dense(8, activation="relu"), layers.Dense(10)],
    name="student",
)


def main():
    fixed_weights(teacher.trainable_variables, seed=1)
    fixed_weights(student.trainable_variables, seed=2)
    x_train = np.reshape(data(3, 48, 8, 8), (-1, 8, 8, 1))
    y_train = labels(4, 48, 10)
    x_test, y_test = x_train[:16], y_train[:16]
    # Initialize and compile distiller
    distiller = Distiller(student=student, teacher=teacher)
    distiller.compile(
        optimizer=keras.optimizers.Adam(),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
        student_loss_fn=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        distillation_loss_fn=keras.losses.KLDivergence(),
        alpha=0.1,
        temperature=10,
    )
    # Distill teacher to student
    hist = distiller.fit(x_train, y_train, epochs=2, batch_size=16, shuffle=False, verbose=0)
    # Evaluate student on test dataset
    ev = distiller.evaluate(x_test, y_test, verbose=0)
    return {"history": hist.history, "evaluate": ev, "student": student.trainable_variables}
