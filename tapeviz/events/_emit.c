/* `emit_deferred` in C: the delivery of the engine's per-op events (op_recorded,
   backward_step, watched, variable_assigned, gradient_started). It does what the Python
   `emit_deferred` in tapeviz/events/__init__.py does, step for step, and that one is used
   where this module was not built (setup.py builds it as optional) or with
   TAPEVIZ_PURE_PYTHON=1. Why C: with a subscriber, Python's version cost about 5,300
   instructions an event, two events an op, a third of a scalar op's whole cost; this one
   about 2,500 (benchmarks/instructions.py "tapeviz W1 events").

   It reads the same state as the Python version, through the objects `configure` is given
   once (`_route`, `_report`, `_kept_unbuilt`, the sequence counter and the `_pending` slot)
   and the two that are rebound whenever the subscribers change (`_callbacks`, `_filtered`),
   which `_update_active` hands to `set_routes` each time. The threads inside a subscriber
   are this module's `busy` (_busy.c), which events/__init__.py uses as its `_busy`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <time.h>

int _tapeviz_busy_here(void);
void _tapeviz_busy_enter(void);
void _tapeviz_busy_leave(void);
PyObject *_tapeviz_busy_new(void);

static PyObject *callbacks;      /* _callbacks: the (callback, subscription) pairs, a tuple */
static int filtered;             /* _filtered: some subscriber takes some kinds only */
static PyObject *route;          /* _route(cls) */
static PyObject *report;         /* _report(sub, exc) */
static PyObject *kept_unbuilt;   /* _kept_unbuilt(event) */
static PyObject *seq;            /* itertools.count: the events' sequence numbers */
static PyObject *pending_slot;   /* the member descriptor of the _pending slot */

static PyObject *
configure(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "configure takes 5 arguments");
        return NULL;
    }
    PyObject **slots[] = {&route, &report, &kept_unbuilt, &seq, &pending_slot};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(args[i]);
        Py_XSETREF(*slots[i], args[i]);
    }
    Py_RETURN_NONE;
}

static PyObject *
set_routes(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyTuple_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "set_routes(callbacks: tuple, filtered)");
        return NULL;
    }
    int is_filtered = PyObject_IsTrue(args[1]);
    if (is_filtered < 0)
        return NULL;
    Py_INCREF(args[0]);
    Py_XSETREF(callbacks, args[0]);
    filtered = is_filtered;
    Py_RETURN_NONE;
}

/* One spare event object per event class. An event nobody kept (the usual case: a recording
   or a queue reads what it needs and lets go) is cleared back to the state `tp_alloc` makes
   (every slot empty) and handed out again for the next event of its class: allocating and
   freeing a slotted, garbage-collected object cost about 500 instructions an event. Only an
   object that nothing else can reach is reused: one reference (ours), no weak reference, no
   __dict__, no finalizer. */
#define SPARES 16
static PyTypeObject *spare_type[SPARES];
static PyObject *spare[SPARES];

static int
reusable_type(PyTypeObject *t)
{
    return t->tp_clear != NULL && t->tp_finalize == NULL && t->tp_del == NULL &&
           t->tp_dictoffset == 0 && t->tp_weaklistoffset > 0 &&
#ifdef Py_TPFLAGS_MANAGED_DICT
           !(t->tp_flags & Py_TPFLAGS_MANAGED_DICT) &&
#endif
           PyType_IS_GC(t);
}

static PyObject *
take_spare(PyTypeObject *t)
{
    for (int i = 0; i < SPARES && spare_type[i] != NULL; i++) {
        if (spare_type[i] == t) {
            PyObject *obj = spare[i];
            spare[i] = NULL;
            return obj;
        }
    }
    return NULL;
}

