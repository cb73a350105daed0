# After: https://keras.io/examples/rl/ppo_cartpole/ (the tf.keras version: the Buffer with
# GAE-lambda advantages from discounted_cumulative_sums, mlp actor and critic as functional
# models, logprobabilities, the @tf.function train_policy with the clipped ratio objective
# and its KL early stop, train_value_function)
# Adapted: a tiny deterministic stand-in for CartPole (4 observations, 2 actions) instead
# of gym; 2 epochs of 40 steps with train_policy_iterations and train_value_iterations of
# 4; fixed weights; the sampled action drawn by seeded NumPy from the logits
# (tf.random.categorical's stream differs between libraries); scipy's lfilter written in
# NumPy (scipy is not needed elsewhere); Buffer.store squeezes the one-element action,
# value and log-probability (NumPy 2 refuses to store a (1,) or (1, 1) array in one slot).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights


def discounted_cumulative_sums(x, discount):
    # Discounted cumulative sums of vectors for computing rewards-to-go and advantage estimates
    # (the source's scipy.signal.lfilter([1], [1, -discount], x[::-1])[::-1], in NumPy)
    out = np.zeros(len(x))
    running = 0.0
    for i in range(len(x) - 1, -1, -1):
        running = x[i] + discount * running
        out[i] = running
    return out


class Buffer:
    # Buffer for storing trajectories
    def __init__(self, observation_dimensions, size, gamma=0.99, lam=0.95):
        # Buffer initialization
        self.observation_buffer = np.zeros(
            (size, observation_dimensions), dtype=np.float32
        )
        self.action_buffer = np.zeros(size, dtype=np.int32)
        self.advantage_buffer = np.zeros(size, dtype=np.float32)
        self.reward_buffer = np.zeros(size, dtype=np.float32)
        self.return_buffer = np.zeros(size, dtype=np.float32)
        self.value_buffer = np.zeros(size, dtype=np.float32)
        self.logprobability_buffer = np.zeros(size, dtype=np.float32)
        self.gamma, self.lam = gamma, lam
        self.pointer, self.trajectory_start_index = 0, 0

    def store(self, observation, action, reward, value, logprobability):
        # Append one step of agent-environment interaction
        self.observation_buffer[self.pointer] = observation
        self.action_buffer[self.pointer] = np.squeeze(action)
        self.reward_buffer[self.pointer] = reward
        self.value_buffer[self.pointer] = np.squeeze(value)
        self.logprobability_buffer[self.pointer] = np.squeeze(logprobability)
        self.pointer += 1

    def finish_trajectory(self, last_value=0):
        # Finish the trajectory by computing advantage estimates and rewards-to-go
        path_slice = slice(self.trajectory_start_index, self.pointer)
        rewards = np.append(self.reward_buffer[path_slice], last_value)
        values = np.append(self.value_buffer[path_slice], last_value)

        deltas = rewards[:-1] + self.gamma * values[1:] - values[:-1]

        self.advantage_buffer[path_slice] = discounted_cumulative_sums(
            deltas, self.gamma * self.lam
        )
        self.return_buffer[path_slice] = discounted_cumulative_sums(
            rewards, self.gamma
        )[:-1]

        self.trajectory_start_index = self.pointer

    def get(self):
        # Get all data of the buffer and normalize the advantages
        self.pointer, self.trajectory_start_index = 0, 0
        advantage_mean, advantage_std = (
            np.mean(self.advantage_buffer),
            np.std(self.advantage_buffer),
        )
        self.advantage_buffer = (self.advantage_buffer - advantage_mean) / advantage_std
        return (
            self.observation_buffer,
            self.action_buffer,
            self.advantage_buffer,
            self.return_buffer,
            self.logprobability_buffer,
        )


def mlp(x, sizes, activation=tf.tanh, output_activation=None):
    # Build a feedforward neural network
    for size in sizes[:-1]:
        x = layers.Dense(units=size, activation=activation)(x)
    return layers.Dense(units=sizes[-1], activation=output_activation)(x)


class TinyCartPole:
    """Deterministic stand-in for gym's CartPole-v1: linear dynamics, reward 1 a step."""

    def __init__(self):
        self.state = None

    def reset(self):
        self.state = np.array([0.02, -0.01, 0.03, 0.015])
        return self.state.copy()

    def step(self, action):
        force = 1.0 if action == 1 else -1.0
        x, v, th, w = self.state
        self.state = np.array([x + 0.1 * v, v + 0.1 * force, th + 0.1 * w, w - 0.15 * force + 0.2 * th])
        done = abs(self.state[2]) > 0.2 or abs(self.state[0]) > 2.4
        return self.state.copy(), 1.0, done, {}


