/* The recording writer's usual event in C: what `record._on_event` (writer.py) does inside its
   lock for an event tapeviz built, step for step: the tables (`_tapeviz_compact`, _tables.c),
   the line (`record._line`: orjson), the copy into the buffer, the table-full check, the
   count and the flush when due. Why C: that Python was about 40% of the writer's
   instructions an event, orjson's encoding another 40%.

   write() first checks, changing nothing, that the event is one it does the Python way
   exactly (built by tapeviz, not `gradient_finished`, finite attrs, a formula string, the
   usual buffer); anything else returns 0 and writer.py does it all. From the first change
   on it goes to the end as writer.py would: what is rare (a new site, a line that does not
   fit, a type orjson refuses, non-ASCII output, a flush) calls the same Python methods, and
   an error writer.py's `except` takes makes it return -1 so that writer.py takes it too. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

int _tapeviz_compact(PyObject *refs, PyObject *by_line, PyObject *spec, PyObject *data);
PyObject *_tapeviz_totals_once(PyObject *input_grads);

/* set once by setup_writer() (native.py, at import); the module globals are read at each call,
   as writer.py and tables.py read theirs (tests change MAX_REFS) */
static PyObject *OpRecorded, *BackwardStep, *GradientFinished, *Scalar, *ref_fields, *fragments,
    *ascii_fragment, *writer_globals, *tables_globals, *cleared, *errors, *option_kw,
    *newline;
static PyObject *s_dumps, *s_tables, *s_buffer, *s_end, *s_buffered, *s_refs, *s_by_line,
    *s_site, *s_attrs, *s_formula, *s_append, *s_flush, *s_strict, *s_flush_events,
    *s_flush_bytes, *s_buffer_size, *s_max_refs, *s_site_method, *s_value, *s_time,
    *s_input_grads;

static int
global_ssize(PyObject *globals, PyObject *name, Py_ssize_t *out)
{
    PyObject *v = PyDict_GetItemWithError(globals, name);
    if (v == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_NameError, name);
        return -1;
    }
    *out = PyLong_AsSsize_t(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
attr_ssize(PyObject *obj, PyObject *name, Py_ssize_t *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    *out = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int
set_attr_ssize(PyObject *obj, PyObject *name, Py_ssize_t value)
{
    PyObject *v = PyLong_FromSsize_t(value);
    if (v == NULL)
        return -1;
    int failed = PyObject_SetAttr(obj, name, v);
    Py_DECREF(v);
    return failed;
}

/* `record._append(line)`: copied in when it fits (the buffer is never resized: its memoryview
   pins it, and its size is checked anyway), else the Python method (it flushes first, or
   writes a line larger than the buffer by itself). */
static int
append(PyObject *rec, PyObject *buffer, Py_ssize_t size, PyObject *line)
{
    Py_ssize_t end;
    if (PyBytes_CheckExact(line)) {
        if (attr_ssize(rec, s_end, &end))
            return -1;
        Py_ssize_t n = PyBytes_GET_SIZE(line);
        if (size > PyByteArray_GET_SIZE(buffer))
            size = PyByteArray_GET_SIZE(buffer);
        if (end >= 0 && n <= size - end) {
            memcpy(PyByteArray_AS_STRING(buffer) + end, PyBytes_AS_STRING(line), (size_t)n);
            return set_attr_ssize(rec, s_end, end + n);
        }
    }
    PyObject *done = PyObject_CallMethodOneArg(rec, s_append, line);
    if (done == NULL)
        return -1;
    Py_DECREF(done);
    return 0;
}

static int
is_ascii(const char *text, Py_ssize_t n)
{
    const unsigned char *p = (const unsigned char *)text;
    uint64_t seen = 0, word;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&word, p + i, 8);
        seen |= word;
    }
    for (; i < n; i++)
        seen |= p[i];
    return !(seen & 0x8080808080808080ULL);
}

/* `_finite_attrs(attrs)` for the engine's attrs (a dict or None); -1: not sure (a float
   subclass, whose `v - v` may be anything): writer.py decides */
