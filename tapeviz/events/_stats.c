/* `finite_stats(array)`: the stats of a large float array's summary in one pass, for
   summary.py's `_large_stats`. That one copies a float32 array to float64 and then reads it
   five times (min, max, sum, dot, count_nonzero): about 1.1 ns an element here, 70% of what
   recording adds to an MLP training step. This reads it once.

   finite_stats(array) -> (min, max, sum, sum of squares, zeros), or None when the array is
   not a C-contiguous native float32/float64 buffer, or holds a NaN, an Inf or a value whose
   square may overflow (|x| >= 1e150): `_large_stats`'s careful NumPy path then counts and
   scales. Sums are accumulated in float64 in a few independent lanes, so they can differ
   from NumPy's pairwise sums in the last bits, as two NumPy builds do. Min, max and the
   count of zeros (+0.0 and -0.0, as `count_nonzero`) are exact.

   NaN needs no test of its own: it never wins a min/max below (SSE's min keeps the running
   value when one operand is NaN), but it makes the sum of squares NaN, as an Inf makes it
   Inf; a non-finite sum of squares sends the array to the careful path. Below 1e150 the
   plain sum cannot overflow. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BIG 1e150
/* arrays this large are read with the GIL released (a live dashboard's server thread runs) */
#define RELEASE_AT (1 << 16)

typedef struct {
    double lo, hi, sum, sq;
    int64_t zeros;
} Stats;

/* The elements the vector loop left (all of them without SSE2), then the totals: the same
   for both element types, hence a macro. */
#define FINISH(p, i, n, lo, hi, sum, sq, zeros, out) do {                                  \
        double s4[4] = {0, 0, 0, 0}, q4[4] = {0, 0, 0, 0};                                  \
        for (; (i) < (n); (i)++) {                                                          \
            double x = (p)[i];                                                              \
            lo = x < lo ? x : lo;                                                           \
            hi = x > hi ? x : hi;                                                           \
            zeros += x == 0.0;                                                              \
            s4[(i) & 3] += x;                                                               \
            q4[(i) & 3] += x * x;                                                           \
        }                                                                                   \
        (out)->lo = lo;                                                                     \
        (out)->hi = hi;                                                                     \
        (out)->sum = sum + ((s4[0] + s4[1]) + (s4[2] + s4[3]));                             \
        (out)->sq = sq + ((q4[0] + q4[1]) + (q4[2] + q4[3]));                              \
        (out)->zeros = zeros;                                                               \
    } while (0)

static void
stats_f32(const float *p, Py_ssize_t n, Stats *out)
{
    Py_ssize_t i = 0;
    double lo = INFINITY, hi = -INFINITY, sum = 0.0, sq = 0.0;
    int64_t zeros = 0;
#if defined(__SSE2__)
    if (n >= 8) {
        __m128 vlo = _mm_set1_ps(INFINITY), vhi = _mm_set1_ps(-INFINITY), zero = _mm_setzero_ps();
        __m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
        __m128d q0 = s0, q1 = s0, q2 = s0, q3 = s0;
        while (i + 8 <= n) {
            /* the zero counts live in 32-bit lanes: folded into `zeros` after each 2^30 elements */
            Py_ssize_t stop = n - (n - i) % 8;
            if (stop - i > ((Py_ssize_t)1 << 30))
                stop = i + ((Py_ssize_t)1 << 30);
            __m128i zc = _mm_setzero_si128();
            for (; i < stop; i += 8) {
                __m128 a = _mm_loadu_ps(p + i), b = _mm_loadu_ps(p + i + 4);
                vlo = _mm_min_ps(a, _mm_min_ps(b, vlo));
                vhi = _mm_max_ps(a, _mm_max_ps(b, vhi));
                zc = _mm_sub_epi32(zc, _mm_castps_si128(_mm_cmpeq_ps(a, zero)));
                zc = _mm_sub_epi32(zc, _mm_castps_si128(_mm_cmpeq_ps(b, zero)));
                __m128d a0 = _mm_cvtps_pd(a), a1 = _mm_cvtps_pd(_mm_movehl_ps(a, a));
                __m128d b0 = _mm_cvtps_pd(b), b1 = _mm_cvtps_pd(_mm_movehl_ps(b, b));
                s0 = _mm_add_pd(s0, a0); s1 = _mm_add_pd(s1, a1);
                s2 = _mm_add_pd(s2, b0); s3 = _mm_add_pd(s3, b1);
                q0 = _mm_add_pd(q0, _mm_mul_pd(a0, a0)); q1 = _mm_add_pd(q1, _mm_mul_pd(a1, a1));
                q2 = _mm_add_pd(q2, _mm_mul_pd(b0, b0)); q3 = _mm_add_pd(q3, _mm_mul_pd(b1, b1));
            }
            int32_t z[4];
            _mm_storeu_si128((__m128i *)z, zc);
            zeros += (int64_t)z[0] + z[1] + z[2] + z[3];
        }
        float l[4], h[4];
        double s[2], q[2];
        _mm_storeu_ps(l, vlo);
        _mm_storeu_ps(h, vhi);
        for (int k = 0; k < 4; k++) {
            lo = l[k] < lo ? l[k] : lo;
            hi = h[k] > hi ? h[k] : hi;
        }
        _mm_storeu_pd(s, _mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)));
        _mm_storeu_pd(q, _mm_add_pd(_mm_add_pd(q0, q1), _mm_add_pd(q2, q3)));
        sum = s[0] + s[1];
        sq = q[0] + q[1];
    }
