/* `user_site` in C: the user's source line of an op, taken for every op (tapeviz/engine/site.py
   has the Python version, used where this module was not built, on a Python other than 3.11,
   or with TAPEVIZ_PURE_PYTHON=1; both fill and read the same caches).

   Why C: the Python walk asks `sys._getframe` and `f_back` for frame objects, and CPython 3.11
   makes a frame object the first time one is asked for, then frees it, copying the frame
   out, when its function returns: about 4,000 instructions an op, a tenth of a scalar op's
   whole cost (benchmarks/instructions.py "tapeviz W1"). This walk reads the interpreter's own
   frames (`_PyInterpreterFrame`, CPython's internal header: their layout is 3.11's only,
   hence the version check below) and makes nothing, except once for a site never seen.

   `configure(site)` hands it site.py's caches, `_internal` (co_filename -> True when the file
   is tapeviz's own) and `_sites` (id(code) -> {f_lasti: (code, lineno)}), and the package's
   folder; `_MAX_CODES` is read from the module whenever a new code object arrives. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define SITE_WALK 1
#define Py_BUILD_CORE
#include "internal/pycore_frame.h"
#undef Py_BUILD_CORE
#else
#define SITE_WALK 0
#endif

#if SITE_WALK
static PyObject *module_obj;    /* tapeviz.engine.site: `_MAX_CODES` is read from it */
static PyObject *internal;      /* site._internal */
static PyObject *sites;         /* site._sites */
static PyObject *pkg_dir;       /* site._PKG_DIR */

static PyObject *
configure(PyObject *self, PyObject *site_module)
{
    PyObject *found[3];
    const char *names[3] = {"_internal", "_sites", "_PKG_DIR"};
    for (int i = 0; i < 3; i++) {
        found[i] = PyObject_GetAttrString(site_module, names[i]);
        if (found[i] == NULL) {
            for (int j = 0; j < i; j++)
                Py_DECREF(found[j]);
            return NULL;
        }
    }
    if (!PyDict_Check(found[0]) || !PyDict_Check(found[1]) || !PyUnicode_Check(found[2])) {
        for (int i = 0; i < 3; i++)
            Py_DECREF(found[i]);
        PyErr_SetString(PyExc_TypeError, "configure: _internal and _sites must be dicts, "
                        "_PKG_DIR a str");
        return NULL;
    }
    Py_XSETREF(module_obj, Py_NewRef(site_module));
    Py_XSETREF(internal, found[0]);
    Py_XSETREF(sites, found[1]);
    Py_XSETREF(pkg_dir, found[2]);
    Py_RETURN_NONE;
}

/* site._MAX_CODES now (a test may lower it), -1 on error */
static Py_ssize_t
max_codes(void)
{
    PyObject *value = PyObject_GetAttrString(module_obj, "_MAX_CODES");
    if (value == NULL)
        return -1;
    Py_ssize_t limit = PyLong_AsSsize_t(value);
    Py_DECREF(value);
    return limit;
}

/* 1 when the code object's file lies inside tapeviz, 0 when not, -1 on error. */
static int
is_internal(PyCodeObject *code)
{
    PyObject *name = code->co_filename;
    PyObject *flag = PyDict_GetItemWithError(internal, name);
    if (flag == NULL) {
        if (PyErr_Occurred())
            return -1;
        Py_ssize_t found = PyUnicode_Check(name) ?
            PyUnicode_Tailmatch(name, pkg_dir, 0, PY_SSIZE_T_MAX, -1) : 0;
        if (found < 0)
            return -1;
        flag = found ? Py_True : Py_False;
        if (PyDict_SetItem(internal, name, flag) < 0)
            return -1;
    }
    return flag == Py_True;
}

/* The site (code, lineno) at byte offset `lasti` of `code`: the one made the first time it
   was asked for, found by id(code) and the offset (hashing a code object hashes its whole
   bytecode). A new reference. */
static PyObject *
site_at(PyCodeObject *code, int lasti)
{
    PyObject *site = NULL;
    PyObject *offset = NULL;
    PyObject *key = PyLong_FromVoidPtr(code);
    if (key == NULL)
        return NULL;
    PyObject *at = PyDict_GetItemWithError(sites, key);    /* borrowed */
    if (at == NULL) {
        if (PyErr_Occurred())
            goto done;
        Py_ssize_t limit = max_codes();
        if (limit < 0 && PyErr_Occurred())
            goto done;
        if (PyDict_GET_SIZE(sites) >= limit)
            PyDict_Clear(sites);
        at = PyDict_New();
        if (at == NULL)
            goto done;
        int failed = PyDict_SetItem(sites, key, at);
        Py_DECREF(at);                      /* `sites` holds it */
        if (failed < 0)
            goto done;
    }
    offset = PyLong_FromLong(lasti);
    if (offset == NULL)
        goto done;
    site = PyDict_GetItemWithError(at, offset);
    if (site != NULL) {
        Py_INCREF(site);
    } else if (!PyErr_Occurred()) {
        /* what `frame.f_lineno` gives when no trace function set it */
        site = Py_BuildValue("(Oi)", (PyObject *)code, PyCode_Addr2Line(code, lasti));
        if (site != NULL && PyDict_SetItem(at, offset, site) < 0)
            Py_CLEAR(site);
    }
done:
    Py_DECREF(key);
    Py_XDECREF(offset);
    return site;
}

/* user_site(depth=2): (code, lineno) of the nearest caller outside tapeviz, or None; `depth`
   counts frames as the Python version does, from its own frame (which this one, a C
   function, does not have). */
static PyObject *
user_site(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (internal == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "tapeviz.engine._site is not configured");
        return NULL;
    }
    long depth = 2;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "user_site(depth=2)");
        return NULL;
    }
    if (nargs == 1) {
        depth = PyLong_AsLong(args[0]);
        if (depth == -1 && PyErr_Occurred())
            return NULL;
    }
    /* the frames `sys._getframe` and `f_back` would give: incomplete ones (a call still
       setting up) are skipped */
    _PyInterpreterFrame *frame = PyThreadState_GET()->cframe->current_frame;
    for (long skip = depth - 1; skip > 0; ) {
        frame = frame == NULL ? NULL : frame->previous;
        if (frame == NULL) {
            PyErr_SetString(PyExc_ValueError, "call stack is not deep enough");
            return NULL;
        }
        if (!_PyFrame_IsIncomplete(frame))
            skip--;
    }
    while (frame != NULL) {
        if (!_PyFrame_IsIncomplete(frame)) {
            int inside = is_internal(frame->f_code);
            if (inside < 0)
                return NULL;
            if (!inside)
                return site_at(frame->f_code,
                               _PyInterpreterFrame_LASTI(frame) * (int)sizeof(_Py_CODEUNIT));
        }
        frame = frame->previous;
    }
    Py_RETURN_NONE;
}
#endif  /* SITE_WALK */

static PyMethodDef methods[] = {
#if SITE_WALK
    {"configure", configure, METH_O,
     "Take site.py's caches from the module: configure(tapeviz.engine.site)."},
    {"user_site", (PyCFunction)(void (*)(void))user_site, METH_FASTCALL,
     "(code, lineno) of the nearest caller outside tapeviz, or None."},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "tapeviz.engine._site",
    "The user's source line of an op, found in C (see tapeviz/engine/site.py).", -1, methods,
};

PyMODINIT_FUNC
PyInit__site(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "AVAILABLE", SITE_WALK) < 0)
        Py_CLEAR(m);
    return m;
}
