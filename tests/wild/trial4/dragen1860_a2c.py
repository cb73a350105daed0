# After: https://github.com/dragen1860/TensorFlow-2.x-Tutorials (17-A2C/a2c.py: the
# ProbabilityDistribution model, the two-headed policy/value Model with action_value through
# predict, the A2CAgent compiled with RMSprop and a list of two custom losses (the policy
# loss packing actions and advantages into one target, sample_weight, the entropy term;
# the value loss), train() collecting batches and calling train_on_batch, the returns and
# advantages, and test())
# Adapted: a small deterministic CartPole (gym's CartPole-v0 equations, its 200-step limit
# and old reset/step API, a seeded NumPy start state) instead of gym, which is not installed
# where the answers were recorded; the action drawn by a tf.numpy_function from seeded NumPy
# with the policy's probabilities instead of tf.random.categorical (whose stream differs
# between libraries); 3 updates instead of 1000; the model called once on zeros to build
# it, then given fixed weights; the plot and the logging setup left out. For NumPy 2:
# train() stores action_value's one-element arrays into actions[step:step+1] and
# values[step:step+1] instead of actions[step] and values[step] (NumPy 2 refuses to store a
# one-element array in one slot).
import collections
import logging
import math

import numpy as np
import tensorflow as tf
import tensorflow.keras.layers as kl
import tensorflow.keras.losses as kls
import tensorflow.keras.optimizers as ko
from adapt import fixed_weights

ACTION_RNG = np.random.default_rng(1)


class CartPoleEnv:
    """gym's CartPole-v0 dynamics with the old gym API, deterministic given a seed."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.observation_space = collections.namedtuple("Box", "shape")((4,))
        self.action_space = collections.namedtuple("Discrete", "n")(2)

    def reset(self):
        self.state, self.steps = self.rng.uniform(-0.05, 0.05, size=4), 0
        return self.state.copy()

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
        self.state, self.steps = np.array([x, x_dot, theta, theta_dot]), self.steps + 1
        done = bool(x < -2.4 or x > 2.4 or theta < -0.2095 or theta > 0.2095
                    or self.steps >= 200)
        return self.state.copy(), 1.0, done, {}


@tf.numpy_function(Tout=tf.int64)
def sample_categorical(logits):
    """The adaptation's draw of one action per row, by seeded NumPy."""
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p = p / p.sum(axis=-1, keepdims=True)
    return np.array([[ACTION_RNG.choice(p.shape[-1], p=row)] for row in p], np.int64)


class ProbabilityDistribution(tf.keras.Model):
    def call(self, logits):
        # sample a random categorical action from given logits
        return tf.squeeze(sample_categorical(logits), axis=-1)


class Model(tf.keras.Model):
    def __init__(self, num_actions):
        super().__init__('mlp_policy')
        # no tf.get_variable(), just simple Keras API
        self.hidden1 = kl.Dense(128, activation='relu')
        self.hidden2 = kl.Dense(128, activation='relu')
        self.value = kl.Dense(1, name='value')
        # logits are unnormalized log probabilities
        self.logits = kl.Dense(num_actions, name='policy_logits')
        self.dist = ProbabilityDistribution()

    def call(self, inputs):
        # inputs is a numpy array, convert to Tensor
        x = tf.convert_to_tensor(inputs)
        # separate hidden layers from the same input tensor
        hidden_logs = self.hidden1(x)
        hidden_vals = self.hidden2(x)
        return self.logits(hidden_logs), self.value(hidden_vals)

    def action_value(self, obs):
        # executes call() under the hood
        logits, value = self.predict(obs)
        action = self.dist.predict(logits)
        # a simpler option, will become clear later why we don't use it
        # action = tf.random.categorical(logits, 1)
        return np.squeeze(action, axis=-1), np.squeeze(value, axis=-1)