#endif
    FINISH(p, i, n, lo, hi, sum, sq, zeros, out);
}

static void
stats_f64(const double *p, Py_ssize_t n, Stats *out)
{
    Py_ssize_t i = 0;
    double lo = INFINITY, hi = -INFINITY, sum = 0.0, sq = 0.0;
    int64_t zeros = 0;
#if defined(__SSE2__)
    if (n >= 4) {
        __m128d vlo = _mm_set1_pd(INFINITY), vhi = _mm_set1_pd(-INFINITY), zero = _mm_setzero_pd();
        __m128d s0 = zero, s1 = zero, q0 = zero, q1 = zero;
        __m128i zc = _mm_setzero_si128();     /* 64-bit lanes: no overflow to fold */
        for (; i + 4 <= n; i += 4) {
            __m128d a = _mm_loadu_pd(p + i), b = _mm_loadu_pd(p + i + 2);
            vlo = _mm_min_pd(a, _mm_min_pd(b, vlo));
            vhi = _mm_max_pd(a, _mm_max_pd(b, vhi));
            zc = _mm_sub_epi64(zc, _mm_castpd_si128(_mm_cmpeq_pd(a, zero)));
            zc = _mm_sub_epi64(zc, _mm_castpd_si128(_mm_cmpeq_pd(b, zero)));
            s0 = _mm_add_pd(s0, a); s1 = _mm_add_pd(s1, b);
            q0 = _mm_add_pd(q0, _mm_mul_pd(a, a)); q1 = _mm_add_pd(q1, _mm_mul_pd(b, b));
        }
        double l[2], h[2], s[2], q[2];
        int64_t z[2];
        _mm_storeu_pd(l, vlo);
        _mm_storeu_pd(h, vhi);
        _mm_storeu_pd(s, _mm_add_pd(s0, s1));
        _mm_storeu_pd(q, _mm_add_pd(q0, q1));
        _mm_storeu_si128((__m128i *)z, zc);
        lo = l[0] < l[1] ? l[0] : l[1];
        hi = h[0] > h[1] ? h[0] : h[1];
        sum = s[0] + s[1];
        sq = q[0] + q[1];
        zeros = z[0] + z[1];
    }
#endif
    FINISH(p, i, n, lo, hi, sum, sq, zeros, out);
}

/* "f"/"d", optionally with the native byte order's prefix ('@', '=', or '<'/'>' when that
   is this machine's): 4 or 8, else 0 */
static int
native_float(const char *format, Py_ssize_t itemsize)
{
    if (format == NULL)
        return 0;
    char order = format[0];
#if PY_BIG_ENDIAN
    const char native = '>';
#else
    const char native = '<';
#endif
    if (order == '@' || order == '=' || order == native)
        format++;
    if (format[0] == '\0' || format[1] != '\0')
        return 0;
    if (format[0] == 'f' && itemsize == 4)
        return 4;
    if (format[0] == 'd' && itemsize == 8)
        return 8;
    return 0;
}

static PyObject *
finite_stats(PyObject *Py_UNUSED(self), PyObject *array)
{
    Py_buffer view;
    if (PyObject_GetBuffer(array, &view, PyBUF_RECORDS_RO) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_BufferError) &&
                !PyErr_ExceptionMatches(PyExc_TypeError))
            return NULL;
        PyErr_Clear();       /* not a buffer: NumPy's way */
        Py_RETURN_NONE;
    }
    /* strided (a transpose, a slice): NumPy's way, which copies it anyway */
    int width = PyBuffer_IsContiguous(&view, 'C') ? native_float(view.format, view.itemsize) : 0;
    Py_ssize_t n = width ? view.len / width : 0;
    if (n == 0) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    Stats s;
    int release = n >= RELEASE_AT;
    PyThreadState *saved = release ? PyEval_SaveThread() : NULL;
    if (width == 4)
        stats_f32((const float *)view.buf, n, &s);
    else
        stats_f64((const double *)view.buf, n, &s);
    if (release)
        PyEval_RestoreThread(saved);
    PyBuffer_Release(&view);
    if (!isfinite(s.sq) || !(s.lo > -BIG) || !(s.hi < BIG))
        Py_RETURN_NONE;
    return Py_BuildValue("(ddddL)", s.lo, s.hi, s.sum, s.sq, (long long)s.zeros);
}

static PyMethodDef methods[] = {
    {"finite_stats", finite_stats, METH_O,
     "finite_stats(array) -> (min, max, sum, sum of squares, zeros) or None"},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_stats", "A large float array's summary stats in one pass.", -1,
    methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__stats(void)
{
    PyObject *m = PyModule_Create(&module);
    /* which loop this build runs (tests build the plain one on purpose, as on ARM) */
#if defined(__SSE2__)
    int vectorized = 1;
#else
    int vectorized = 0;
#endif
    if (m != NULL && PyModule_AddIntConstant(m, "VECTORIZED", vectorized) < 0)
        Py_CLEAR(m);
    return m;
}
