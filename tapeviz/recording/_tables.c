/* The recording writer's per-event table work in C: `WriterTables.compact` (tables.py) for
   the usual event, step for step. An event's tensor refs already written in full become
   their ids; its site becomes its id when the last event at that (file, line) had the same
   one. What is rare stays in Python: a site seen for the first time (its definition line is
   made there), a hand-made site that cannot be a key, and `gradient_finished`. Why C: this
   loop was about 40% of the writer's time per event (2.4 us of 6.4). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *str_id, *str_site, *str_file, *str_line, *str_total, *str_grad;

/* `a == b` for two dicts, quicker when both were built by the same code: their keys then come
   in the same order and are the same (interned) string objects, so they are walked side by
   side instead of each key being looked up in the other dict; a nested dict (a ref's
   summary) likewise. Any other pair of dicts, or any difference in their keys' order or
   identity, goes to the general comparison, so the answer is always that of `==`. */
static int
same_dicts(PyObject *a, PyObject *b, int depth)
{
    if (a == b)
        return 1;
    if (PyDict_GET_SIZE(a) != PyDict_GET_SIZE(b))
        return 0;
    Py_ssize_t i = 0, j = 0;
    PyObject *ka, *va, *kb, *vb;
    while (PyDict_Next(a, &i, &ka, &va)) {
        if (!PyDict_Next(b, &j, &kb, &vb) || ka != kb)
            return PyObject_RichCompareBool(a, b, Py_EQ);
        if (va == vb)
            continue;
        int same;
        Py_INCREF(va);    /* a comparison may run Python code that changes the dicts */
        Py_INCREF(vb);
        if (depth < 2 && PyDict_CheckExact(va) && PyDict_CheckExact(vb))
            same = same_dicts(va, vb, depth + 1);
        else
            same = PyObject_RichCompareBool(va, vb, Py_EQ);
        Py_DECREF(va);
        Py_DECREF(vb);
        if (same <= 0)
            return same;
    }
    return 1;
}

/* A ref (a dict with an exact int "id") already written in full, and equal to it: its id
   (new reference). Otherwise remembers it and returns NULL without an error; NULL with an
   error when a comparison raised. */
static PyObject *
known_id(PyObject *refs, PyObject *ref)
{
    if (!PyDict_CheckExact(ref))
        return NULL;
    PyObject *tid = PyDict_GetItemWithError(ref, str_id);
    if (tid == NULL || !PyLong_CheckExact(tid))
        return NULL;
    Py_INCREF(tid);      /* held: a comparison runs Python code, which could change `ref` */
    PyObject *known = PyDict_GetItemWithError(refs, tid);
    if (known == NULL) {
        if (PyErr_Occurred()) {
            Py_DECREF(tid);
            return NULL;
        }
    }
    else {
        Py_INCREF(known);    /* ... or `refs` */
        int same = PyDict_CheckExact(known) ? same_dicts(known, ref, 0)
                                            : PyObject_RichCompareBool(known, ref, Py_EQ);
        Py_DECREF(known);
        if (same < 0) {
            Py_DECREF(tid);
            return NULL;
        }
        if (same)
            return tid;      /* (the reference taken above) */
    }
    PyDict_SetItem(refs, tid, ref);    /* (on failure its error is set: the caller sees it) */
    Py_DECREF(tid);
    return NULL;
}

/* The refs named by `spec` ((name, many) pairs, or None) replaced in `data` as
   tables.WriterTables.compact does; then its site. 1 when the event needs nothing more (no
   site, or a known one, now its id); 0 when Python must decide the site (new, or not a usable
   key); -1 with an error set. Shared with _writer.c, which compacts the usual event itself. */
