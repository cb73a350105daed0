"""tf.summary's event files, against what TensorFlow's own reader found in TensorFlow's file
(tests/golden/summary_events/: record.py, answers.json, tensorflow.tfevents), and the scalars
it sends to tapeviz's charts. Return values, steps and errors: the golden program
tests/golden/programs/summary_api.py."""
import json
import os
import sys

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.summary import event_file, plugin_data

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "summary_events")


def _load_recorder():
    """summary_events/record.py by its path: tests/differential has a `record` module too,
    and whichever a test run imports first would shadow the other on sys.path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("summary_events_record",
                                                  os.path.join(HERE, "record.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_recorder = _load_recorder()
_same, fit_with_tensorboard, write_summaries = (
    _recorder._same, _recorder.fit_with_tensorboard, _recorder.write_summaries)

with open(os.path.join(HERE, "answers.json"), encoding="utf-8") as _f:
    _ANSWERS = json.load(_f)
TENSORFLOW_READ = _ANSWERS["events"]


def _as_answers(path):
    """Our reader's events in the shape record.py gives TensorFlow's reader's."""
    out = []
    for event in event_file.read_events(path):
        if "file_version" in event:
            out.append({"file_version": event["file_version"]})
            continue
        for value in event["summary"]:
            array = value["value"]
            entry = {"step": event["step"], "tag": value["tag"], "plugin": value["plugin"],
                     "description": value["description"],
                     "dtype": {"O": "string"}.get(array.dtype.kind, array.dtype.name),
                     "shape": list(array.shape)}
            if entry["plugin"] == "images":
                entry["value"] = [s.decode() for s in array[:2]]
                entry["png"] = list(array[2:])
            elif array.dtype == object:
                entry["value"] = [s.decode() for s in array.reshape(-1)]
            else:
                entry["value"] = array.reshape(-1).tolist()
            out.append(entry)
    return out


def _same_but_images(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        plain = {k: v for k, v in b.items() if k not in ("png_hex", "pixels")}
        assert {k: v for k, v in a.items() if k != "png"} == plain


def test_our_reader_reads_tensorflows_file_as_tensorflow_does():
    ours = _as_answers(os.path.join(HERE, "tensorflow.tfevents"))
    _same_but_images(ours, TENSORFLOW_READ)
    images = [(a["png"], b["png_hex"]) for a, b in zip(ours, TENSORFLOW_READ) if "png" in a]
    assert images and all([p.hex() for p in png] == hexes for png, hexes in images)


def test_our_file_holds_what_tensorflow_wrote(tmp_path):
    ours = _as_answers(write_summaries(tv, str(tmp_path)))
    _same_but_images(ours, TENSORFLOW_READ)
    for a, b in zip(ours, TENSORFLOW_READ):
        if "png" in a:      # other bytes (encoders differ), the same pixels as TF decoded
            assert [plugin_data.decode_png(p).tolist() for p in a["png"]] == b["pixels"]


def test_the_tensorboard_callback_writes_what_tf_keras_writes(tmp_path):
    # epoch metrics, the scheduled learning rate, validation metrics by epoch and by
    # iteration, weight histograms every 2 epochs: values within float32 rounding of training
    tv.keras.backend.clear_session()
    runs = fit_with_tensorboard(tv, str(tmp_path))
    assert sorted(runs) == sorted(_ANSWERS["fit"])
    for run, path in runs.items():
        assert _same(_as_answers(path), _ANSWERS["fit"][run], rtol=1e-5), run


def test_crc32c_is_castagnolis():
    # the check value of CRC-32C (RFC 3720, appendix B.4) and its all-zero vector
    assert event_file.crc32c(b"123456789") == 0xE3069283
    assert event_file.crc32c(bytes(32)) == 0x8A9136AA


def test_a_corrupt_record_is_refused(tmp_path):
    path = write_summaries(tv, str(tmp_path))
    data = bytearray(open(path, "rb").read())
    data[-10] ^= 0xFF
    open(path, "wb").write(bytes(data))
    with pytest.raises(ValueError, match="corrupt record"):
        event_file.read_events(path)


def test_a_written_scalar_feeds_the_training_charts(tmp_path):
    writer = tv.summary.create_file_writer(str(tmp_path / "train"))
    with tv.events.capture() as seen:
        tv.summary.scalar("ignored", 1.0, step=0)                  # no writer: not written
        with writer.as_default(step=2):
            with tv.name_scope("train"):
                tv.summary.scalar("loss", tv.constant(0.5), step=tv.Variable(7, dtype=tv.int64))
            tv.summary.scalar("accuracy", 0.75)
            with tv.summary.record_if(False):
                tv.summary.scalar("off", 1.0)
            tv.summary.histogram("h", [1.0, 2.0])
    assert [(e.name, e.value, e.step) for e in seen.of("scalar")] == [
        ("train/train/loss", 0.5, 7), ("train/accuracy", 0.75, 2)]


def test_a_scalar_reaches_the_dashboards_training_charts(tmp_path):
    from tapeviz import ui
    rec = str(tmp_path / "run.tvz")
    w = tv.Variable(1.0)
    with tv.record(rec):
        with tv.summary.create_file_writer(str(tmp_path / "train")).as_default():
            for step in range(3):
                with tv.GradientTape() as tape:
                    loss = (w - 3.0) ** 2
                w.assign_sub(0.1 * tape.gradient(loss, w))
                tv.summary.scalar("loss", loss, step=step)
    charted = ui.Dashboard(rec).store.scalars["train/loss"]
    assert [step for step, _, _ in charted] == [0, 1, 2]
    # (w - 3)² at w = 1, then w += 0.2·(3 - w) each step
    assert [value for _, value, _ in charted] == pytest.approx([4.0, 2.56, 1.6384])


def test_a_step_that_is_not_an_integer_is_refused_with_the_fix(tmp_path):
    with tv.summary.create_file_writer(str(tmp_path)).as_default():
        with pytest.raises(TypeError, match="step must be an integer.*Fix"):
            tv.summary.scalar("loss", 1.0, step=1.5)


def test_histogram_buckets_count_every_value():
    data = np.random.default_rng(0).normal(size=1000)
    buckets = plugin_data.histogram_buckets(data, 7)
    assert buckets.shape == (7, 3) and buckets[:, 2].sum() == 1000
    assert buckets[0, 0] == data.min() and buckets[-1, 1] == data.max()


@pytest.mark.parametrize("dtype,value,expected", [
    (np.float32, 0.5, 127), (np.float32, 1.5, 255), (np.float32, -1.0, 0),
    (np.uint16, 65535, 255), (np.int32, 2 ** 31 - 1, 255), (np.int8, 127, 254)])
def test_images_become_uint8_as_convert_image_dtype(dtype, value, expected):
    # the answers of tf.image.convert_image_dtype(x, tf.uint8, saturate=True) in TensorFlow 2.21
    assert plugin_data.to_uint8(np.array([value], dtype))[0] == expected


def test_a_logdir_may_be_a_path_bytes_or_a_string_tensor(tmp_path):
    for logdir in (tmp_path / "a", str(tmp_path / "b").encode(), tv.constant(str(tmp_path / "c"))):
        writer = tv.summary.create_file_writer(logdir)
        assert os.path.dirname(writer.path) in {str(tmp_path / n) for n in "abc"}
    assert sorted(os.listdir(tmp_path)) == ["a", "b", "c"]
    with pytest.raises(TypeError, match="logdir must be a path.*Fix"):
        tv.summary.create_file_writer(3)