/* Steals `event` (delivered, not kept): kept as its class's spare, or released. */
static void
give_back(PyObject *event)
{
    PyTypeObject *t = Py_TYPE(event);
    int i = 0;
    while (i < SPARES && spare_type[i] != NULL && spare_type[i] != t)
        i++;
    if (i == SPARES || (spare_type[i] == t && spare[i] != NULL) || Py_REFCNT(event) != 1 ||
            *(PyObject **)((char *)event + t->tp_weaklistoffset) != NULL ||
            !reusable_type(t)) {
        Py_DECREF(event);
        return;
    }
    /* clearing may run Python (the last reference to an argument): the exception state is
       the caller's, and the object is checked once more after */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    t->tp_clear(event);
    PyErr_Restore(type, value, tb);
    if (Py_REFCNT(event) != 1 || spare[i] != NULL ||
            (spare_type[i] != NULL && spare_type[i] != t)) {
        Py_DECREF(event);
        return;
    }
    if (spare_type[i] == NULL)
        spare_type[i] = (PyTypeObject *)Py_NewRef(t);
    spare[i] = event;
}

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static PyObject *
emit_deferred(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2) {
        PyErr_SetString(PyExc_TypeError, "emit_deferred(cls, build, *args)");
        return NULL;
    }
    if (pending_slot == NULL || callbacks == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "tapeviz.events._emit is not configured");
        return NULL;
    }
    PyObject *cls = args[0], *build = args[1];
    PyObject *pairs = NULL, *event = NULL, *pending = NULL, *result = NULL;

    if (_tapeviz_busy_here())           /* a subscriber of this thread emits: dropped */
        Py_RETURN_NONE;
    if (filtered)
        pairs = PyObject_CallOneArg(route, cls);
    else
        pairs = Py_NewRef(callbacks);
    if (pairs == NULL)
        goto done;
    if (!PyTuple_Check(pairs)) {
        PyErr_SetString(PyExc_TypeError, "tapeviz.events: the callbacks must be a tuple");
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(pairs);
    if (n == 0) {                        /* nobody wants this kind: nothing to build */
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "emit_deferred: cls must be an event class");
        goto done;
    }
    /* object.__new__(cls) without its argument and abstract-class checks: an event class
       takes no arguments here and is never abstract */
    event = take_spare((PyTypeObject *)cls);
    if (event == NULL)
        event = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
    if (event == NULL)
        goto done;
    {
        PyObject *number = PyIter_Next(seq);
        if (number == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "event sequence exhausted");
            goto done;
        }
        PyObject *t = PyFloat_FromDouble(now());
        pending = t == NULL ? NULL : PyTuple_New(nargs + 1);
        if (pending == NULL) {
            Py_DECREF(number);
            Py_XDECREF(t);
            goto done;
        }
        PyTuple_SET_ITEM(pending, 0, Py_NewRef(build));
        PyTuple_SET_ITEM(pending, 1, number);
        PyTuple_SET_ITEM(pending, 2, t);
        for (Py_ssize_t i = 2; i < nargs; i++)
            PyTuple_SET_ITEM(pending, i + 1, Py_NewRef(args[i]));
    }
    if (Py_TYPE(pending_slot)->tp_descr_set(pending_slot, event, pending) < 0)
        goto done;
    _tapeviz_busy_enter();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PyTuple_GET_ITEM(pairs, i);
        PyObject *r = PyObject_CallOneArg(PyTuple_GET_ITEM(pair, 0), event);
        if (r != NULL) {
            Py_DECREF(r);
            continue;
        }
        if (!PyErr_ExceptionMatches(PyExc_Exception)) {   /* KeyboardInterrupt, SystemExit */
            _tapeviz_busy_leave();
            goto done;
        }
        PyObject *type, *exc, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        if (tb != NULL)
            PyException_SetTraceback(exc, tb);
        PyObject *r2 = PyObject_CallFunctionObjArgs(report, PyTuple_GET_ITEM(pair, 1), exc,
                                                    NULL);
        Py_XDECREF(type);
        Py_XDECREF(exc);
        Py_XDECREF(tb);
        if (r2 == NULL) {
            _tapeviz_busy_leave();
            goto done;
        }
        Py_DECREF(r2);
    }
    _tapeviz_busy_leave();
    if (Py_REFCNT(event) > 1) {          /* a subscriber kept it: built later if never read */
        PyObject *still = Py_TYPE(pending_slot)->tp_descr_get(pending_slot, event,
                                                               (PyObject *)Py_TYPE(event));
        if (still == NULL)
            goto done;
        int unread = PyObject_IsTrue(still);
        Py_DECREF(still);
        if (unread < 0)
            goto done;
        if (unread) {
            PyObject *r3 = PyObject_CallOneArg(kept_unbuilt, event);
            if (r3 == NULL)
                goto done;
            Py_DECREF(r3);
        }
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(pairs);
    Py_XDECREF(pending);
    if (event != NULL) {
        if (result != NULL && Py_REFCNT(event) == 1)
            give_back(event);
        else
            Py_DECREF(event);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"emit_deferred", (PyCFunction)(void (*)(void))emit_deferred, METH_FASTCALL,
     "emit_deferred(cls, build, *args): see tapeviz.events.emit_deferred"},
    {"configure", (PyCFunction)(void (*)(void))configure, METH_FASTCALL,
     "configure(route, report, kept_unbuilt, seq, pending_slot)"},
    {"set_routes", (PyCFunction)(void (*)(void))set_routes, METH_FASTCALL,
     "set_routes(callbacks, filtered): the subscribers changed"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_emit", "The engine's per-op event delivery, in C.", -1, methods,
    NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__emit(void)
{
    PyObject *m = PyModule_Create(&module);
    PyObject *busy = m ? _tapeviz_busy_new() : NULL;
    if (busy == NULL || PyModule_AddObject(m, "busy", busy) < 0) {
        Py_XDECREF(busy);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
