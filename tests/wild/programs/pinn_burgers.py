# After: https://github.com/janblechschmidt/PDEsByNNs (PINN_Solver notebook, Burgers'
# equation: a Keras Sequential network of tanh Dense layers with a scaling Lambda,
# get_r with nested GradientTapes for u_t, u_x and u_xx, compute_loss over residual,
# initial and boundary points, a tf.function train step with Adam and a
# PiecewiseConstantDecay schedule)
# Adapted: 32 collocation and 16 boundary points from a seeded NumPy generator,
# fixed starting weights, 5 steps.
import numpy as np
import tensorflow as tf

from adapt import fixed_weights

# Set data type
DTYPE = 'float32'
tf.keras.backend.set_floatx(DTYPE)

# Set constants
pi = tf.constant(np.pi, dtype=DTYPE)
viscosity = .01 / pi


# Define initial condition
def fun_u_0(x):
    return -tf.sin(pi * x)


# Define boundary condition
def fun_u_b(t, x):
    n = x.shape[0]
    return tf.zeros((n, 1), dtype=DTYPE)


# Define residual of the PDE
def fun_r(t, x, u, u_t, u_x, u_xx):
    return u_t + u * u_x - viscosity * u_xx


def init_model(lb, ub, num_hidden_layers=2, num_neurons_per_layer=8):
    model = tf.keras.Sequential()
    model.add(tf.keras.Input(2))
    scaling_layer = tf.keras.layers.Lambda(lambda x: 2.0 * (x - lb) / (ub - lb) - 1.0)
    model.add(scaling_layer)
    for _ in range(num_hidden_layers):
        model.add(tf.keras.layers.Dense(num_neurons_per_layer,
                                        activation=tf.keras.activations.get('tanh'),
                                        kernel_initializer='glorot_normal'))
    model.add(tf.keras.layers.Dense(1))
    return model


def get_r(model, X_r):
    # A tf.GradientTape is used to compute derivatives in TensorFlow
    with tf.GradientTape(persistent=True) as tape:
        # Split t and x to compute partial derivatives
        t, x = X_r[:, 0:1], X_r[:, 1:2]
        # Variables t and x are watched during tape
        # to compute derivatives u_t and u_x
        tape.watch(t)
        tape.watch(x)
        # Determine residual
        u = model(tf.stack([t[:, 0], x[:, 0]], axis=1))
        # Compute gradient u_x within the GradientTape
        # since we need second derivatives
        u_x = tape.gradient(u, x)
    u_t = tape.gradient(u, t)
    u_xx = tape.gradient(u_x, x)
    del tape
    return fun_r(t, x, u, u_t, u_x, u_xx)


def compute_loss(model, X_r, X_data, u_data):
    # Compute phi^r
    r = get_r(model, X_r)
    phi_r = tf.reduce_mean(tf.square(r))
    # Initialize loss
    loss = phi_r
    # Add phi^0 and phi^b to the loss
    for i in range(len(X_data)):
        u_pred = model(X_data[i])
        loss += tf.reduce_mean(tf.square(u_data[i] - u_pred))
    return loss


def get_grad(model, X_r, X_data, u_data):
    with tf.GradientTape(persistent=True) as tape:
        # This tape is for derivatives with
        # respect to trainable variables
        tape.watch(model.trainable_variables)
        loss = compute_loss(model, X_r, X_data, u_data)
    g = tape.gradient(loss, model.trainable_variables)
    del tape
    return loss, g


def main():
    N_0, N_b, N_r = 16, 16, 32
    tmin, tmax, xmin, xmax = 0., 1., -1., 1.
    lb = tf.constant([tmin, xmin], dtype=DTYPE)
    ub = tf.constant([tmax, xmax], dtype=DTYPE)
    rng = np.random.default_rng(0)

    # Draw uniform sample points for initial boundary data
    t_0 = tf.ones((N_0, 1), dtype=DTYPE) * lb[0]
    x_0 = tf.constant(rng.uniform(xmin, xmax, (N_0, 1)), dtype=DTYPE)
    X_0 = tf.concat([t_0, x_0], axis=1)
    u_0 = fun_u_0(x_0)
    # Boundary data
    t_b = tf.constant(rng.uniform(tmin, tmax, (N_b, 1)), dtype=DTYPE)
    x_b = lb[1] + (ub[1] - lb[1]) * tf.constant(rng.binomial(1, 0.5, (N_b, 1)), dtype=DTYPE)
    X_b = tf.concat([t_b, x_b], axis=1)
    u_b = fun_u_b(t_b, x_b)
    # Draw uniformly sampled collocation points
    t_r = tf.constant(rng.uniform(tmin, tmax, (N_r, 1)), dtype=DTYPE)
    x_r = tf.constant(rng.uniform(xmin, xmax, (N_r, 1)), dtype=DTYPE)
    X_r = tf.concat([t_r, x_r], axis=1)
    X_data = [X_0, X_b]
    u_data = [u_0, u_b]

    model = init_model(lb, ub)
    fixed_weights(model.trainable_variables, scale=0.5)
    lr = tf.keras.optimizers.schedules.PiecewiseConstantDecay([3], [1e-2, 5e-3])
    optim = tf.keras.optimizers.Adam(learning_rate=lr)

    @tf.function
    def train_step():
        # Compute current loss and gradient w.r.t. parameters
        loss, grad_theta = get_grad(model, X_r, X_data, u_data)
        # Perform gradient descent step
        optim.apply_gradients(zip(grad_theta, model.trainable_variables))
        return loss

    hist = []
    for i in range(5):
        loss = train_step()
        hist.append(loss.numpy())
    return {"hist": np.array(hist), "residual": get_r(model, X_r),
            "weights": model.trainable_variables}
