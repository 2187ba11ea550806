# cython: language_level=3, boundscheck=False, cdivision=True
"""Compiled kernels and the native Needle 2 engine (C sources in kernels/src).

The ISA path (AVX2/AVX-VNNI on x86-64, NEON with or without dot product on aarch64, portable C)
is chosen when a kernel or engine is created, from what the CPU reports at run time.
"""

import os

import numpy as np

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset


cdef extern from "src/nd_common.h":
    ctypedef struct nd_cq_t:
        int rows, cols, in_pad, groups, row_bytes, bits, group, fast, cbits
        float cbscale
    ctypedef struct nd_act_t:
        int T, in_pad, groups, cbits
        float *xr
        int8_t *xq
        float *xs
        int32_t *xsum
    ctypedef struct nd_isa_t:
        const char *name
        void (*fwht)(float *x, int n) noexcept nogil
        void (*mv_f32)(const nd_cq_t *m, const float *xr, float *y, int r0, int r1) noexcept nogil
        void (*mv_i8)(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1) noexcept nogil
        void (*mm_f32)(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                       float *scratch) noexcept nogil
        void (*mm_i8)(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                      uint8_t *scratch) noexcept nogil
        double (*peak_i8)(long iters) noexcept nogil
        void (*qk_blk)(const int8_t *q, int ldq, int rows, const int8_t *K, int a, int b,
                       int hd, int32_t *out, int ldo) noexcept nogil
        void (*attn_v_blk)(int32_t *acc, const int8_t *V, int a, int b, const int16_t *w, int ldw,
                           int rows, int hd, int init) noexcept nogil
    const nd_isa_t *nd_isa_select(const char *force) noexcept nogil
    const char *nd_isa_available() noexcept nogil
    int nd_hdp(int hd) noexcept nogil
    size_t nd_k8_at(int s, int j, int hd) noexcept nogil
    size_t nd_v8_at(int s, int j, int hd) noexcept nogil
    uint64_t nd_read_probe(const void *p, size_t n) noexcept nogil
    void nd_cq_init(nd_cq_t *m, const uint8_t *codes, const uint16_t *norms, int rows, int cols,
                    int bits, int group, const float *codebook) noexcept nogil
    void nd_act_prepare(const nd_isa_t *isa, const nd_cq_t *m, nd_act_t *a, const float *x,
                        int T, int ldx, int int8) noexcept nogil


cdef extern from "src/nd_engine.h":
    ctypedef struct nd_layer_w:
        nd_cq_t q, k, v, g, o
        const float *norm_in
        const float *q_norm
        const float *k_norm
        const float *post_norm
        const float *pre_hada
        const float *d1
        const float *d2
        const float *d3
        float attn_gate
    ctypedef struct nd_engram_w:
        nd_cq_t tables, key, value
        const float *taps
        long long tab_codes_off, tab_norms_off
    ctypedef struct nd_model_t:
        int vocab, d, H, KV, L, hd, hada_n, lanes
        int slots, sub_dim, ntables, conv_taps, dil, norders, nsites
        int orders[4]
        int sites[4]
        float rope_theta
        nd_cq_t emb, phi_pre, phi_post, phi_res
        const float *a_pre
        const float *a_post
        const float *a_res
        const float *b_pre
        const float *b_post
        const float *b_res
        const float *final_norm
        nd_layer_w *layers
        nd_engram_w eng[4]
        int fd
        long long emb_codes_off, emb_norms_off
    ctypedef struct nd_engine_t:
        pass
    ctypedef struct nd_pool_t:
        int P, d
        const float *probes
        float scale
        double *m
        double *den
        double *acc
    void nd_engine_set_pool(nd_engine_t *e, const nd_pool_t *pool) noexcept nogil
    enum:
        ND_OK
        ND_ERR_ARG
        ND_ERR_NOMEM
        ND_ERR_BUDGET
        ND_MAX_POSITIONS
    nd_engine_t *nd_engine_new(const nd_model_t *m, const char *isa, int int8, int window,
                               int sinks, int max_sinks, int capacity, int tmax,
                               int threads, size_t budget, int *err,
                               size_t *need) noexcept nogil
    int nd_engine_set_sinks(nd_engine_t *e, int sinks) noexcept nogil
    int nd_engine_sinks(const nd_engine_t *e) noexcept nogil
    int nd_engine_max_sinks(const nd_engine_t *e) noexcept nogil
    void nd_sinkhorn(float A[4][4], int n, int force_log) noexcept nogil
    void nd_model_drop_tables(const nd_model_t *m) noexcept nogil
    void nd_engine_free(nd_engine_t *e) noexcept nogil
    void nd_engine_reset(nd_engine_t *e) noexcept nogil
    const char *nd_engine_isa(const nd_engine_t *e) noexcept nogil
    int nd_engine_pos(const nd_engine_t *e) noexcept nogil
    size_t nd_engine_bytes(const nd_engine_t *e) noexcept nogil
    int nd_engine_forward(nd_engine_t *e, const int32_t *ids, int n, float *logits, int mode,
                          const int32_t *cand, int ncand, float *cells) noexcept nogil
    size_t nd_state_size(const nd_engine_t *e) noexcept nogil
    size_t nd_state_size_ex(const nd_engine_t *e, int keep_sinks) noexcept nogil
    size_t nd_state_save_ex(const nd_engine_t *e, void *buf, size_t cap, int keep_sinks) noexcept nogil
    size_t nd_state_save(const nd_engine_t *e, void *buf, size_t cap) noexcept nogil
    int nd_state_load(nd_engine_t *e, const void *buf, size_t n) noexcept nogil
    void nd_engine_timers(const nd_engine_t *e, double *out, int n) noexcept nogil


