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

/* set once by setup_writer() (writer.py at import); the module globals are read at each call,
   as writer.py and tables.py read theirs (tests change MAX_REFS) */
static PyObject *OpRecorded, *BackwardStep, *GradientFinished, *ref_fields, *fragments,
    *ascii_fragment, *writer_globals, *tables_globals, *cleared, *errors, *option_kw,
    *newline;
static PyObject *s_dumps, *s_tables, *s_buffer, *s_end, *s_buffered, *s_refs, *s_by_line,
    *s_site, *s_attrs, *s_formula, *s_append, *s_flush, *s_strict, *s_flush_events,
    *s_flush_bytes, *s_buffer_size, *s_max_refs, *s_site_method;

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

/* `record._line` for an event tapeviz built (new reference, NULL with an error) */
static PyObject *
make_line(PyObject *rec, PyObject *cls, PyObject *data, PyObject *dumps)
{
    if (cls == BackwardStep) {    /* formulas are not ASCII: escaped once (memoised) */
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
    PyObject *rec = args[0], *cls = args[1], *data = args[2];
    if (errors == NULL || args[3] == Py_None || !PyDict_CheckExact(data) ||
            cls == GradientFinished)
        return PyLong_FromLong(0);
    if (cls == OpRecorded) {
        PyObject *attrs = PyDict_GetItemWithError(data, s_attrs);
        if (attrs == NULL) {
            if (PyErr_Occurred())
                return NULL;
            return PyLong_FromLong(0);
        }
        if (finite_attrs(attrs) != 1)    /* non-finite: sanitised, the Python way */
            return PyLong_FromLong(0);
    }
    else if (cls == BackwardStep) {
        PyObject *text = PyDict_GetItemWithError(data, s_formula);
        if (text == NULL && PyErr_Occurred())
            return NULL;
        if (text == NULL || !PyUnicode_CheckExact(text))
            return PyLong_FromLong(0);
    }
    Py_ssize_t size, limit;
    if (global_ssize(writer_globals, s_buffer_size, &size))
        return NULL;
    PyObject *dumps = NULL, *buffer = NULL, *tables = NULL, *refs = NULL, *by_line = NULL;
    PyObject *spec = NULL, *line = NULL, *result = NULL;
    if (!(dumps = PyObject_GetAttr(rec, s_dumps)) || !(buffer = PyObject_GetAttr(rec, s_buffer))
            || !(tables = PyObject_GetAttr(rec, s_tables))
            || !(refs = PyObject_GetAttr(tables, s_refs))
            || !(by_line = PyObject_GetAttr(tables, s_by_line)))
        goto done;
    if (dumps == Py_None || !PyByteArray_CheckExact(buffer) ||
            PyByteArray_GET_SIZE(buffer) < size || !PyDict_CheckExact(refs) ||
            !PyDict_CheckExact(by_line)) {
        result = PyLong_FromLong(0);
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
    line = make_line(rec, cls, data, dumps);
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
    result = PyLong_FromLong(1);
    goto done;
failed:
    if (PyErr_ExceptionMatches(errors)) {
        PyErr_Clear();
        result = PyLong_FromLong(-1);
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

static PyObject *
intern(const char *name)
{
    return PyUnicode_InternFromString(name);
}

/* setup_writer(names): the classes, tables and module globals write() works with */
PyObject *
_tapeviz_setup_writer(PyObject *self, PyObject *names)
{
    static const char *keys[] = {"OpRecorded", "BackwardStep", "GradientFinished",
                                 "ref_fields", "fragments", "ascii_fragment",
                                 "writer_globals", "tables_globals", "cleared", "errors",
                                 "newline"};
    PyObject **slots[] = {&OpRecorded, &BackwardStep, &GradientFinished, &ref_fields,
                          &fragments, &ascii_fragment, &writer_globals, &tables_globals,
                          &cleared, &errors, &newline};
    if (!PyDict_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "setup_writer(names: dict)");
        return NULL;
    }
    PyObject *got[11];
    for (int i = 0; i < 11; i++) {
        got[i] = PyDict_GetItemString(names, keys[i]);
        if (got[i] == NULL) {
            PyErr_Format(PyExc_KeyError, "setup_writer: no %s", keys[i]);
            return NULL;
        }
    }
    if (!PyDict_Check(got[3]) || !PyDict_Check(got[4]) || !PyDict_Check(got[6]) ||
            !PyDict_Check(got[7]) || !PyBytes_CheckExact(got[8])) {
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
        s_site_method = s_site;
        /* interned: orjson tells its keywords by identity, as Python's calls pass them */
        PyObject *option = intern("option");
        option_kw = option ? PyTuple_Pack(1, option) : NULL;
        Py_XDECREF(option);
        if (PyErr_Occurred())
            return NULL;
    }
    for (int i = 0; i < 11; i++)
        Py_XSETREF(*slots[i], Py_NewRef(got[i]));
    Py_RETURN_NONE;
}