class A2CAgent:
    def __init__(self, model):
        # hyperparameters for loss terms, gamma is the discount coefficient
        self.params = {
            'gamma': 0.99,
            'value': 0.5,
            'entropy': 0.0001
        }
        self.model = model
        self.model.compile(
            optimizer=ko.RMSprop(lr=0.0007),
            # define separate losses for policy logits and value estimate
            loss=[self._logits_loss, self._value_loss]
        )
        self.losses = []

    def train(self, env, batch_sz=32, updates=1000):
        # storage helpers for a single batch of data
        actions = np.empty((batch_sz,), dtype=np.int32)
        rewards, dones, values = np.empty((3, batch_sz))
        observations = np.empty((batch_sz,) + env.observation_space.shape)
        # training loop: collect samples, send to optimizer, repeat updates times
        ep_rews = [0.0]
        next_obs = env.reset()
        for update in range(updates):
            for step in range(batch_sz):
                observations[step] = next_obs.copy()
                actions[step:step+1], values[step:step+1] = self.model.action_value(next_obs[None, :])
                next_obs, rewards[step], dones[step], _ = env.step(actions[step])

                ep_rews[-1] += rewards[step]
                if dones[step]:
                    ep_rews.append(0.0)
                    next_obs = env.reset()
                    logging.info("Episode: %03d, Reward: %03d" % (len(ep_rews)-1, ep_rews[-2]))

            _, next_value = self.model.action_value(next_obs[None, :])
            returns, advs = self._returns_advantages(rewards, dones, values, next_value)
            # a trick to input actions and advantages through same API
            acts_and_advs = np.concatenate([actions[:, None], advs[:, None]], axis=-1)
            # performs a full training step on the collected batch
            # note: no need to mess around with gradients, Keras API handles it
            losses = self.model.train_on_batch(observations, [acts_and_advs, returns])
            logging.debug("[%d/%d] Losses: %s" % (update+1, updates, losses))
            self.losses.append(losses)
        return ep_rews

    def test(self, env, render=False):
        obs, done, ep_reward = env.reset(), False, 0
        while not done:
            action, _ = self.model.action_value(obs[None, :])
            obs, reward, done, _ = env.step(action)
            ep_reward += reward
            if render:
                env.render()
        return ep_reward

    def _returns_advantages(self, rewards, dones, values, next_value):
        # next_value is the bootstrap value estimate of a future state (the critic)
        returns = np.append(np.zeros_like(rewards), next_value, axis=-1)
        # returns are calculated as discounted sum of future rewards
        for t in reversed(range(rewards.shape[0])):
            returns[t] = rewards[t] + self.params['gamma'] * returns[t+1] * (1-dones[t])
        returns = returns[:-1]
        # advantages are returns - baseline, value estimates in our case
        advantages = returns - values
        return returns, advantages

    def _value_loss(self, returns, value):
        # value loss is typically MSE between value estimates and returns
        return self.params['value']*kls.mean_squared_error(returns, value)

    def _logits_loss(self, acts_and_advs, logits):
        # a trick to input actions and advantages through same API
        actions, advantages = tf.split(acts_and_advs, 2, axis=-1)
        # sparse categorical CE loss obj that supports sample_weight arg on call()
        # from_logits argument ensures transformation into normalized probabilities
        weighted_sparse_ce = kls.SparseCategoricalCrossentropy(from_logits=True)
        # policy loss is defined by policy gradients, weighted by advantages
        # note: we only calculate the loss on the actions we've actually taken
        actions = tf.cast(actions, tf.int32)
        policy_loss = weighted_sparse_ce(actions, logits, sample_weight=advantages)
        # entropy loss can be calculated via CE over itself
        entropy_loss = kls.categorical_crossentropy(logits, logits, from_logits=True)
        # here signs are flipped because optimizer minimizes
        return policy_loss - self.params['entropy']*entropy_loss


def main():
    env = CartPoleEnv(seed=0)
    model = Model(num_actions=env.action_space.n)
    model(np.zeros((1, 4)))
    fixed_weights(model.weights, seed=2, scale=0.2)
    agent = A2CAgent(model)

    rewards_history = agent.train(env, updates=3)
    print("Finished training.")
    test_reward = agent.test(env, False)
    print("Total Episode Reward: %d out of 200" % test_reward)
    return {"rewards_history": rewards_history, "losses": agent.losses,
            "test_reward": test_reward, "weights": model.weights}
