"""`tv.train`: TensorFlow's checkpoints (tapeviz/checkpoint.py, checkpoint_manager.py)."""
from .checkpoint import Checkpoint, CheckpointLoadStatus, InitializationOnlyStatus  # noqa: F401
from .checkpoint_files import latest_checkpoint  # noqa: F401
from .checkpoint_manager import CheckpointManager  # noqa: F401
from .checkpoint_reader import (CheckpointReader, list_variables, load_checkpoint,  # noqa: F401
                                load_variable)
from .checkpoint_wait import checkpoints_iterator, wait_for_new_checkpoint  # noqa: F401
