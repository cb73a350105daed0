# After: https://keras.io/examples/rl/deep_q_network_breakout/ (the tf.keras version:
# create_q_model with Conv2D 8/4/3 and Dense, Adam with clipnorm, Huber loss, the training
# update with tf.one_hot masks, model_target.predict and the target network copy)
# Adapted: a seeded synthetic 36x36x4 frame environment in NumPy instead of Atari Breakout
# (84x84x4), 40 frames, a replay batch of 8 and updates every 4 frames; epsilon-greedy actions
# and batch indices from a seeded NumPy generator; fixed starting weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights

gamma = 0.99  # Discount factor for past rewards
epsilon = 1.0  # Epsilon greedy parameter
epsilon_min = 0.1  # Minimum epsilon greedy parameter
epsilon_max = 1.0  # Maximum epsilon greedy parameter
epsilon_interval = (epsilon_max - epsilon_min)
batch_size = 8
num_actions = 4


def create_q_model():
    # Network defined by the Deepmind paper
    inputs = layers.Input(shape=(36, 36, 4,))

    # Convolutions on the frames on the screen
    layer1 = layers.Conv2D(8, 8, strides=4, activation="relu")(inputs)
    layer2 = layers.Conv2D(8, 4, strides=2, activation="relu")(layer1)
    layer3 = layers.Conv2D(8, 3, strides=1, activation="relu")(layer2)

    layer4 = layers.Flatten()(layer3)

    layer5 = layers.Dense(32, activation="relu")(layer4)
    action = layers.Dense(num_actions, activation="linear")(layer5)

    return keras.Model(inputs=inputs, outputs=action)


def main():
    global epsilon
    rng = np.random.default_rng(0)
    model = create_q_model()
    model_target = create_q_model()
    fixed_weights(model.trainable_variables, seed=1, scale=0.1)
    model_target.set_weights(model.get_weights())

    optimizer = keras.optimizers.Adam(learning_rate=0.00025, clipnorm=1.0)
    loss_function = keras.losses.Huber()

    action_history, state_history, state_next_history = [], [], []
    rewards_history, done_history = [], []
    losses = []
    frame_count = 0
    epsilon_random_frames = 10
    epsilon_greedy_frames = 100.0
    update_after_actions = 4
    update_target_network = 20
    state = rng.uniform(0, 1, size=(36, 36, 4)).astype("float32")
    for timestep in range(1, 41):
        frame_count += 1
        if frame_count < epsilon_random_frames or epsilon > rng.random():
            action = int(rng.choice(num_actions))
        else:
            state_tensor = tf.convert_to_tensor(state)
            state_tensor = tf.expand_dims(state_tensor, 0)
            action_probs = model(state_tensor, training=False)
            action = tf.argmax(action_probs[0]).numpy()
        epsilon -= epsilon_interval / epsilon_greedy_frames
        epsilon = max(epsilon, epsilon_min)

        state_next = np.roll(state, 1, axis=-1)
        state_next[..., 0] = rng.uniform(0, 1, size=(36, 36)) * (0.5 + 0.1 * action)
        reward = float(action == 2) - 0.1
        done = timestep % 15 == 0

        action_history.append(action)
        state_history.append(state)
        state_next_history.append(state_next)
        done_history.append(done)
        rewards_history.append(reward)
        state = state_next

        if frame_count % update_after_actions == 0 and len(done_history) > batch_size:
            indices = rng.choice(range(len(done_history)), size=batch_size)
            state_sample = np.array([state_history[i] for i in indices])
            state_next_sample = np.array([state_next_history[i] for i in indices])
            rewards_sample = [rewards_history[i] for i in indices]
            action_sample = [action_history[i] for i in indices]
            done_sample = tf.convert_to_tensor(
                [float(done_history[i]) for i in indices]
            )

            # Build the updated Q-values for the sampled future states
            # Use the target model for stability
            future_rewards = model_target.predict(state_next_sample, verbose=0)
            # Q value = reward + discount factor * expected future reward
            updated_q_values = rewards_sample + gamma * tf.reduce_max(
                future_rewards, axis=1
            )

            # If final frame set the last value to -1
            updated_q_values = updated_q_values * (1 - done_sample) - done_sample

            # Create a mask so we only calculate loss on the updated Q-values
            masks = tf.one_hot(action_sample, num_actions)

            with tf.GradientTape() as tape:
                # Train the model on the states and updated Q-values
                q_values = model(state_sample)

                # Apply the masks to the Q-values to get the Q-value for action taken
                q_action = tf.reduce_sum(tf.multiply(q_values, masks), axis=1)
                # Calculate loss between new Q-value and old Q-value
                loss = loss_function(updated_q_values, q_action)

            # Backpropagation
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(loss)

        if frame_count % update_target_network == 0:
            # update the the target network with new weights
            model_target.set_weights(model.get_weights())
    return {"losses": losses, "actions": action_history,
            "dense_sum": tf.reduce_sum(model.trainable_variables[-2]),
            "target_last": model_target.get_weights()[-1]}
