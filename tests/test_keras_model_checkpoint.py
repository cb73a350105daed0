"""Whole-model saving is not in tapeviz: ModelCheckpoint(save_weights_only=False),
Model.save and keras.models.load_model refuse it with NotImplementedError naming the fix.
(ModelCheckpoint's weights-only saving is checked against TensorFlow by the golden program
keras_model_checkpoint.)"""
import pytest

import tapeviz as tv


def _model():
    model = tv.keras.Sequential([tv.keras.Input(shape=(2,)), tv.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


def test_model_checkpoint_refuses_whole_model_saving_when_made(tmp_path):
    with pytest.raises(NotImplementedError, match="save_weights_only=True"):
        tv.keras.callbacks.ModelCheckpoint(str(tmp_path / "best.keras"), save_best_only=True)


def test_model_save_and_load_model_name_the_weights_only_fix(tmp_path):
    path = str(tmp_path / "model.keras")
    with pytest.raises(NotImplementedError, match=r"model\.save_weights.*load_weights"):
        _model().save(path)
    with pytest.raises(NotImplementedError, match=r"load_model\('.*model\.keras'\).*"
                                                  r"load_weights"):
        tv.keras.models.load_model(path)
    assert list(tmp_path.iterdir()) == []