int
_tapeviz_compact(PyObject *refs, PyObject *by_line, PyObject *spec, PyObject *data)
{
    if (spec != Py_None) {
        if (!PyTuple_Check(spec)) {
            PyErr_SetString(PyExc_TypeError, "compact: spec must be a tuple");
            return -1;
        }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(spec); k++) {
            PyObject *field = PyTuple_GET_ITEM(spec, k);
            PyObject *name = PyTuple_GET_ITEM(field, 0);
            int many = PyObject_IsTrue(PyTuple_GET_ITEM(field, 1));
            PyObject *value = PyDict_GetItemWithError(data, name);
            if (value == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetObject(PyExc_KeyError, name);
                return -1;
            }
            if (!many) {
                Py_INCREF(value);    /* (a comparison runs Python code, which could drop it) */
                PyObject *tid = known_id(refs, value);
                Py_DECREF(value);
                if (tid == NULL) {
                    if (PyErr_Occurred())
                        return -1;
                    continue;
                }
                int failed = PyDict_SetItem(data, name, tid);
                Py_DECREF(tid);
                if (failed)
                    return -1;
                continue;
            }
            if (!PyList_CheckExact(value))
                continue;
            /* a snapshot: a comparison runs Python code, which could change the list */
            PyObject *items = PyList_AsTuple(value);
            if (items == NULL)
                return -1;
            Py_ssize_t n = PyTuple_GET_SIZE(items);
            PyObject *out = PyList_New(n);
            if (out == NULL) {
                Py_DECREF(items);
                return -1;
            }
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *ref = PyTuple_GET_ITEM(items, i);
                PyObject *tid = known_id(refs, ref);
                if (tid == NULL) {
                    if (PyErr_Occurred()) {
                        Py_DECREF(out);
                        Py_DECREF(items);
                        return -1;
                    }
                    tid = Py_NewRef(ref);
                }
                PyList_SET_ITEM(out, i, tid);
            }
            Py_DECREF(items);
            int failed = PyDict_SetItem(data, name, out);
            Py_DECREF(out);
            if (failed)
                return -1;
        }
    }
    PyObject *site = PyDict_GetItemWithError(data, str_site);
    if (site == NULL) {
        if (PyErr_Occurred())
            return -1;
        return 1;
    }
    if (!PyDict_CheckExact(site))
        return 1;
    PyObject *file = PyDict_GetItemWithError(site, str_file);
    if (file == NULL && PyErr_Occurred())
        return -1;
    PyObject *line = PyDict_GetItemWithError(site, str_line);
    if (line == NULL && PyErr_Occurred())
        return -1;
    PyObject *key = PyTuple_Pack(2, file ? file : Py_None, line ? line : Py_None);
    if (key == NULL)
        return -1;
    PyObject *hit = PyDict_GetItemWithError(by_line, key);
    Py_DECREF(key);
    if (hit == NULL) {
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return -1;
            PyErr_Clear();             /* not a usable key: Python decides */
        }
        return 0;
    }
    if (!PyTuple_Check(hit) || PyTuple_GET_SIZE(hit) != 2)
        return 0;
    Py_INCREF(hit);
    Py_INCREF(site);
    int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(hit, 1), site, Py_EQ);
    Py_DECREF(site);
    if (same < 0) {
        Py_DECREF(hit);
        if (!PyErr_ExceptionMatches(PyExc_TypeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (!same) {
        Py_DECREF(hit);
        return 0;
    }
    int failed = PyDict_SetItem(data, str_site, PyTuple_GET_ITEM(hit, 0));
    Py_DECREF(hit);
    if (failed)
        return -1;
    return 1;
}

/* tables.totals_once(input_grads): each entry whose "total" is its "grad" (the same object,
   not None) copied without "total", the others as they are, in a new list; anything but a
   list as it is (new reference; NULL with an error). For _writer.c's backward steps. */
PyObject *
_tapeviz_totals_once(PyObject *input_grads)
{
    if (!PyList_CheckExact(input_grads))
        return Py_NewRef(input_grads);
    Py_ssize_t n = PyList_GET_SIZE(input_grads);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *entry = Py_NewRef(PyList_GET_ITEM(input_grads, i));
        if (PyDict_CheckExact(entry)) {
            PyObject *total = PyDict_GetItemWithError(entry, str_total);
            PyObject *grad = total ? PyDict_GetItemWithError(entry, str_grad) : NULL;
            if (PyErr_Occurred()) {
                Py_DECREF(entry);
                Py_DECREF(out);
                return NULL;
            }
            if (total != NULL && total != Py_None && total == grad) {
                PyObject *copy = PyDict_Copy(entry);
                Py_SETREF(entry, copy);
                if (copy == NULL || PyDict_DelItem(copy, str_total)) {
                    Py_XDECREF(entry);
                    Py_DECREF(out);
                    return NULL;
                }
            }
        }
        PyList_SET_ITEM(out, i, entry);
    }
    return out;
}

/* compact(refs, by_line, spec, data) -> bool: _tapeviz_compact for tables.py */
static PyObject *
compact(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyDict_Check(args[0]) || !PyDict_Check(args[1]) ||
            !PyDict_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "compact(refs: dict, by_line: dict, spec, data: dict)");
        return NULL;
    }
    int done = _tapeviz_compact(args[0], args[1], args[2], args[3]);
    if (done < 0)
        return NULL;
    return PyBool_FromLong(done);
}

/* in _writer.c */
PyObject *_tapeviz_write(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *_tapeviz_setup_writer(PyObject *self, PyObject *names);
/* in _on_event.c */
PyObject *_tapeviz_on_event(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *_tapeviz_setup_on_event(PyObject *self, PyObject *names);

static PyMethodDef methods[] = {
    {"compact", (PyCFunction)(void (*)(void))compact, METH_FASTCALL,
     "compact(refs, by_line, spec, data) -> bool: see tapeviz.recording.tables"},
    {"write", (PyCFunction)(void (*)(void))_tapeviz_write, METH_FASTCALL,
     "write(record, cls, data, pending) -> 1, 0 or -1: see tapeviz.recording.writer"},
    {"setup_writer", _tapeviz_setup_writer, METH_O,
     "setup_writer(names: dict): the objects write() uses (native.py, at import)"},
    {"on_event", (PyCFunction)(void (*)(void))_tapeviz_on_event, METH_FASTCALL,
     "on_event(record, event): record._on_event for an event tapeviz built"},
    {"setup_on_event", _tapeviz_setup_on_event, METH_O,
     "setup_on_event(names: dict): the objects on_event() uses (native.py, at import)"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tables", "The recording writer's table work, in C.", -1,
    methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__tables(void)
{
    str_id = PyUnicode_InternFromString("id");
    str_site = PyUnicode_InternFromString("site");
    str_file = PyUnicode_InternFromString("file");
    str_line = PyUnicode_InternFromString("line");
    str_total = PyUnicode_InternFromString("total");
    str_grad = PyUnicode_InternFromString("grad");
    if (!str_id || !str_site || !str_file || !str_line || !str_total || !str_grad)
        return NULL;
    return PyModule_Create(&module);
}
