"""The house rules, checked: the engine never imports the UI stack, the UI never imports the
engine, and `import tapeviz` loads NumPy only."""
import ast
import pathlib
import subprocess
import sys

PKG = pathlib.Path(__file__).resolve().parents[1] / "tapeviz"
UI_STACK = {"panel", "bokeh", "graphviz", "param", "pandas"}


def _imports(path):
    """(module, level) of every import in ``path``; for ``from X import name`` both ``X`` and
    ``X.name`` (``from .. import engine`` imports the engine package as surely as
    ``import tapeviz.engine`` does)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level
            for alias in node.names:
                yield ".".join(filter(None, (node.module, alias.name))), node.level


def _absolute(path, mod, level):
    """The module an import in ``path`` names, with relative imports resolved."""
    if level == 0:
        return mod
    package = ["tapeviz", *path.relative_to(PKG).parent.parts]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([mod] if mod else []))


def test_engine_never_imports_the_ui_stack():
    offenders = [(p.name, mod) for folder in ("engine", "explain")
                 for p in (PKG / folder).rglob("*.py")
                 for mod, _ in _imports(p) if mod.split(".")[0] in UI_STACK or "ui" in mod.split(".")]
    assert offenders == []


def test_ui_reads_events_and_recordings_only():
    ui = PKG / "ui"
    assert ui.is_dir()
    offenders = []
    for path in ui.rglob("*.py"):
        for mod, level in _imports(path):
            if _absolute(path, mod, level).startswith("tapeviz.engine"):
                offenders.append((path.name, mod))
    assert offenders == []


def test_import_tapeviz_loads_no_ui_stack():
    code = ("import sys, tapeviz; "
            "print(sorted(m for m in %r if m in sys.modules))" % sorted(UI_STACK))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_every_op_is_defined_in_exactly_one_place():
    from tapeviz.engine.op import REGISTRY
    definitions = {}
    for path in (PKG / "engine" / "ops").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                    "defop", "_unary", "_binary", "_compare", "_reduction", "_arg"):
                if node.args and isinstance(node.args[0], ast.Constant):
                    definitions.setdefault(node.args[0].value, []).append(path.name)
    assert {k: v for k, v in definitions.items() if len(v) > 1} == {}
    assert set(definitions) <= set(REGISTRY) | {"ConcatV2"}


def test_nothing_guesses_who_holds_a_value_from_reference_counts():
    """Whether an array may be written in place is decided by plain rules, never by
    `sys.getrefcount` (its counts differ between interpreters and versions)."""
    offenders = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py")
                 if "getrefcount" in p.read_text()]
    assert offenders == []


def _long_functions(folder, limit):
    """(file, function, lines) of every function or method in `folder` longer than `limit`
    lines, from its `def` line (decorators excluded) to its last line."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((str(path.relative_to(PKG)), node.name, lines))
    return found


def test_no_engine_function_is_longer_than_80_lines():
    """A function of the engine (or of its explanations) fits on a screen or two: longer ones
    are split by step."""
    assert _long_functions(PKG / "engine", 80) + _long_functions(PKG / "explain", 80) == []


def test_no_module_is_longer_than_400_lines():
    """A module reads in one sitting: one that grows past 400 lines is split by role (a part
    that does one thing moves to a module named after it), not cut in half."""
    long = {str(p.relative_to(PKG)): n for p in sorted(PKG.rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}


def _private_imports(path):
    """Imports in ``path`` of another package's private module or name: a dotted part or an
    imported name starting with one underscore (``numpy._core``, ``from x import _y``)."""
    for mod, level in _imports(path):
        absolute = _absolute(path, mod, level)
        if absolute.split(".")[0] in ("tapeviz", "__future__"):
            continue
        if any(part.startswith("_") and not part.startswith("__") for part in absolute.split(".")):
            yield absolute


def test_private_apis_of_dependencies_are_reached_only_through_private_apis():
    offenders = [(str(p.relative_to(PKG)), mod) for p in PKG.rglob("*.py")
                 if p != PKG / "private_apis.py" for mod in _private_imports(p)]
    assert offenders == []


def test_the_private_import_check_sees_one(tmp_path):
    # the check above, on code written by hand: it must name NumPy's private module only
    sample = tmp_path / "sample.py"
    sample.write_text("from numpy._core.umath import _make_extobj\nimport json.decoder\n"
                      "from tapeviz.engine.op import _record\n")
    assert sorted(set(_private_imports(sample))) == ["numpy._core.umath",
                                                     "numpy._core.umath._make_extobj"]
