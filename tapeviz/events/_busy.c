/* The threads inside a subscriber, for the C delivery (`_emit.c`): events/__init__.py's `_busy`,
   a set of thread ids, made a C object with the set's methods (`add`, `discard`, `clear`, `in`,
   `len`) that the Python code uses unchanged. Why: the C delivery marks its thread busy around
   every subscriber call, and adding to a set and discarding from it cost about 200
   instructions an event; here the calling thread's own mark is a thread-local flag, a few
   instructions to set and to test. Anything else (another thread's id: tests mark one) goes
   to an ordinary set, so `in` and `len` answer as the set did. `clear` is for
   the child after a fork (events._after_fork_in_child), where the calling thread is the only
   one left. The GIL orders every change. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#if defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL _Thread_local
#endif

static THREAD_LOCAL char inside;    /* this thread is inside a subscriber */
static Py_ssize_t marked;           /* threads whose `inside` is set */
static PyObject *others;            /* ids marked by another thread than their own: a set */

int _tapeviz_busy_here(void) { return inside; }

void
_tapeviz_busy_enter(void)
{
    if (!inside) {
        inside = 1;
        marked++;
    }
}

void
_tapeviz_busy_leave(void)
{
    if (inside) {
        inside = 0;
        marked--;
    }
}

/* 1: `ident` is the calling thread's id; 0: anything else (the set takes it) */
static int
own(PyObject *ident)
{
    if (!PyLong_CheckExact(ident))
        return 0;
    unsigned long id = PyLong_AsUnsignedLong(ident);
    if (id == (unsigned long)-1 && PyErr_Occurred()) {
        PyErr_Clear();          /* negative or too large: not a thread id */
        return 0;
    }
    return id == PyThread_get_thread_ident();
}

static PyObject *
busy_add(PyObject *self, PyObject *ident)
{
    if (own(ident))
        _tapeviz_busy_enter();
    else if (PySet_Add(others, ident) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
busy_discard(PyObject *self, PyObject *ident)
{
    if (own(ident))
        _tapeviz_busy_leave();
    else if (PySet_Discard(others, ident) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
busy_clear(PyObject *self, PyObject *unused)
{
    inside = 0;
    marked = 0;
    if (PySet_Clear(others) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int
busy_contains(PyObject *self, PyObject *ident)
{
    return own(ident) ? inside : PySet_Contains(others, ident);
}

static Py_ssize_t
busy_len(PyObject *self)
{
    return marked + PySet_GET_SIZE(others);
}

static PyMethodDef busy_methods[] = {
    {"add", busy_add, METH_O, "mark the thread of this id as inside a subscriber"},
    {"discard", busy_discard, METH_O, "unmark the thread of this id"},
    {"clear", busy_clear, METH_NOARGS, "unmark every thread (in a child after fork)"},
    {NULL, NULL, 0, NULL}
};

static PySequenceMethods busy_as_sequence = {
    .sq_length = busy_len,
    .sq_contains = busy_contains,
};

static PyTypeObject BusyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tapeviz.events._emit.BusyThreads",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The ids of the threads inside an event subscriber (a set's methods).",
    .tp_methods = busy_methods,
    .tp_as_sequence = &busy_as_sequence,
};

/* The one instance (new reference), made once */
PyObject *
_tapeviz_busy_new(void)
{
    static PyObject *busy;
    if (busy == NULL) {
        if (PyType_Ready(&BusyType) < 0)
            return NULL;
        if (others == NULL && (others = PySet_New(NULL)) == NULL)
            return NULL;
        busy = PyObject_New(PyObject, &BusyType);
        if (busy == NULL)
            return NULL;
    }
    return Py_NewRef(busy);
}