static int
finite_attrs(PyObject *attrs)
{
    if (attrs == Py_None)
        return 1;
    if (!PyDict_CheckExact(attrs))
        return -1;
    Py_ssize_t i = 0;
    PyObject *key, *v;
    while (PyDict_Next(attrs, &i, &key, &v)) {
        if (PyFloat_CheckExact(v)) {
            if (!isfinite(PyFloat_AS_DOUBLE(v)))
                return 0;
        }
        else if (PyFloat_Check(v))
            return -1;
        else if (PyList_CheckExact(v)) {
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(v); k++) {
                PyObject *x = PyList_GET_ITEM(v, k);
                if (PyFloat_CheckExact(x)) {
                    if (!isfinite(PyFloat_AS_DOUBLE(x)))
                        return 0;
                }
                else if (PyFloat_Check(x))
                    return -1;
            }
        }
    }
    return 1;
}

/* encode.py's `_plain`: orjson writes it as the strict encoder does */
static int
plain(PyObject *v, int depth)
{
    if (PyUnicode_CheckExact(v) || PyLong_CheckExact(v) || PyBool_Check(v) || v == Py_None)
        return 1;
    if (PyFloat_CheckExact(v))
        return isfinite(PyFloat_AS_DOUBLE(v));
    if (depth == 0)
        return 0;
    if (PyDict_CheckExact(v)) {
        Py_ssize_t i = 0;
        PyObject *key, *x;
        while (PyDict_Next(v, &i, &key, &x))
            if (!PyUnicode_CheckExact(key) || !plain(x, depth - 1))
                return 0;
        return 1;
    }
    if (PyList_CheckExact(v)) {
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++)
            if (!plain(PyList_GET_ITEM(v, i), depth - 1))
                return 0;
        return 1;
    }
    return 0;
}

/* encode.py's `_finite_number` of data[name]; 0 also when it is missing */
static int
finite_number(PyObject *data, PyObject *name)
{
    PyObject *x = PyDict_GetItemWithError(data, name);
    if (x == NULL)
        return PyErr_Occurred() ? -1 : 0;
    return PyLong_CheckExact(x) || (PyFloat_CheckExact(x) && isfinite(PyFloat_AS_DOUBLE(x)));
}

/* `record._line`, for an event it takes orjson's way (new reference, NULL with an error) */
static PyObject *
make_line(PyObject *rec, PyObject *cls, PyObject *data, PyObject *dumps, int engine_built)
{
    if (engine_built && cls == BackwardStep) {    /* formulas are not ASCII: escaped once */
        PyObject *text = PyDict_GetItemWithError(data, s_formula);
        if (text == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, s_formula);
            return NULL;
        }
        Py_INCREF(text);
        PyObject *frag = PyDict_GetItemWithError(fragments, text);
        if (frag != NULL)
            Py_INCREF(frag);
        else if (!PyErr_Occurred())
            frag = PyObject_CallOneArg(ascii_fragment, text);
        Py_DECREF(text);
        if (frag == NULL)
            return NULL;
        int failed = PyDict_SetItem(data, s_formula, frag);
        Py_DECREF(frag);
        PyObject *grads = failed ? NULL : PyDict_GetItemWithError(data, s_input_grads);
        if (grads == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, s_input_grads);
            return NULL;
        }
        PyObject *once = _tapeviz_totals_once(grads);
        failed = once == NULL || PyDict_SetItem(data, s_input_grads, once);
        Py_XDECREF(once);
        if (failed)
            return NULL;
    }
    PyObject *args[2] = {data, newline};
    PyObject *line = PyObject_Vectorcall(dumps, args, 1, option_kw);
    if (line == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_TypeError))
            return NULL;
        PyErr_Clear();      /* a type orjson refuses: the stdlib way decides */
        return PyObject_CallMethodOneArg(rec, s_strict, data);
    }
    if (!PyBytes_CheckExact(line)) {
        Py_DECREF(line);
        PyErr_SetString(PyExc_TypeError, "dumps did not return bytes");
        return NULL;
    }
    if (is_ascii(PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line)))
        return line;
    /* the format is ASCII: \u escapes, as json writes them */
    PyObject *text = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line),
                                          NULL);
    Py_DECREF(line);
    if (text == NULL)
        return NULL;
    line = PyUnicode_AsEncodedString(text, "ascii", "tapeviz-json-ascii");
    Py_DECREF(text);
    return line;
}

