# After: https://github.com/ageron/handson-ml2 (18_reinforcement_learning.ipynb, "Policy
# Gradients": play_one_step with a GradientTape around the policy, play_multiple_episodes,
# discount_rewards, discount_and_normalize_rewards, the training loop averaging
# reward-weighted gradients; binary_crossentropy loss, Adam)
# Adapted: a seeded synthetic CartPole-like environment in NumPy instead of gym, 3 iterations
# of 4 episodes of at most 12 steps; the action's uniform draw (tf.random.uniform there) comes
# from a seeded NumPy generator; fixed starting weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import fixed_weights

RNG = np.random.default_rng(42)


class ToyCartPole:
    """A tiny deterministic stand-in for CartPole-v1: 4 observations, 2 actions."""

    def reset(self, seed):
        self.state = np.random.default_rng(seed).uniform(-0.05, 0.05, size=4)
        self.steps = 0
        return self.state.copy()

    def step(self, action):
        x, v, th, w = self.state
        force = 1.0 if action == 1 else -1.0
        w = w + 0.2 * np.sin(th) + 0.05 * force
        th = th + 0.1 * w
        v = v + 0.1 * force
        x = x + 0.1 * v
        self.state = np.array([x, v, th, w])
        self.steps += 1
        done = abs(th) > 0.2 or abs(x) > 2.4 or self.steps >= 12
        return self.state.copy(), 1.0, done, {}


def play_one_step(env, obs, model, loss_fn):
    with tf.GradientTape() as tape:
        left_proba = model(obs[np.newaxis])
        action = (tf.constant(RNG.uniform(size=(1, 1)), tf.float32) > left_proba)
        y_target = tf.constant([[1.]]) - tf.cast(action, tf.float32)
        loss = tf.reduce_mean(loss_fn(y_target, left_proba))
    grads = tape.gradient(loss, model.trainable_variables)
    obs, reward, done, info = env.step(int(action[0, 0].numpy()))
    return obs, reward, done, grads


def play_multiple_episodes(env, n_episodes, n_max_steps, model, loss_fn):
    all_rewards = []
    all_grads = []
    for episode in range(n_episodes):
        current_rewards = []
        current_grads = []
        obs = env.reset(seed=episode)
        for step in range(n_max_steps):
            obs, reward, done, grads = play_one_step(env, obs, model, loss_fn)
            current_rewards.append(reward)
            current_grads.append(grads)
            if done:
                break
        all_rewards.append(current_rewards)
        all_grads.append(current_grads)
    return all_rewards, all_grads


def discount_rewards(rewards, discount_rate):
    discounted = np.array(rewards)
    for step in range(len(rewards) - 2, -1, -1):
        discounted[step] += discounted[step + 1] * discount_rate
    return discounted


def discount_and_normalize_rewards(all_rewards, discount_rate):
    all_discounted_rewards = [discount_rewards(rewards, discount_rate)
                              for rewards in all_rewards]
    flat_rewards = np.concatenate(all_discounted_rewards)
    reward_mean = flat_rewards.mean()
    reward_std = flat_rewards.std()
    return [(discounted_rewards - reward_mean) / reward_std
            for discounted_rewards in all_discounted_rewards]


def main():
    n_iterations = 3
    n_episodes_per_update = 4
    n_max_steps = 12
    discount_rate = 0.95
    optimizer = keras.optimizers.Adam(learning_rate=0.01)
    loss_fn = keras.losses.binary_crossentropy

    n_inputs = 4
    model = keras.models.Sequential([
        keras.layers.Dense(5, activation="elu", input_shape=[n_inputs]),
        keras.layers.Dense(1, activation="sigmoid"),
    ])
    fixed_weights(model.trainable_variables, seed=1, scale=0.8)
    env = ToyCartPole()
    totals = []
    for iteration in range(n_iterations):
        all_rewards, all_grads = play_multiple_episodes(
            env, n_episodes_per_update, n_max_steps, model, loss_fn)
        total_rewards = sum(map(sum, all_rewards))
        totals.append(total_rewards)
        all_final_rewards = discount_and_normalize_rewards(all_rewards,
                                                           discount_rate)
        all_mean_grads = []
        for var_index in range(len(model.trainable_variables)):
            mean_grads = tf.reduce_mean(
                [final_reward * all_grads[episode_index][step][var_index]
                 for episode_index, final_rewards in enumerate(all_final_rewards)
                     for step, final_reward in enumerate(final_rewards)], axis=0)
            all_mean_grads.append(mean_grads)
        optimizer.apply_gradients(zip(all_mean_grads, model.trainable_variables))
    return {"totals": totals, "weights": model.trainable_variables,
            "discounted": discount_rewards([10, 0, -50], discount_rate=0.8)}