cdef const nd_isa_t *_isa(force) except NULL:
    cdef bytes f = (force or "").encode()
    cdef const nd_isa_t *isa = nd_isa_select(f)
    if isa == NULL:
        raise ValueError(f"kernel path {force!r} is not available on this CPU")
    return isa


def isa_name(force: str | None = None) -> str:
    """The kernel path chosen at run time for this CPU (or `force`, if it is usable here)."""
    return _isa(force).name.decode()


def isa_paths() -> list[str]:
    """Every kernel path this CPU can run, best first."""
    return nd_isa_available().decode().split(",")


def fwht(x, force: str | None = None):
    """Orthonormal Walsh-Hadamard transform along the last axis (FP32), like `kernels.cq.fwht`."""
    a = np.array(x, dtype=np.float32, copy=True, order="C")
    n = a.shape[a.ndim - 1]
    if n < 1 or n & (n - 1):
        raise ValueError(f"FWHT length must be a power of two, got {n}")
    cdef float[:, ::1] y = a.reshape(-1, n)
    cdef const nd_isa_t *isa = _isa(force)
    cdef Py_ssize_t i, rows = y.shape[0]
    cdef int ni = n
    if rows == 0:
        return a
    cdef float *p = &y[0, 0]
    with nogil:
        for i in range(rows):
            isa.fwht(p + i * ni, ni)
    return a


def read_once(buf) -> int:
    """Read every cache line of a uint8 buffer once, without the GIL (the concurrent read probe
    of the benchmark runs one per thread); returns a checksum so the reads are not elided."""
    cdef const uint8_t[::1] b = buf
    cdef size_t n = b.shape[0]
    cdef uint64_t sink = 0
    if n < 64:
        raise ValueError("read_once needs at least 64 bytes")
    with nogil:
        sink = nd_read_probe(&b[0], n)
    return sink


