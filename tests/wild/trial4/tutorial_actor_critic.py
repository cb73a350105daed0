# After: https://www.tensorflow.org/tutorials/reinforcement_learning/actor_critic (the
# ActorCritic model, env_step as a tf.numpy_function, run_episode gathering action
# probabilities, values and rewards in dynamic tf.TensorArrays inside a tf.range loop with
# a break, get_expected_return with a TensorArray and set_shape, the Huber critic loss with
# Reduction.SUM, compute_loss, the @tf.function train_step with a GradientTape, and the
# training loop over episodes with a deque of rewards)
# Adapted: a small deterministic CartPole (gym's CartPole-v1 equations, a seeded NumPy start
# state) instead of gym, which is not installed where the answers were recorded; the
# action drawn by a tf.numpy_function from seeded NumPy with the policy's probabilities
# instead of tf.random.categorical (whose stream differs between libraries); 4 episodes
# of at most 40 steps instead of up to 10000 of 500; range instead of tqdm.trange (tqdm is
# not installed where the answers were recorded); fixed weights (the model is called once
# to build it); the rendering to a GIF left out.
import collections
import math
import statistics
from typing import Any, List, Sequence, Tuple

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import fixed_weights


class CartPoleEnv:
  """gym's CartPole-v1 dynamics, deterministic given a seed."""

  def __init__(self, seed):
    self.rng = np.random.default_rng(seed)
    self.action_space = collections.namedtuple("Discrete", "n")(2)

  def reset(self):
    self.state = self.rng.uniform(-0.05, 0.05, size=4)
    return self.state.astype(np.float32), {}

  def step(self, action):
    x, x_dot, theta, theta_dot = self.state
    force = 10.0 if action == 1 else -10.0
    costheta, sintheta = math.cos(theta), math.sin(theta)
    temp = (force + 0.05 * theta_dot ** 2 * sintheta) / 1.1
    thetaacc = (9.8 * sintheta - costheta * temp) / (
        0.5 * (4.0 / 3.0 - 0.1 * costheta ** 2 / 1.1))
    xacc = temp - 0.05 * thetaacc * costheta / 1.1
    x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc
    theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc
    self.state = np.array([x, x_dot, theta, theta_dot])
    done = bool(x < -2.4 or x > 2.4 or theta < -0.2095 or theta > 0.2095)
    return self.state.astype(np.float32), 1.0, done, False, {}


# Create the environment
env = CartPoleEnv(seed=0)
ACTION_RNG = np.random.default_rng(1)

# Set seed for experiment reproducibility
seed = 42
tf.random.set_seed(seed)
np.random.seed(seed)

# Small epsilon value for stabilizing division operations
eps = np.finfo(np.float32).eps.item()


class ActorCritic(tf.keras.Model):
  """Combined actor-critic network."""

  def __init__(
      self,
      num_actions: int,
      num_hidden_units: int):
    """Initialize."""
    super().__init__()

    self.common = layers.Dense(num_hidden_units, activation="relu")
    self.actor = layers.Dense(num_actions)
    self.critic = layers.Dense(1)

  def call(self, inputs: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
    x = self.common(inputs)
    return self.actor(x), self.critic(x)


@tf.numpy_function(Tout=tf.int64)
def sample_action(logits: np.ndarray) -> np.ndarray:
  """The adaptation's draw from the policy, by seeded NumPy."""
  p = np.exp(logits[0] - logits[0].max())
  return np.array(ACTION_RNG.choice(len(p), p=p / p.sum()), np.int64)


# Wrap Gym's `env.step` call as an operation in a TensorFlow function.
# This would allow it to be included in a callable TensorFlow graph.

@tf.numpy_function(Tout=[tf.float32, tf.int32, tf.int32])
def env_step(action: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
  """Returns state, reward and done flag given an action."""

  state, reward, done, truncated, info = env.step(action)
  return (state.astype(np.float32),
          np.array(reward, np.int32),
          np.array(done, np.int32))


def run_episode(
    initial_state: tf.Tensor,
    model: tf.keras.Model,
    max_steps: int) -> Tuple[tf.Tensor, tf.Tensor, tf.Tensor]:
  """Runs a single episode to collect training data."""

  action_probs = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=True)
  values = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=True)
  rewards = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)

  initial_state_shape = initial_state.shape
  state = initial_state

  for t in tf.range(max_steps):
    # Convert state into a batched tensor (batch size = 1)
    state = tf.expand_dims(state, 0)

    # Run the model and to get action probabilities and critic value
    action_logits_t, value = model(state)

    # Sample next action from the action probability distribution
    action = sample_action(action_logits_t)
    action_probs_t = tf.nn.softmax(action_logits_t)

    # Store critic values
    values = values.write(t, tf.squeeze(value))

    # Store log probability of the action chosen
    action_probs = action_probs.write(t, action_probs_t[0, action])

    # Apply action to the environment to get next state and reward
    state, reward, done = env_step(action)
    state.set_shape(initial_state_shape)

    # Store reward
    rewards = rewards.write(t, reward)

    if tf.cast(done, tf.bool):
      break

  action_probs = action_probs.stack()
  values = values.stack()
  rewards = rewards.stack()

  return action_probs, values, rewards


