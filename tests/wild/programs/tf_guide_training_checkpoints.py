# After: https://www.tensorflow.org/guide/checkpoint (TensorFlow's "Training checkpoints"
# guide, its "Writing checkpoints" part): a subclassed Net, a toy
# dataset iterator saved with the model and optimizer, CheckpointManager(max_to_keep=3),
# train_and_checkpoint run twice, the second time restored into a new Net, optimizer and
# iterator. Adapted: the checkpoint directory is a temporary one instead of './tf_ckpts',
# Net's weights are fixed, and the answers are returned instead of printed.
import os
import tempfile

import tensorflow as tf

from adapt import fixed_weights


class Net(tf.keras.Model):
    """A simple linear model."""

    def __init__(self):
        super(Net, self).__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


def toy_dataset():
    inputs = tf.range(10.)[:, None]
    labels = inputs * 5. + tf.range(5.)[None, :]
    return tf.data.Dataset.from_tensor_slices(
        dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
    """Trains `net` on `example` using `optimizer`."""
    with tf.GradientTape() as tape:
        output = net(example['x'])
        loss = tf.reduce_mean(tf.abs(output - example['y']))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


def main():
    directory = os.path.join(tempfile.mkdtemp(), "tf_ckpts")
    out = {"messages": [], "losses": []}

    def train_and_checkpoint(net, manager, ckpt, iterator, opt):
        ckpt.restore(manager.latest_checkpoint)
        if manager.latest_checkpoint:
            out["messages"].append("Restored from {}".format(
                os.path.basename(manager.latest_checkpoint)))
        else:
            out["messages"].append("Initializing from scratch.")
            net(tf.zeros((1, 1)))
            fixed_weights(net.trainable_variables)

        for _ in range(50):
            example = next(iterator)
            loss = train_step(net, example, opt)
            ckpt.step.assign_add(1)
            if int(ckpt.step) % 10 == 0:
                save_path = manager.save()
                out["messages"].append("Saved checkpoint for step {}: {}".format(
                    int(ckpt.step), os.path.basename(save_path)))
                out["losses"].append(loss)

    for run in range(2):
        net = Net()
        opt = tf.keras.optimizers.Adam(0.1)
        dataset = toy_dataset()
        iterator = iter(dataset)
        ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net,
                                   iterator=iterator)
        manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=3)
        train_and_checkpoint(net, manager, ckpt, iterator, opt)
        out["weights_%d" % run] = net.get_weights()
        out["step_%d" % run] = ckpt.step
        out["next_x_%d" % run] = next(iterator)["x"]
    out["checkpoints"] = [os.path.basename(p) for p in manager.checkpoints]
    return out