/* write() below: 1, 0, -1, or -2 with an error set (one writer.py would not catch) */
int
_tapeviz_write_event(PyObject *rec, PyObject *cls, PyObject *data, PyObject *pending)
{
    if (errors == NULL || !PyDict_CheckExact(data) || cls == GradientFinished)
        return 0;
    int engine_built = pending != Py_None;
    if (!engine_built) {    /* by hand or from a file: orjson's way when _line's checks say */
        int fast = cls == Scalar ? finite_number(data, s_value) : plain(data, 3);
        if (fast == 1 && cls == Scalar)
            fast = finite_number(data, s_time);
        if (fast != 1)
            return fast < 0 ? -2 : 0;
    }
    else if (cls == OpRecorded) {
        PyObject *attrs = PyDict_GetItemWithError(data, s_attrs);
        if (attrs == NULL)
            return PyErr_Occurred() ? -2 : 0;
        if (finite_attrs(attrs) != 1)    /* non-finite: sanitised, the Python way */
            return 0;
    }
    else if (cls == BackwardStep) {
        PyObject *text = PyDict_GetItemWithError(data, s_formula);
        if (text == NULL && PyErr_Occurred())
            return -2;
        if (text == NULL || !PyUnicode_CheckExact(text))
            return 0;
    }
    Py_ssize_t size, limit;
    if (global_ssize(writer_globals, s_buffer_size, &size))
        return -2;
    PyObject *dumps = NULL, *buffer = NULL, *tables = NULL, *refs = NULL, *by_line = NULL;
    PyObject *spec = NULL, *line = NULL;
    int result = -2;
    if (!(dumps = PyObject_GetAttr(rec, s_dumps)) || !(buffer = PyObject_GetAttr(rec, s_buffer))
            || !(tables = PyObject_GetAttr(rec, s_tables))
            || !(refs = PyObject_GetAttr(tables, s_refs))
            || !(by_line = PyObject_GetAttr(tables, s_by_line)))
        goto done;
    if (dumps == Py_None || !PyByteArray_CheckExact(buffer) ||
            PyByteArray_GET_SIZE(buffer) < size || !PyDict_CheckExact(refs) ||
            !PyDict_CheckExact(by_line)) {
        result = 0;
        goto done;
    }
    spec = PyDict_GetItemWithError(ref_fields, cls);
    if (spec == NULL && PyErr_Occurred())
        goto done;
    spec = Py_NewRef(spec ? spec : Py_None);

    /* from here on, as writer.py's try: compact, the site's definition, the line */
    int compacted = _tapeviz_compact(refs, by_line, spec, data);
    if (compacted < 0)
        goto failed;
    if (!compacted) {     /* tables._compact_c: a site Python decides */
        PyObject *site = PyDict_GetItemWithError(data, s_site);
        if (site == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, s_site);
            goto failed;
        }
        PyObject *pair = PyObject_CallMethodOneArg(tables, s_site_method, site);
        if (pair == NULL)
            goto failed;
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_ValueError, "site() must return (id, line)");
            goto failed;
        }
        int bad = PyDict_SetItem(data, s_site, PyTuple_GET_ITEM(pair, 0));
        PyObject *defined = PyTuple_GET_ITEM(pair, 1);
        if (!bad) {
            int any = PyObject_IsTrue(defined);
            bad = any < 0 || (any && append(rec, buffer, size, defined));
        }
        Py_DECREF(pair);
        if (bad)
            goto failed;
    }
    line = make_line(rec, cls, data, dumps, engine_built);
    if (line == NULL)
        goto failed;

    /* writer.py's else: the line, a full table cleared, the count, the flush when due */
    if (append(rec, buffer, size, line))
        goto done;
    if (global_ssize(tables_globals, s_max_refs, &limit))
        goto done;
    if (PyDict_GET_SIZE(refs) > limit) {
        PyDict_Clear(refs);
        if (append(rec, buffer, size, cleared))
            goto done;
    }
    Py_ssize_t events, end, most_events, most_bytes;
    if (attr_ssize(rec, s_buffered, &events) || set_attr_ssize(rec, s_buffered, events + 1)
            || attr_ssize(rec, s_end, &end)
            || global_ssize(writer_globals, s_flush_events, &most_events)
            || global_ssize(writer_globals, s_flush_bytes, &most_bytes))
        goto done;
    if (events + 1 >= most_events || end >= most_bytes) {
        PyObject *flushed = PyObject_CallMethodNoArgs(rec, s_flush);
        if (flushed == NULL)
            goto done;
        Py_DECREF(flushed);
    }
    result = 1;
    goto done;