def get_expected_return(
    rewards: tf.Tensor,
    gamma: float,
    standardize: bool = True) -> tf.Tensor:
  """Compute expected returns per timestep."""

  n = tf.shape(rewards)[0]
  returns = tf.TensorArray(dtype=tf.float32, size=n)

  # Start from the end of `rewards` and accumulate reward sums
  # into the `returns` array
  rewards = tf.cast(rewards[::-1], dtype=tf.float32)
  discounted_sum = tf.constant(0.0)
  discounted_sum_shape = discounted_sum.shape
  for i in tf.range(n):
    reward = rewards[i]
    discounted_sum = reward + gamma * discounted_sum
    discounted_sum.set_shape(discounted_sum_shape)
    returns = returns.write(i, discounted_sum)
  returns = returns.stack()[::-1]

  if standardize:
    returns = ((returns - tf.math.reduce_mean(returns)) /
               (tf.math.reduce_std(returns) + eps))

  return returns


huber_loss = tf.keras.losses.Huber(reduction=tf.keras.losses.Reduction.SUM)


def compute_loss(
    action_probs: tf.Tensor,
    values: tf.Tensor,
    returns: tf.Tensor) -> tf.Tensor:
  """Computes the combined Actor-Critic loss."""

  advantage = returns - values

  action_log_probs = tf.math.log(action_probs)
  actor_loss = -tf.math.reduce_sum(action_log_probs * advantage)

  critic_loss = huber_loss(values, returns)

  return actor_loss + critic_loss


def main():
  num_actions = env.action_space.n  # 2
  num_hidden_units = 128

  model = ActorCritic(num_actions, num_hidden_units)
  model(tf.zeros((1, 4)))
  fixed_weights(model.weights, seed=2, scale=0.2)
  optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)

  @tf.function
  def train_step(
      initial_state: tf.Tensor,
      model: tf.keras.Model,
      optimizer: tf.keras.optimizers.Optimizer,
      gamma: float,
      max_steps_per_episode: int) -> tf.Tensor:
    """Runs a model training step."""

    with tf.GradientTape() as tape:

      # Run the model for one episode to collect training data
      action_probs, values, rewards = run_episode(
          initial_state, model, max_steps_per_episode)

      # Calculate the expected returns
      returns = get_expected_return(rewards, gamma)

      # Convert training data to appropriate TF tensor shapes
      action_probs, values, returns = [
          tf.expand_dims(x, 1) for x in [action_probs, values, returns]]

      # Calculate the loss values to update our network
      loss = compute_loss(action_probs, values, returns)

    # Compute the gradients from the loss
    grads = tape.gradient(loss, model.trainable_variables)

    # Apply the gradients to the model's parameters
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

    episode_reward = tf.math.reduce_sum(rewards)

    return episode_reward

  min_episodes_criterion = 100
  max_episodes = 4
  max_steps_per_episode = 40

  # `CartPole-v1` is considered solved if average reward is >= 475 over 500
  # consecutive trials
  reward_threshold = 475
  running_reward = 0

  # The discount factor for future rewards
  gamma = 0.99

  # Keep the last episodes reward
  episodes_reward: collections.deque = collections.deque(maxlen=min_episodes_criterion)
  rewards = []

  t = range(max_episodes)
  for i in t:
      initial_state, info = env.reset()
      initial_state = tf.constant(initial_state, dtype=tf.float32)
      episode_reward = int(train_step(
          initial_state, model, optimizer, gamma, max_steps_per_episode))

      episodes_reward.append(episode_reward)
      running_reward = statistics.mean(episodes_reward)
      rewards.append(episode_reward)

      if running_reward > reward_threshold and i >= min_episodes_criterion:
          break

  print(f'\nSolved at episode {i}: average reward: {running_reward:.2f}!')
  returns = get_expected_return(tf.constant([1, 1, 1, 1], tf.int32), gamma)
  return {"episode_rewards": rewards, "running_reward": running_reward,
          "weights": model.weights, "returns": returns}
