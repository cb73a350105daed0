/* `record._on_event` (writer.py) in C: the event's dict made from its slots (as
   events/deferred.py's `_dict_maker` function does, for a built or hand-made event) or from
   its deferred payload (`built_payload`, in Python), then the lock, and
   `_tapeviz_write_event` (_writer.c) inside it. Why C: the Python around the write (the
   call, the dict's function, the `with`) was about 8k instructions an event of the
   writer's 40k.

   Any other event (a slot never set, a writer that failed) goes to writer.py's `_on_event`
   whole, before anything is done; an event the write hands back goes to its
   `_write_locked`, under the same lock. The objects it works with: native.py. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "structmember.h"

int _tapeviz_write_event(PyObject *rec, PyObject *cls, PyObject *data, PyObject *pending);

static PyObject *plans, *make_plan, *python_on_event, *built_payload, *build_errors;
static PyMemberDescrObject *pending_slot;
static PyObject *s_failed, *s_lock, *s_closed, *s_acquire, *s_release, *s_write_locked,
    *s_kind;

/* the slot of a member descriptor (a borrowed reference, NULL when unset) */
static PyObject *
slot_of(PyObject *obj, PyMemberDescrObject *slot)
{
    return *(PyObject **)((char *)obj + slot->d_member->offset);
}

/* `(kind, name, slot, name, slot, ...)` for a class whose dict the slots make (checked here
   once: member descriptors of object slots, on the class or a base), else None */
static PyObject *
plan_of(PyObject *cls)
{
    PyObject *plan = PyDict_GetItemWithError(plans, cls);
    if (plan != NULL || PyErr_Occurred())
        return plan;
    plan = PyObject_CallOneArg(make_plan, cls);
    if (plan == NULL)
        return NULL;
    int usable = PyTuple_CheckExact(plan) && PyTuple_GET_SIZE(plan) % 2 == 1 &&
                 PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(pending_slot));
    for (Py_ssize_t i = 2; usable && i < PyTuple_GET_SIZE(plan); i += 2) {
        PyObject *d = PyTuple_GET_ITEM(plan, i);
        usable = Py_IS_TYPE(d, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX &&
                 PyType_IsSubtype((PyTypeObject *)cls, PyDescr_TYPE(d));
    }
    if (!usable)
        Py_SETREF(plan, Py_NewRef(Py_None));
    int failed = PyDict_SetItem(plans, cls, plan);
    Py_DECREF(plan);
    return failed ? NULL : plan;      /* (the dict holds it) */
}

/* the dict `_dict_maker`'s function makes; NULL without an error: a slot is unset */
static PyObject *
dict_of(PyObject *event, PyObject *plan)
{
    Py_ssize_t n = PyTuple_GET_SIZE(plan);
#if PY_VERSION_HEX < 0x030D0000
    PyObject *data = _PyDict_NewPresized(n / 2 + 1);
#else
    PyObject *data = PyDict_New();
#endif
    if (data == NULL || PyDict_SetItem(data, s_kind, PyTuple_GET_ITEM(plan, 0)) < 0)
        goto failed;
    for (Py_ssize_t i = 1; i < n; i += 2) {
        PyObject *value = slot_of(event, (PyMemberDescrObject *)PyTuple_GET_ITEM(plan, i + 1));
        if (value == NULL) {
            Py_DECREF(data);
            return NULL;
        }
        if (PyDict_SetItem(data, PyTuple_GET_ITEM(plan, i), value) < 0)
            goto failed;
    }
    return data;
failed:
    Py_XDECREF(data);
    return NULL;
}