failed:
    if (PyErr_ExceptionMatches(errors)) {
        PyErr_Clear();
        result = -1;
    }
done:
    Py_XDECREF(line);
    Py_XDECREF(spec);
    Py_XDECREF(by_line);
    Py_XDECREF(refs);
    Py_XDECREF(tables);
    Py_XDECREF(buffer);
    Py_XDECREF(dumps);
    return result;
}

/* write(record, cls, data, pending) -> 1 (written, counted, flushed when due), 0 (nothing
   done: writer.py writes it) or -1 (an error writer.py's except takes: it writes the event
   the general way). Called with record._lock held, record.closed False. */
PyObject *
_tapeviz_write(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "write(record, cls, data, pending)");
        return NULL;
    }
    int done = _tapeviz_write_event(args[0], args[1], args[2], args[3]);
    return done < -1 ? NULL : PyLong_FromLong(done);
}

static PyObject *
intern(const char *name)
{
    return PyUnicode_InternFromString(name);
}

/* setup_writer(names): the classes, tables and module globals write() works with */
PyObject *
_tapeviz_setup_writer(PyObject *self, PyObject *names)
{
    static const char *keys[] = {"OpRecorded", "BackwardStep", "GradientFinished", "Scalar",
                                 "ref_fields", "fragments", "ascii_fragment",
                                 "writer_globals", "tables_globals", "cleared", "errors",
                                 "newline"};
    PyObject **slots[] = {&OpRecorded, &BackwardStep, &GradientFinished, &Scalar, &ref_fields,
                          &fragments, &ascii_fragment, &writer_globals, &tables_globals,
                          &cleared, &errors, &newline};
    if (!PyDict_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "setup_writer(names: dict)");
        return NULL;
    }
    PyObject *got[12];
    for (int i = 0; i < 12; i++) {
        got[i] = PyDict_GetItemString(names, keys[i]);
        if (got[i] == NULL) {
            PyErr_Format(PyExc_KeyError, "setup_writer: no %s", keys[i]);
            return NULL;
        }
    }
    if (!PyDict_Check(got[4]) || !PyDict_Check(got[5]) || !PyDict_Check(got[7]) ||
            !PyDict_Check(got[8]) || !PyBytes_CheckExact(got[9])) {
        PyErr_SetString(PyExc_TypeError, "setup_writer: a table or globals is not a dict");
        return NULL;
    }
    if (s_dumps == NULL) {
        s_dumps = intern("_dumps"); s_tables = intern("_tables"); s_buffer = intern("_buffer");
        s_end = intern("_end"); s_buffered = intern("_buffered_events");
        s_refs = intern("refs"); s_by_line = intern("by_line"); s_site = intern("site");
        s_attrs = intern("attrs"); s_formula = intern("formula"); s_append = intern("_append");
        s_flush = intern("_flush_locked"); s_strict = intern("_strict");
        s_flush_events = intern("FLUSH_EVENTS"); s_flush_bytes = intern("FLUSH_BYTES");
        s_buffer_size = intern("_BUFFER_SIZE"); s_max_refs = intern("MAX_REFS");
        s_site_method = s_site; s_value = intern("value"); s_time = intern("time");
        s_input_grads = intern("input_grads");
        /* interned: orjson tells its keywords by identity, as Python's calls pass them */
        PyObject *option = intern("option");
        option_kw = option ? PyTuple_Pack(1, option) : NULL;
        Py_XDECREF(option);
        if (PyErr_Occurred())
            return NULL;
    }
    for (int i = 0; i < 12; i++)
        Py_XSETREF(*slots[i], Py_NewRef(got[i]));
    Py_RETURN_NONE;
}
