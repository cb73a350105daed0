"""`tf.keras.saving`: the saving API under the name tf-keras 2.13+ also gives it."""
from .models import load_model, save_model  # noqa: F401
from .saving_config import register_keras_serializable  # noqa: F401