def read_bandwidth(nbytes: int = 64 << 20, repeats: int = 5) -> float:
    """Best single-thread read bandwidth (bytes/s) over a buffer of `nbytes` (benchmark report)."""
    import time

    buf = np.ones(max(64, nbytes // 64 * 64), np.uint8)
    best = 0.0
    for _ in range(repeats + 1):
        t0 = time.perf_counter()
        read_once(buf)
        best = max(best, buf.size / (time.perf_counter() - t0))
    return best


def int8_peak(iters: int = 2_000_000, force: str | None = None) -> tuple[float, float]:
    """Run the chosen path's int8 multiply-accumulate loop; returns (MACs done, seconds)."""
    import time

    cdef const nd_isa_t *isa = _isa(force)
    cdef long n = iters
    cdef double macs
    t0 = time.perf_counter()
    with nogil:
        macs = isa.peak_i8(n)
    return macs, time.perf_counter() - t0


def kv_blocks(keys, values):
    """Int8 rows `[n, hd]` of K and V laid out as the engine's cache regions (tests)."""
    ka = np.ascontiguousarray(keys, dtype=np.int8)
    va = np.ascontiguousarray(values, dtype=np.int8)
    if ka.ndim != 2 or ka.shape != va.shape:
        raise ValueError("keys and values must both be [n, hd]")
    cdef int n = ka.shape[0], hd = ka.shape[1], s, j
    cdef int nr = (n + 7) & ~7
    kb = np.zeros(nr * nd_hdp(hd), np.int8)
    vb = np.zeros(nr * hd, np.int8)
    cdef int8_t[::1] kbv = kb
    cdef int8_t[::1] vbv = vb
    cdef const int8_t[:, ::1] kv = ka
    cdef const int8_t[:, ::1] vv = va
    for s in range(n):
        for j in range(hd):
            kbv[nd_k8_at(s, j, hd)] = kv[s, j]
            vbv[nd_v8_at(s, j, hd)] = vv[s, j]
    return kb, vb


def qk_blk(q, kblocks, int a, int b, int hd, force: str | None = None):
    """Exact int32 dots `[rows, b - a]` of int8 queries `[rows, hd]` with the keys of slots
    a..b-1 of a blocked K region (`kv_blocks`), by the chosen path (tests)."""
    qa = np.ascontiguousarray(q, dtype=np.int8)
    if qa.ndim != 2 or qa.shape[1] != hd or not 0 <= a <= b:
        raise ValueError("q must be [rows, hd] and 0 <= a <= b")
    cdef int hdp = nd_hdp(hd), rows = qa.shape[0]
    qp = np.zeros((rows, hdp), np.int8)
    qp[:, :hd] = qa
    kb = np.ascontiguousarray(kblocks, dtype=np.int8)
    if kb.size < ((b + 7) >> 3) * 8 * hdp:
        raise ValueError("the K region is shorter than the slots asked for")
    cdef const nd_isa_t *isa = _isa(force)
    out = np.full((rows, b), -1, np.int32)
    cdef const int8_t[:, ::1] qv = qp
    cdef const int8_t[::1] kv = kb
    cdef int32_t[:, ::1] ov = out
    if rows and b > a:
        with nogil:
            isa.qk_blk(&qv[0, 0], hdp, rows, &kv[0], a, b, hd, &ov[0, 0], b)
    return out[:, a:]


def attn_v_blk(w, vblocks, int a, int b, int hd, acc=None, force: str | None = None):
    """Exact int32 sums `acc[r] + sum_s w[r, s - a] * v_s` over the slots a..b-1 of a V region
    (`kv_blocks`) with int16 weights `[rows, b - a]`, by the chosen path (tests)."""
    wa = np.ascontiguousarray(w, dtype=np.int16)
    if wa.ndim != 2 or wa.shape[1] != b - a or not 0 <= a <= b:
        raise ValueError("w must be [rows, b - a]")
    vb = np.ascontiguousarray(vblocks, dtype=np.int8)
    if vb.size < ((b + 1) >> 1) * 2 * hd:
        raise ValueError("the V region is shorter than the slots asked for")
    cdef int rows = wa.shape[0]
    cdef bint init = acc is None
    out = np.zeros((rows, hd), np.int32) if init else np.array(acc, dtype=np.int32, copy=True)
    cdef const nd_isa_t *isa = _isa(force)
    cdef const int16_t[:, ::1] wv = wa if wa.size else np.zeros((rows, 1), np.int16)
    cdef const int8_t[::1] vv = vb
    cdef int32_t[:, ::1] ov = out
    if rows:
        with nogil:
            isa.attn_v_blk(&ov[0, 0], &vv[0], a, b, &wv[0, 0], wv.shape[1], rows, hd, init)
    return out


def sinkhorn(A, force_log: bool = False):
    """The engine's Sinkhorn projection of an n x n (n <= 4) matrix of logits (tests)."""
    a = np.ascontiguousarray(A, dtype=np.float32)
    cdef int n = a.shape[0]
    if a.ndim != 2 or a.shape[1] != n or n < 1 or n > 4:
        raise ValueError("sinkhorn takes an n x n matrix, n <= 4")
    cdef float buf[4][4]
    cdef int i, j
    for i in range(n):
        for j in range(n):
            buf[i][j] = a[i, j]
    nd_sinkhorn(buf, n, force_log)
    out = np.zeros((n, n), np.float32)
    for i in range(n):
        for j in range(n):
            out[i, j] = buf[i][j]
    return out


cdef void _cq_from_view(nd_cq_t *m, view, list keep) except *:
    codes = np.ascontiguousarray(view.codes)
    norms = np.ascontiguousarray(view.norms).view(np.uint16)
    cb = np.ascontiguousarray(view.codebook, dtype=np.float32)
    keep.extend((codes, norms, cb))
    cdef const uint8_t[:, ::1] c = codes
    cdef const uint16_t[:, ::1] n = norms
    cdef const float[::1] b = cb
    nd_cq_init(m, &c[0, 0], &n[0, 0], view.rows, view.cols, view.bits, view.group, &b[0])


cdef class CQKernel:
    """One CQ matrix over its stored bytes, with the compiled products (tests, benchmarks)."""

    cdef nd_cq_t m
    cdef list keep
    cdef readonly int rows, cols

    def __init__(self, view) -> None:
        self.keep = []
        _cq_from_view(&self.m, view, self.keep)
        self.rows = self.m.rows
        self.cols = self.m.cols

    @property
    def fast(self) -> bool:
        return bool(self.m.fast)

    def prepare(self, x, mode: str = "int8", force: str | None = None):
        """The activation the kernels consume: (rotated FP32, int8 permuted, scales, sums)."""
        X = np.ascontiguousarray(np.atleast_2d(x), dtype=np.float32)
        T = X.shape[0]
        xr = np.zeros((T, self.m.in_pad), np.float32)
        xq = np.zeros((T, self.m.in_pad), np.int8)
        xs = np.zeros((T, self.m.groups), np.float32)
        xsum = np.zeros((T, self.m.groups), np.int32)
        self._prep(X, xr, xq, xs, xsum, mode == "int8", force)
        return xr, xq, xs, xsum

    cdef _prep(self, X, xr, xq, xs, xsum, bint int8, force):
        cdef const float[:, ::1] xv = X
        cdef float[:, ::1] r = xr
        cdef int8_t[:, ::1] q = xq
        cdef float[:, ::1] s = xs
        cdef int32_t[:, ::1] su = xsum
        cdef nd_act_t a
        a.xr = &r[0, 0]
        a.xq = &q[0, 0]
        a.xs = &s[0, 0]
        a.xsum = &su[0, 0]
        nd_act_prepare(_isa(force), &self.m, &a, &xv[0, 0], xv.shape[0], xv.shape[1], int8)

    def matmul(self, x, mode: str = "fp32", force: str | None = None, rows=None):
        """`x @ W.T` for x `[T, cols]` (or `[cols]`): T == 1 uses the matrix-vector kernel."""
        if mode not in ("fp32", "int8"):
            raise ValueError(f"mode must be fp32 or int8, got {mode!r}")
        x = np.asarray(x, dtype=np.float32)
        squeeze = x.ndim == 1
        X = np.ascontiguousarray(np.atleast_2d(x))
        if X.shape[1] != self.cols:
            raise ValueError(f"x has {X.shape[1]} columns, the matrix {self.cols}")
        T = X.shape[0]
        xr, xq, xs, xsum = self.prepare(X, mode, force)
        cdef int r0 = 0, r1 = self.m.rows
        if rows is not None:
            r0, r1 = rows
        out = np.zeros((T, self.m.rows), np.float32)
        cdef float[:, ::1] o = out
        cdef float[:, ::1] r = xr
        cdef int8_t[:, ::1] q = xq
        cdef float[:, ::1] s = xs
        cdef int32_t[:, ::1] su = xsum
        cdef nd_act_t a
        a.T = T
        a.in_pad = self.m.in_pad
        a.groups = self.m.groups
        a.cbits = self.m.cbits
        a.xr = &r[0, 0]
        a.xq = &q[0, 0]
        a.xs = &s[0, 0]
        a.xsum = &su[0, 0]
        cdef const nd_isa_t *isa = _isa(force)
        cdef bint i8 = mode == "int8" and self.m.fast
        cdef int ldy = self.m.rows
        with nogil:
            if T == 1:
                if i8:
                    isa.mv_i8(&self.m, &a, &o[0, 0], r0, r1)
                else:
                    isa.mv_f32(&self.m, &r[0, 0], &o[0, 0], r0, r1)
            elif i8:
                isa.mm_i8(&self.m, &a, &o[0, 0], ldy, r0, r1, NULL)
            else:
                isa.mm_f32(&self.m, &a, &o[0, 0], ldy, r0, r1, NULL)
        return out[0] if squeeze else out


def _same_file(cf) -> bool:
    """Whether cf.path names the very bytes cf maps (same size and tables' bytes)."""
    try:
        path = cf.path
        if not path or not os.path.isfile(path) or os.path.getsize(path) != len(cf.buffer):
            return False
        # header and directory: pages the reader has already touched
        n = min(8192, len(cf.buffer))
        with open(path, "rb") as f:
            return f.read(n) == bytes(memoryview(cf.buffer)[:n])
    except (OSError, AttributeError, KeyError, TypeError, ValueError):
        return False


cdef class _Model:
    """The C view of a model: CQ tensors point into the file's pages; small vectors as FP32."""

    cdef nd_model_t m
    cdef nd_layer_w *layers
    cdef list keep
    cdef object cf
    cdef int fd

    def __init__(self, cf, bint pread_tables=True) -> None:
        cdef nd_model_t *m
        cdef nd_layer_w *lw
        g = cf.geometry
        self.cf = cf
        self.keep = []
        self.fd = -1
        memset(&self.m, 0, sizeof(nd_model_t))
        m = &self.m
        m.fd = -1
        m.vocab, m.d, m.H, m.KV = g.vocab, g.d_model, g.num_heads, g.num_kv_heads
        m.L, m.hd, m.hada_n, m.lanes = g.num_layers, g.head_dim, g.hada_n, g.mhc_lanes
        if g.mhc_lanes > 4 or len(g.engram_sites) > 4:
            raise ValueError("the native engine supports at most 4 mHC lanes and 4 engram sites")
        m.slots, m.sub_dim, m.ntables = g.engram_slots, g.engram_sub_dim, g.num_engram_tables
        m.conv_taps, m.dil = g.engram_conv_taps, g.engram_conv_dilation
        m.norders, m.nsites = len(g.engram_orders), len(g.engram_sites)
        for i, o in enumerate(g.engram_orders):
            m.orders[i] = o
        for i, s in enumerate(g.engram_sites):
            m.sites[i] = s
        m.rope_theta = g.rope_theta
        _cq_from_view(&m.emb, cf.cq("embedding"), self.keep)
        _cq_from_view(&m.phi_pre, cf.cq("mhc_phi_pre"), self.keep)
        _cq_from_view(&m.phi_post, cf.cq("mhc_phi_post"), self.keep)
        _cq_from_view(&m.phi_res, cf.cq("mhc_phi_res"), self.keep)
        m.a_pre = self._vec(cf, "mhc_a_pre")
        m.a_post = self._vec(cf, "mhc_a_post")
        m.a_res = self._vec(cf, "mhc_a_res")
        m.b_pre = self._vec(cf, "mhc_b_pre")
        m.b_post = self._vec(cf, "mhc_b_post")
        m.b_res = self._vec(cf, "mhc_b_res")
        m.final_norm = self._vec(cf, "final_norm")
        self.layers = <nd_layer_w *>malloc(sizeof(nd_layer_w) * g.num_layers)
        if self.layers == NULL:
            raise MemoryError()
        m.layers = self.layers
        for l in range(g.num_layers):
            p = f"layer{l:02d}."
            lw = &self.layers[l]
            _cq_from_view(&lw.q, cf.cq(p + "q_proj"), self.keep)
            _cq_from_view(&lw.k, cf.cq(p + "k_proj"), self.keep)
            _cq_from_view(&lw.v, cf.cq(p + "v_proj"), self.keep)
            _cq_from_view(&lw.g, cf.cq(p + "gate_proj"), self.keep)
            _cq_from_view(&lw.o, cf.cq(p + "out_proj"), self.keep)
            lw.norm_in = self._vec(cf, p + "norm_in")
            lw.q_norm = self._vec(cf, p + "q_norm")
            lw.k_norm = self._vec(cf, p + "k_norm")
            lw.post_norm = self._vec(cf, p + "post_norm")
            lw.pre_hada = self._vec(cf, p + "pre_hada")
            lw.d1 = self._vec(cf, p + "d1")
            lw.d2 = self._vec(cf, p + "d2")
            lw.d3 = self._vec(cf, p + "d3")
            lw.attn_gate = float(cf.f32(p + "attn_gate").reshape(-1)[0])
        for s in range(len(g.engram_sites)):
            p = f"engram{s}."
            _cq_from_view(&m.eng[s].tables, cf.cq(p + "tables"), self.keep)
            _cq_from_view(&m.eng[s].key, cf.cq(p + "key_proj"), self.keep)
            _cq_from_view(&m.eng[s].value, cf.cq(p + "value_proj"), self.keep)
            m.eng[s].taps = self._vec(cf, p + "taps")
            t = cf.info(p + "tables")
            m.eng[s].tab_codes_off = t.offset
            m.eng[s].tab_norms_off = t.offset + m.eng[s].tables.rows * m.eng[s].tables.row_bytes
        t = cf.info("embedding")
        m.emb_codes_off = t.offset
        m.emb_norms_off = t.offset + m.emb.rows * m.emb.row_bytes
        if pread_tables and _same_file(cf):
            # the gathered engram table rows and the embedding rows of input tokens and small
            # candidate sets come from the file with pread (a few rows per token), so those
            # pages stay out of this process's resident memory
            self.fd = os.open(cf.path, os.O_RDONLY)
            m.fd = self.fd
            nd_model_drop_tables(m)

    cdef const float *_vec(self, cf, name) except NULL:
        a = np.ascontiguousarray(cf.f32(name), dtype=np.float32).reshape(-1)
        self.keep.append(a)
        cdef const float[::1] v = a
        return &v[0]

    def __dealloc__(self):
        free(self.layers)
        if self.fd >= 0:
            os.close(self.fd)


cdef class _Engine:
    """Owns one `nd_engine_t`: KV cache, engram history and every buffer a step needs."""

    cdef nd_engine_t *e
    cdef _Model model
    cdef readonly int vocab, d, L, tmax
    cdef object _pool_refs  # keeps the pooled arrays alive while the engine writes into them

    def __init__(self, _Model model, force, bint int8, window, sinks, capacity, tmax, threads,
                 max_sinks=-1, budget=0) -> None:
        """`budget`: the most bytes the buffers may take (0: no limit); MemoryError beyond it,
        or when an allocation fails; ValueError for settings the engine cannot run."""
        self.model = model
        cdef bytes f = (force or "").encode()
        cdef int err = ND_OK
        cdef size_t need = 0
        if max_sinks < sinks:
            max_sinks = sinks
        sizes = {"window": window, "sinks": sinks, "max_sinks": max_sinks, "chunk": tmax,
                 "threads": threads}
        if window <= 0:
            sizes["capacity"] = capacity
        for name, v in sizes.items():
            if not 0 <= v <= ND_MAX_POSITIONS:
                raise ValueError(f"{name} must be 0..{ND_MAX_POSITIONS}, got {v}")
        if not 0 <= budget < 2**63:
            raise ValueError(f"budget must be a byte count, got {budget}")
        self.e = nd_engine_new(&model.m, f, int8, window, sinks, max_sinks, capacity, tmax,
                               threads, budget, &err, &need)
        if self.e == NULL:
            what = (f"window {window}, sinks up to {max_sinks}, capacity {capacity}, "
                    f"{threads} threads")
            if err == ND_ERR_BUDGET:
                raise MemoryError(
                    f"the native engine's buffers would take {need / 2**20:.1f} MiB, over its "
                    f"{budget / 2**20:.0f} MiB budget ({what})")
            if err == ND_ERR_NOMEM:
                raise MemoryError(
                    f"cannot allocate the native engine's {need / 2**20:.1f} MiB ({what})")
            raise ValueError(
                f"the native engine cannot run this model with these settings (kernel path "
                f"{force!r}, {what})")
        self.vocab = model.m.vocab
        self.d = model.m.d
        self.L = model.m.L
        self.tmax = tmax

    def __dealloc__(self):
        if self.e != NULL:
            nd_engine_free(self.e)

    @property
    def isa(self) -> str:
        return nd_engine_isa(self.e).decode()

    @property
    def pos(self) -> int:
        return nd_engine_pos(self.e)

    @property
    def nbytes(self) -> int:
        return nd_engine_bytes(self.e)

    @property
    def sinks(self) -> int:
        return nd_engine_sinks(self.e)

    @property
    def max_sinks(self) -> int:
        return nd_engine_max_sinks(self.e)

    def reset(self, sinks=None) -> None:
        """Back to position 0; `sinks` (<= max_sinks) pinned positions from now on if given."""
        if sinks is not None:
            if nd_engine_set_sinks(self.e, sinks) != 0:
                raise ValueError(f"sinks must be 0..{nd_engine_max_sinks(self.e)}, got {sinks}")
        nd_engine_reset(self.e)

    def set_pool(self, probes=None, float scale=0.0, m=None, den=None, acc=None) -> None:
        """Pool every cell of the tokens fed from now on into (m, den, acc), updated in place
        (see nd_pool_t); no arguments: stop pooling."""
        cdef nd_pool_t p
        cdef const float[:, ::1] pv
        cdef double[::1] mv, dv
        cdef double[:, ::1] av
        if probes is None:
            nd_engine_set_pool(self.e, NULL)
            self._pool_refs = None
            return
        pv = probes
        mv = m
        dv = den
        av = acc
        if not (pv.shape[0] == mv.shape[0] == dv.shape[0] == av.shape[0]) or (
            pv.shape[1] != self.d or av.shape[1] != self.d
        ):
            raise ValueError("probe pool arrays do not match the model width")
        p.P = pv.shape[0]
        p.d = pv.shape[1]
        p.probes = &pv[0, 0]
        p.scale = scale
        p.m = &mv[0]
        p.den = &dv[0]
        p.acc = &av[0, 0]
        nd_engine_set_pool(self.e, &p)
        self._pool_refs = (probes, m, den, acc)

    def timers(self):
        cdef double t[8]
        nd_engine_timers(self.e, t, 8)
        return [t[i] for i in range(8)]

    def forward(self, const int32_t[::1] ids, float[::1] out, int mode, cand,
                cells=None) -> None:
        """Run ids; logits land in `out` (flat, preallocated by the caller)."""
        cdef const int32_t[::1] cv
        cdef const int32_t *cp = NULL
        cdef int nc = 0
        cdef float[::1] cl
        cdef float *clp = NULL
        cdef float *op = NULL
        if cand is not None:
            cv = cand
            nc = cv.shape[0]
            if nc:
                cp = &cv[0]
        if cells is not None:
            cl = cells
            clp = &cl[0]
        if out.shape[0]:
            op = &out[0]
        cdef int n = ids.shape[0]
        cdef int rc
        with nogil:
            rc = nd_engine_forward(self.e, &ids[0], n, op, mode, cp, nc, clp)
        if rc == -1:
            raise OverflowError("the KV cache is full (no window): reset or use a window")
        if rc != 0:
            raise ValueError(f"invalid arguments to the native forward (code {rc})")

    def save_state(self, bint keep_sinks=False) -> bytes:
        """The sequence state; with `keep_sinks` the sink slots are left out (restoring it is
        only valid while the engine's sink slots still hold the same prefix)."""
        cdef size_t n = nd_state_size_ex(self.e, keep_sinks)
        buf = bytearray(n)
        cdef unsigned char[::1] b = buf
        with nogil:
            nd_state_save_ex(self.e, &b[0], n, keep_sinks)
        return bytes(buf)

    def save_into(self, unsigned char[::1] b) -> int:
        """Copy the state into a preallocated buffer; returns its size (0 if it did not fit)."""
        cdef size_t got
        with nogil:
            got = nd_state_save(self.e, &b[0], b.shape[0])
        return got

    def state_size(self) -> int:
        return nd_state_size(self.e)

    def load_state(self, const unsigned char[::1] b, Py_ssize_t n=-1) -> None:
        cdef size_t sz = b.shape[0] if n < 0 else n
        cdef int rc
        with nogil:
            rc = nd_state_load(self.e, &b[0], sz)
        if rc != 0:
            raise ValueError("state does not match this engine (mode, window, sinks or model)")
