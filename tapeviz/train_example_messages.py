"""The composite messages of `tf.train.Example`: `Feature` (one of a bytes, float or int64
list), `Features` (a map name -> Feature), `FeatureList`, `FeatureLists`, `Example` and
`SequenceExample`. See train_example.py for the wire format they use."""
from __future__ import annotations

from .train_example import (BytesList, FloatList, Int64List, _c_escape, _fields,
                            _length_delimited, _Message)

_KINDS = (("bytes_list", 1, BytesList), ("float_list", 2, FloatList), ("int64_list", 3, Int64List))


class Feature(_Message):
    """One of `bytes_list`, `float_list`, `int64_list` (the `kind` oneof: the last one set,
    or the one whose values were added)."""

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        self._kind = None
        given = {"bytes_list": bytes_list, "float_list": float_list, "int64_list": int64_list}
        for name, _, cls in _KINDS:
            setattr(self, "_" + name, cls())
        for name, value in given.items():
            if value is not None:
                setattr(self, name, value)

    def WhichOneof(self, group):  # noqa: N802
        if group != "kind":
            raise ValueError(f'Protocol message has no oneof "{group}" field.')
        if self._kind is not None:
            return self._kind
        return next((n for n, _, _ in _KINDS if not getattr(self, "_" + n)._empty()), None)

    def HasField(self, name):  # noqa: N802
        return self.WhichOneof("kind") == name

    def _encode(self, deterministic=False):
        kind = self.WhichOneof("kind")
        if kind is None:
            return b""
        number = next(num for n, num, _ in _KINDS if n == kind)
        return _length_delimited(number, getattr(self, "_" + kind)._encode(deterministic))

    def _decode(self, data):
        for number, _, raw in _fields(data):
            for name, num, cls in _KINDS:
                if number == num:
                    setattr(self, name, cls.FromString(raw))

    def _text(self, indent):
        kind = self.WhichOneof("kind")
        if kind is None:
            return ""
        pad = " " * indent
        return f"{pad}{kind} {{\n{getattr(self, '_' + kind)._text(indent + 2)}{pad}}}\n"

    def _empty(self):
        return self.WhichOneof("kind") is None


def _oneof_property(name):
    def get(self):
        return getattr(self, "_" + name)

    def set_(self, value):
        if not isinstance(value, dict(((n, c) for n, _, c in _KINDS))[name]):
            raise TypeError(f"Message Feature field {name}: expected a tf.train."
                            f"{type(getattr(self, '_' + name)).__name__}, got {value!r}")
        setattr(self, "_" + name, value)
        self._kind = name
    return property(get, set_)


for _name, _, _ in _KINDS:
    setattr(Feature, _name, _oneof_property(_name))


class _Map(dict):
    """A protobuf map of string keys: reading a missing key adds an empty message."""

    def __init__(self, message_class, items=None):
        super().__init__()
        self._class = message_class
        for key, value in (items or {}).items():
            self[key] = value

    def __missing__(self, key):
        self[key] = value = self._class()
        return value

    def __setitem__(self, key, value):
        if not isinstance(value, self._class):
            raise TypeError(f"map values must be tf.train.{self._class.__name__}, got {value!r}")
        super().__setitem__(key, value)

    def get_or_create(self, key):
        return self[key]

    def encode(self, number, deterministic):
        keys = sorted(self) if deterministic else list(self)
        return b"".join(_length_delimited(number, _length_delimited(1, k.encode()) +
                                          _length_delimited(2, self[k]._encode(deterministic)))
                        for k in keys)

    def decode_entry(self, raw):
        key, value = "", self._class()
        for number, _, part in _fields(raw):
            if number == 1:
                key = bytes(part).decode()
            elif number == 2:
                value = self._class.FromString(part)
        super().__setitem__(key, value)

    def text(self, name, indent):
        pad, inner = " " * indent, " " * (indent + 2)
        return "".join(f'{pad}{name} {{\n{inner}key: "{_c_escape(k.encode())}"\n{inner}value {{\n'
                       f"{v._text(indent + 4)}{inner}}}\n{pad}}}\n" for k, v in self.items())


class _Composite(_Message):
    """A message whose fields are submessages, maps or repeated submessages, given by
    `_FIELDS`: (name, number, "message" | "map" | "repeated", class)."""
    _FIELDS: tuple = ()

    def __init__(self, **kwargs):
        self._set = set()            # submessages given explicitly (serialized even if empty)
        for name, _, kind, cls in self._FIELDS:
            value = kwargs.pop(name, None)
            if kind == "map":
                value = _Map(cls, value)
            elif kind == "repeated":
                value = list(value or ())
            elif value is None:
                value = cls()
            else:
                self._set.add(name)
            object.__setattr__(self, name, value)
        if kwargs:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{next(iter(kwargs))}"'
                             " field.")

    def __setattr__(self, name, value):
        if any(name == f[0] for f in self._FIELDS):
            raise AttributeError(f"Assignment not allowed to field \"{name}\" in protocol "
                                 "message object. Fix: pass it to the constructor, or CopyFrom")
        object.__setattr__(self, name, value)

    def _present(self, name):
        return name in self._set or not getattr(self, name)._empty()

    def HasField(self, name):  # noqa: N802
        return self._present(name)

    def _encode(self, deterministic=False):
        out = b""
        for name, number, kind, _ in self._FIELDS:
            value = getattr(self, name)
            if kind == "map":
                out += value.encode(number, deterministic)
            elif kind == "repeated":
                out += b"".join(_length_delimited(number, v._encode(deterministic))
                                for v in value)
            elif self._present(name):
                out += _length_delimited(number, value._encode(deterministic))
        return out

    def _decode(self, data):
        by_number = {f[1]: f for f in self._FIELDS}
        for number, _, raw in _fields(data):
            if number not in by_number:
                continue
            name, _, kind, cls = by_number[number]
            if kind == "map":
                getattr(self, name).decode_entry(raw)
            elif kind == "repeated":
                getattr(self, name).append(cls.FromString(raw))
            else:
                object.__setattr__(self, name, cls.FromString(raw))
                self._set.add(name)

    def _text(self, indent):
        pad, out = " " * indent, ""
        for name, _, kind, _ in self._FIELDS:
            value = getattr(self, name)
            if kind == "map":
                out += value.text(name, indent)
            elif kind == "repeated":
                out += "".join(f"{pad}{name} {{\n{v._text(indent + 2)}{pad}}}\n" for v in value)
            elif self._present(name):
                out += f"{pad}{name} {{\n{value._text(indent + 2)}{pad}}}\n"
        return out

    def _empty(self):
        return not self._encode()


class Features(_Composite):
    _FIELDS = (("feature", 1, "map", Feature),)


class FeatureList(_Composite):
    _FIELDS = (("feature", 1, "repeated", Feature),)


class FeatureLists(_Composite):
    _FIELDS = (("feature_list", 1, "map", FeatureList),)


class Example(_Composite):
    _FIELDS = (("features", 1, "message", Features),)


class SequenceExample(_Composite):
    _FIELDS = (("context", 1, "message", Features), ("feature_lists", 2, "message", FeatureLists))