/* on_event(record, event): record._on_event (a method of each record: see writer.py) */
PyObject *
_tapeviz_on_event(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || plans == NULL) {
        PyErr_SetString(PyExc_TypeError, "on_event(record, event) before setup_on_event()");
        return NULL;
    }
    PyObject *rec = args[0], *event = args[1], *cls = (PyObject *)Py_TYPE(event);
    PyObject *plan = plan_of(cls);
    if (plan == NULL)
        return NULL;
    PyObject *failed = PyObject_GetAttr(rec, s_failed);
    if (failed == NULL)
        return NULL;
    int stopped = PyObject_IsTrue(failed);
    Py_DECREF(failed);
    if (stopped < 0)
        return NULL;
    PyObject *pending = plan == Py_None ? NULL : slot_of(event, pending_slot);
    PyObject *data = NULL;
    if (stopped || pending == NULL)
        return PyObject_Vectorcall(python_on_event, args, 2, NULL);
    Py_INCREF(pending);
    if (pending == Py_False || pending == Py_None) {
        data = dict_of(event, plan);
        if (data == NULL && !PyErr_Occurred()) {   /* a slot never set: Python decides */
            Py_DECREF(pending);
            return PyObject_Vectorcall(python_on_event, args, 2, NULL);
        }
    }
    else if (PyObject_IsTrue(pending) == 1) {
        PyObject *call[2] = {event, pending};
        data = PyObject_Vectorcall(built_payload, call, 2, NULL);
    }
    else {
        Py_DECREF(pending);
        return PyErr_Occurred() ? NULL : PyObject_Vectorcall(python_on_event, args, 2, NULL);
    }
    if (data == NULL) {      /* as writer.py: a payload that cannot be built is sanitised */
        if (!PyErr_ExceptionMatches(build_errors)) {
            Py_DECREF(pending);
            return NULL;
        }
        PyErr_Clear();
        data = Py_NewRef(Py_None);
    }
    PyObject *result = NULL, *lock = PyObject_GetAttr(rec, s_lock), *closed = NULL;
    if (lock == NULL)
        goto done;
    PyObject *got = PyObject_CallMethodNoArgs(lock, s_acquire);
    if (got == NULL)
        goto done;
    Py_DECREF(got);
    int outcome = 0;
    if ((closed = PyObject_GetAttr(rec, s_closed)) == NULL ||
            (outcome = PyObject_IsTrue(closed)) < 0)
        outcome = -2;
    else if (!outcome) {
        outcome = _tapeviz_write_event(rec, cls, data, pending);
        if (outcome == 0 || outcome == -1) {
            PyObject *code = PyLong_FromLong(outcome);
            PyObject *rest = code == NULL ? NULL : PyObject_CallMethodObjArgs(
                rec, s_write_locked, event, cls, data, pending == Py_None ? Py_False : Py_True,
                code, NULL);
            Py_XDECREF(code);
            outcome = rest == NULL ? -2 : 1;
            Py_XDECREF(rest);
        }
    }
    /* the lock is let go whatever happened, as `with` does, keeping the error */
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyObject *released = PyObject_CallMethodNoArgs(lock, s_release);
    if (released == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        goto done;
    }
    Py_DECREF(released);
    PyErr_Restore(type, value, traceback);
    if (outcome != -2)
        result = Py_NewRef(Py_None);
done:
    Py_XDECREF(closed);
    Py_XDECREF(lock);
    Py_DECREF(data);
    Py_DECREF(pending);
    return result;
}

/* setup_on_event(names): what on_event works with (native.py, at import) */
PyObject *
_tapeviz_setup_on_event(PyObject *self, PyObject *names)
{
    static const char *keys[] = {"make_plan", "python_on_event", "built_payload",
                                 "build_errors", "pending_slot"};
    PyObject *got[5];
    if (!PyDict_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "setup_on_event(names: dict)");
        return NULL;
    }
    for (int i = 0; i < 5; i++) {
        got[i] = PyDict_GetItemString(names, keys[i]);
        if (got[i] == NULL) {
            PyErr_Format(PyExc_KeyError, "setup_on_event: no %s", keys[i]);
            return NULL;
        }
    }
    if (!Py_IS_TYPE(got[4], &PyMemberDescr_Type) ||
            ((PyMemberDescrObject *)got[4])->d_member->type != T_OBJECT_EX) {
        PyErr_SetString(PyExc_TypeError, "setup_on_event: pending_slot is not an object slot");
        return NULL;
    }
    if (s_failed == NULL) {
        s_failed = PyUnicode_InternFromString("_failed");
        s_lock = PyUnicode_InternFromString("_lock");
        s_closed = PyUnicode_InternFromString("closed");
        s_acquire = PyUnicode_InternFromString("acquire");
        s_release = PyUnicode_InternFromString("release");
        s_write_locked = PyUnicode_InternFromString("_write_locked");
        s_kind = PyUnicode_InternFromString("kind");
        if (PyErr_Occurred())
            return NULL;
    }
    Py_XSETREF(plans, PyDict_New());
    Py_XSETREF(make_plan, Py_NewRef(got[0]));
    Py_XSETREF(python_on_event, Py_NewRef(got[1]));
    Py_XSETREF(built_payload, Py_NewRef(got[2]));
    Py_XSETREF(build_errors, Py_NewRef(got[3]));
    Py_XSETREF(pending_slot, (PyMemberDescrObject *)Py_NewRef(got[4]));
    if (plans == NULL)
        return NULL;
    Py_RETURN_NONE;
}