def main():
    steps_per_epoch = 40
    epochs = 2
    gamma = 0.99
    clip_ratio = 0.2
    policy_learning_rate = 3e-4
    value_function_learning_rate = 1e-3
    train_policy_iterations = 4
    train_value_iterations = 4
    lam = 0.97
    target_kl = 0.01
    hidden_sizes = (64, 64)

    env = TinyCartPole()
    observation_dimensions = 4
    num_actions = 2
    rng = np.random.default_rng(11)

    buffer = Buffer(observation_dimensions, steps_per_epoch)

    observation_input = keras.Input(shape=(observation_dimensions,), dtype="float32")
    logits = mlp(observation_input, list(hidden_sizes) + [num_actions])
    actor = keras.Model(inputs=observation_input, outputs=logits)
    value = tf.squeeze(
        mlp(observation_input, list(hidden_sizes) + [1]), axis=1
    )
    critic = keras.Model(inputs=observation_input, outputs=value)
    fixed_weights(actor.trainable_variables, seed=2, scale=0.3)
    fixed_weights(critic.trainable_variables, seed=3, scale=0.3)

    policy_optimizer = keras.optimizers.Adam(learning_rate=policy_learning_rate)
    value_optimizer = keras.optimizers.Adam(learning_rate=value_function_learning_rate)

    def logprobabilities(logits, a):
        # Compute the log-probabilities of taking actions a by using the logits (i.e. the output of the actor)
        logprobabilities_all = tf.nn.log_softmax(logits)
        logprobability = tf.reduce_sum(
            tf.one_hot(a, num_actions) * logprobabilities_all, axis=1
        )
        return logprobability

    def sample_action(observation):
        logits = actor(observation)
        probs = tf.nn.softmax(logits).numpy()[0].astype(np.float64)
        action = np.array([rng.choice(num_actions, p=probs / probs.sum())])
        return logits, action

    @tf.function
    def train_policy(
        observation_buffer, action_buffer, logprobability_buffer, advantage_buffer
    ):
        with tf.GradientTape() as tape:  # Record operations for automatic differentiation.
            ratio = tf.exp(
                logprobabilities(actor(observation_buffer), action_buffer)
                - logprobability_buffer
            )
            min_advantage = tf.where(
                advantage_buffer > 0,
                (1 + clip_ratio) * advantage_buffer,
                (1 - clip_ratio) * advantage_buffer,
            )

            policy_loss = -tf.reduce_mean(
                tf.minimum(ratio * advantage_buffer, min_advantage)
            )
        policy_grads = tape.gradient(policy_loss, actor.trainable_variables)
        policy_optimizer.apply_gradients(zip(policy_grads, actor.trainable_variables))

        kl = tf.reduce_mean(
            logprobability_buffer
            - logprobabilities(actor(observation_buffer), action_buffer)
        )
        kl = tf.reduce_sum(kl)
        return kl

    @tf.function
    def train_value_function(observation_buffer, return_buffer):
        with tf.GradientTape() as tape:  # Record operations for automatic differentiation.
            value_loss = tf.reduce_mean((return_buffer - critic(observation_buffer)) ** 2)
        value_grads = tape.gradient(value_loss, critic.trainable_variables)
        value_optimizer.apply_gradients(zip(value_grads, critic.trainable_variables))

    observation, episode_return, episode_length = env.reset(), 0, 0
    kls, mean_returns = [], []
    for epoch in range(epochs):
        sum_return = 0
        sum_length = 0
        num_episodes = 0

        for t in range(steps_per_epoch):
            observation = observation.reshape(1, -1)
            logits, action = sample_action(observation)
            observation_new, reward, done, _ = env.step(action[0])
            episode_return += reward
            episode_length += 1

            value_t = critic(observation)
            logprobability_t = logprobabilities(logits, action)

            buffer.store(observation, action, reward, value_t, logprobability_t)

            observation = observation_new

            terminal = done
            if terminal or (t == steps_per_epoch - 1):
                last_value = 0 if done else critic(observation.reshape(1, -1))
                buffer.finish_trajectory(last_value)
                sum_return += episode_return
                sum_length += episode_length
                num_episodes += 1
                observation, episode_return, episode_length = env.reset(), 0, 0

        (
            observation_buffer,
            action_buffer,
            advantage_buffer,
            return_buffer,
            logprobability_buffer,
        ) = buffer.get()

        for _ in range(train_policy_iterations):
            kl = train_policy(
                observation_buffer, action_buffer, logprobability_buffer, advantage_buffer
            )
            kls.append(float(kl))
            if kl > 1.5 * target_kl:
                # Early Stopping
                break

        for _ in range(train_value_iterations):
            train_value_function(observation_buffer, return_buffer)
        mean_returns.append(sum_return / num_episodes)

    return {"kls": kls, "mean_returns": mean_returns,
            "value": critic(observation_buffer[:5]),
            "logits": actor(observation_buffer[:5])}
