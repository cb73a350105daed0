"""`tf.train.wait_for_new_checkpoint` and `tf.train.checkpoints_iterator`: the checkpoints a
directory's state file names as they appear (what an evaluator running beside a training job
reads), as TensorFlow's, polling once a second.
"""
from __future__ import annotations

import time

from .checkpoint_files import latest_checkpoint


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1,
                            timeout=None):
    """The directory's latest checkpoint once it is not `last_checkpoint`; None when
    `timeout` seconds pass first (None: wait for ever)."""
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        checkpoint_path = latest_checkpoint(checkpoint_dir)
        if checkpoint_path is not None and checkpoint_path != last_checkpoint:
            return checkpoint_path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new latest checkpoint of `checkpoint_dir` (at most one per
    `min_interval_secs`). When `timeout` seconds pass without one it stops, or with a
    `timeout_fn` asks it: True stops, False waits again; `timeout_fn` is also asked after each
    checkpoint yielded, as TensorFlow asks it."""
    checkpoint_path = None
    while True:
        new_checkpoint_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path,
                                                      timeout=timeout)
        if new_checkpoint_path:
            start = time.time()
            checkpoint_path = new_checkpoint_path
            yield checkpoint_path
            time_to_next = start + min_interval_secs - time.time()
            if time_to_next > 0:
                time.sleep(time_to_next)
        elif timeout_fn is None:
            return
        if timeout_fn is not None and timeout_fn():
            return
