"""`tf.keras.utils.plot_model` in a notebook: TF-Keras without pydot prints why and returns
None there (it checks for IPython's namespace magics module), so the notebook goes on; the
script case (ImportError) is the golden program keras_plot_model."""
import sys
import types

import tapeviz as tv


def test_plot_model_in_a_notebook_prints_and_returns_none(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "IPython.core.magics.namespace",
                        types.ModuleType("IPython.core.magics.namespace"))
    model = tv.keras.Sequential([tv.keras.layers.Dense(2)])
    model.build((None, 3))
    assert tv.keras.utils.plot_model(model, str(tmp_path / "m.png")) is None
    assert "You must install pydot" in capsys.readouterr().out
    assert not (tmp_path / "m.png").exists()
