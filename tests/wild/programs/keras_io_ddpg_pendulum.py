# After: https://keras.io/examples/rl/ddpg_pendulum/ (the tf.keras version: OUActionNoise,
# the replay Buffer with its tf.function update(), update_target, get_actor with a
# random_uniform_initializer, get_critic with Concatenate, policy())
# Adapted: a seeded synthetic pendulum-like environment in NumPy instead of gym's Pendulum-v1,
# 3 episodes of 12 steps, batch 8; fixed starting weights for both networks (the targets copy
# them, as in the example).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from adapt import fixed_weights

num_states = 3
num_actions = 1
upper_bound = 2.0
lower_bound = -2.0


class OUActionNoise:
    def __init__(self, mean, std_deviation, theta=0.15, dt=1e-2, x_initial=None):
        self.theta = theta
        self.mean = mean
        self.std_dev = std_deviation
        self.dt = dt
        self.x_initial = x_initial
        self.rng = np.random.default_rng(3)
        self.reset()

    def __call__(self):
        x = (
            self.x_prev
            + self.theta * (self.mean - self.x_prev) * self.dt
            + self.std_dev * np.sqrt(self.dt) * self.rng.normal(size=self.mean.shape)
        )
        self.x_prev = x
        return x

    def reset(self):
        if self.x_initial is not None:
            self.x_prev = self.x_initial
        else:
            self.x_prev = np.zeros_like(self.mean)


class Buffer:
    def __init__(self, buffer_capacity=100000, batch_size=64):
        self.buffer_capacity = buffer_capacity
        self.batch_size = batch_size
        self.buffer_counter = 0
        self.state_buffer = np.zeros((self.buffer_capacity, num_states))
        self.action_buffer = np.zeros((self.buffer_capacity, num_actions))
        self.reward_buffer = np.zeros((self.buffer_capacity, 1))
        self.next_state_buffer = np.zeros((self.buffer_capacity, num_states))
        self.rng = np.random.default_rng(4)

    def record(self, obs_tuple):
        index = self.buffer_counter % self.buffer_capacity
        self.state_buffer[index] = obs_tuple[0]
        self.action_buffer[index] = obs_tuple[1]
        self.reward_buffer[index] = obs_tuple[2]
        self.next_state_buffer[index] = obs_tuple[3]
        self.buffer_counter += 1

    @tf.function
    def update(
        self, state_batch, action_batch, reward_batch, next_state_batch,
    ):
        with tf.GradientTape() as tape:
            target_actions = target_actor(next_state_batch, training=True)
            y = reward_batch + gamma * target_critic(
                [next_state_batch, target_actions], training=True
            )
            critic_value = critic_model([state_batch, action_batch], training=True)
            critic_loss = tf.math.reduce_mean(tf.math.square(y - critic_value))

        critic_grad = tape.gradient(critic_loss, critic_model.trainable_variables)
        critic_optimizer.apply_gradients(
            zip(critic_grad, critic_model.trainable_variables)
        )

        with tf.GradientTape() as tape:
            actions = actor_model(state_batch, training=True)
            critic_value = critic_model([state_batch, actions], training=True)
            actor_loss = -tf.math.reduce_mean(critic_value)

        actor_grad = tape.gradient(actor_loss, actor_model.trainable_variables)
        actor_optimizer.apply_gradients(
            zip(actor_grad, actor_model.trainable_variables)
        )
        return critic_loss, actor_loss

    def learn(self):
        record_range = min(self.buffer_counter, self.buffer_capacity)
        batch_indices = self.rng.choice(record_range, self.batch_size)

        state_batch = tf.convert_to_tensor(self.state_buffer[batch_indices])
        action_batch = tf.convert_to_tensor(self.action_buffer[batch_indices])
        reward_batch = tf.convert_to_tensor(self.reward_buffer[batch_indices])
        reward_batch = tf.cast(reward_batch, dtype=tf.float32)
        next_state_batch = tf.convert_to_tensor(self.next_state_buffer[batch_indices])

        return self.update(state_batch, action_batch, reward_batch, next_state_batch)


