# After: https://github.com/marload/DeepRL-TensorFlow2 (DQN/DQN_Discrete.py: float64 Keras
# through set_floatx, the ReplayBuffer, ActionStateModel with epsilon-greedy get_action and
# a Sequential Q-network compiled with mse and Adam, the Agent with a target network copied
# by get_weights/set_weights, replay() building TD targets from the target network's
# predictions and training by model.fit)
# Adapted: a small deterministic CartPole (gym's CartPole-v1 equations and its old
# reset/step API, a seeded NumPy start state) instead of gym, which is not installed where
# the answers were recorded; 3 episodes instead of 1000; random.seed(0) and np.random.seed(0)
# for the replay sampling and the epsilon-greedy draws (Python's and NumPy's generators,
# the same in both libraries); parse_args([]) (the defaults) instead of the command line;
# fixed weights in create_model; wandb's init and log calls left out (wandb is not
# installed where the answers were recorded).
import tensorflow as tf
from tensorflow.keras.layers import Input, Dense
from tensorflow.keras.optimizers import Adam

import argparse
import collections
import math
import numpy as np
from collections import deque
import random
from adapt import fixed_weights

tf.keras.backend.set_floatx('float64')

parser = argparse.ArgumentParser()
parser.add_argument('--gamma', type=float, default=0.95)
parser.add_argument('--lr', type=float, default=0.005)
parser.add_argument('--batch_size', type=int, default=32)
parser.add_argument('--eps', type=float, default=1.0)
parser.add_argument('--eps_decay', type=float, default=0.995)
parser.add_argument('--eps_min', type=float, default=0.01)

args = parser.parse_args([])


class CartPoleEnv:
    """gym's CartPole-v1 dynamics with the old gym API, deterministic given a seed."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.observation_space = collections.namedtuple("Box", "shape")((4,))
        self.action_space = collections.namedtuple("Discrete", "n")(2)

    def reset(self):
        self.state = self.rng.uniform(-0.05, 0.05, size=4)
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
        self.state = np.array([x, x_dot, theta, theta_dot])
        done = bool(x < -2.4 or x > 2.4 or theta < -0.2095 or theta > 0.2095)
        return self.state.copy(), 1.0, done, {}


class ReplayBuffer:
    def __init__(self, capacity=10000):
        self.buffer = deque(maxlen=capacity)

    def put(self, state, action, reward, next_state, done):
        self.buffer.append([state, action, reward, next_state, done])

    def sample(self):
        sample = random.sample(self.buffer, args.batch_size)
        states, actions, rewards, next_states, done = map(np.asarray, zip(*sample))
        states = np.array(states).reshape(args.batch_size, -1)
        next_states = np.array(next_states).reshape(args.batch_size, -1)
        return states, actions, rewards, next_states, done

    def size(self):
        return len(self.buffer)


class ActionStateModel:
    def __init__(self, state_dim, aciton_dim):
        self.state_dim  = state_dim
        self.action_dim = aciton_dim
        self.epsilon = args.eps

        self.model = self.create_model()

    def create_model(self):
        model = tf.keras.Sequential([
            Input((self.state_dim,)),
            Dense(32, activation='relu'),
            Dense(16, activation='relu'),
            Dense(self.action_dim)
        ])
        model.compile(loss='mse', optimizer=Adam(args.lr))
        fixed_weights(model.weights, seed=1, scale=0.3)
        return model

    def predict(self, state):
        return self.model.predict(state)

    def get_action(self, state):
        state = np.reshape(state, [1, self.state_dim])
        self.epsilon *= args.eps_decay
        self.epsilon = max(self.epsilon, args.eps_min)
        q_value = self.predict(state)[0]
        if np.random.random() < self.epsilon:
            return random.randint(0, self.action_dim-1)
        return np.argmax(q_value)

    def train(self, states, targets):
        self.model.fit(states, targets, epochs=1, verbose=0)


class Agent:
    def __init__(self, env):
        self.env = env
        self.state_dim = self.env.observation_space.shape[0]
        self.action_dim = self.env.action_space.n

        self.model = ActionStateModel(self.state_dim, self.action_dim)
        self.target_model = ActionStateModel(self.state_dim, self.action_dim)
        self.target_update()

        self.buffer = ReplayBuffer()
        self.rewards = []

    def target_update(self):
        weights = self.model.model.get_weights()
        self.target_model.model.set_weights(weights)

    def replay(self):
        for _ in range(10):
            states, actions, rewards, next_states, done = self.buffer.sample()
            targets = self.target_model.predict(states)
            next_q_values = self.target_model.predict(next_states).max(axis=1)
            targets[range(args.batch_size), actions] = rewards + (1-done) * next_q_values * args.gamma
            self.model.train(states, targets)

    def train(self, max_episodes=1000):
        for ep in range(max_episodes):
            done, total_reward = False, 0
            state = self.env.reset()
            while not done:
                action = self.model.get_action(state)
                next_state, reward, done, _ = self.env.step(action)
                self.buffer.put(state, action, reward*0.01, next_state, done)
                total_reward += reward
                state = next_state
            if self.buffer.size() >= args.batch_size:
                self.replay()
            self.target_update()
            print('EP{} EpisodeReward={}'.format(ep, total_reward))
            self.rewards.append(total_reward)


def main():
    random.seed(0)
    np.random.seed(0)
    env = CartPoleEnv(seed=3)
    agent = Agent(env)
    agent.train(max_episodes=3)
    return {"rewards": agent.rewards, "epsilon": agent.model.epsilon,
            "weights": agent.model.model.weights,
            "target_weights": agent.target_model.model.get_weights()}