@tf.function
def update_target(target_weights, weights, tau):
    for (a, b) in zip(target_weights, weights):
        a.assign(b * tau + a * (1 - tau))


def get_actor():
    # Initialize weights between -3e-3 and 3-e3
    last_init = tf.random_uniform_initializer(minval=-0.003, maxval=0.003)

    inputs = layers.Input(shape=(num_states,))
    out = layers.Dense(16, activation="relu")(inputs)
    out = layers.Dense(16, activation="relu")(out)
    outputs = layers.Dense(1, activation="tanh", kernel_initializer=last_init)(out)

    # Our upper bound is 2.0 for Pendulum.
    outputs = outputs * upper_bound
    model = tf.keras.Model(inputs, outputs)
    return model


def get_critic():
    # State as input
    state_input = layers.Input(shape=(num_states))
    state_out = layers.Dense(8, activation="relu")(state_input)
    state_out = layers.Dense(16, activation="relu")(state_out)

    # Action as input
    action_input = layers.Input(shape=(num_actions))
    action_out = layers.Dense(16, activation="relu")(action_input)

    # Both are passed through seperate layer before concatenating
    concat = layers.Concatenate()([state_out, action_out])

    out = layers.Dense(16, activation="relu")(concat)
    out = layers.Dense(16, activation="relu")(out)
    outputs = layers.Dense(1)(out)

    # Outputs single value for give state-action
    model = tf.keras.Model([state_input, action_input], outputs)

    return model


def policy(state, noise_object):
    sampled_actions = tf.squeeze(actor_model(state))
    noise = noise_object()
    # Adding noise to action
    sampled_actions = sampled_actions.numpy() + noise

    # We make sure action is within bounds
    legal_action = np.clip(sampled_actions, lower_bound, upper_bound)

    return [np.squeeze(legal_action)]


def env_step(state, action):
    """A pendulum-like toy: cos/sin/velocity state, reward -(angle^2 + 0.1 v^2 + 0.001 a^2)."""
    th = np.arctan2(state[1], state[0])
    thdot = np.clip(state[2] + (-15.0 * np.sin(th + np.pi) + 3.0 * action) * 0.05, -8, 8)
    th = th + thdot * 0.05
    reward = -(th ** 2 + 0.1 * thdot ** 2 + 0.001 * action ** 2)
    return np.array([np.cos(th), np.sin(th), thdot]), float(reward)


std_dev = 0.2
ou_noise = OUActionNoise(mean=np.zeros(1), std_deviation=float(std_dev) * np.ones(1))

actor_model = get_actor()
critic_model = get_critic()
target_actor = get_actor()
target_critic = get_critic()

critic_lr = 0.002
actor_lr = 0.001
critic_optimizer = tf.keras.optimizers.Adam(critic_lr)
actor_optimizer = tf.keras.optimizers.Adam(actor_lr)
total_episodes = 3
gamma = 0.99
tau = 0.005
buffer = Buffer(50000, 8)


def main():
    fixed_weights(actor_model.trainable_variables, seed=1)
    fixed_weights(critic_model.trainable_variables, seed=2)
    # Making the weights equal initially
    target_actor.set_weights(actor_model.get_weights())
    target_critic.set_weights(critic_model.get_weights())

    ep_reward_list = []
    losses = []
    for ep in range(total_episodes):
        prev_state = np.array([np.cos(0.5 + ep), np.sin(0.5 + ep), 0.0])
        episodic_reward = 0
        for step in range(12):
            tf_prev_state = tf.expand_dims(tf.convert_to_tensor(prev_state), 0)
            action = policy(tf_prev_state, ou_noise)
            state, reward = env_step(prev_state, float(action[0]))
            buffer.record((prev_state, action, reward, state))
            episodic_reward += reward
            if buffer.buffer_counter >= 8:
                losses.append(buffer.learn())
                update_target(target_actor.variables, actor_model.variables, tau)
                update_target(target_critic.variables, critic_model.variables, tau)
            prev_state = state
        ep_reward_list.append(episodic_reward)
    return {"rewards": ep_reward_list, "losses": losses,
            "actor": actor_model.get_weights()[-2:], "target_critic": target_critic.get_weights()[-2:]}
