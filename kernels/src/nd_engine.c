/* The Needle 2 forward pass in C: embedding, 4-lane mHC, attention over a sink + ring KV cache,
 * Hadamard MLP, engram, final norm and tied output projection. Everything is allocated when the
 * engine is created; a token step allocates nothing. */
#include "nd_engine.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#define ND_STATE_MAGIC 0x4E445332u /* "NDS2": head-major int8 K/V (state v1 "NDST" refused) */

/* ---------------------------------------------------------------------------------------- */
/* A small persistent thread pool: rows of one product are split into 8-row aligned ranges, so
 * every row is computed by exactly the same code whatever the thread count.
 *
 * A decode step hands out about ten jobs per layer, each a few microseconds long, so waking a
 * worker through a condition variable (tens of microseconds on a loaded board or a VM) would cost
 * more than the job. Workers therefore spin on the job counter for a while after each job, and
 * only then sleep on the condition variable; the caller likewise spins before it sleeps waiting
 * for the last part. Spinning ends after ND_SPIN_NS without work, so an idle daemon sleeps.
 * Sleeping and waking follow the store-then-check order on both sides (seq_cst atomics), so a
 * job or a completion is never missed. */

#define ND_SPIN_NS 200000L

#if defined(__x86_64__) || defined(__i386__)
#define nd_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define nd_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define nd_relax() ((void)0)
#endif

typedef void (*pool_fn)(void *ctx, int part, int nparts);

typedef struct pool_arg pool_arg;

typedef struct {
    int n;
    pthread_t th[16];
    pool_arg *args; /* the workers' arguments (freed with the pool) */
    pthread_mutex_t mu;
    pthread_cond_t cv, done;
    long gen;           /* job counter: a new value means a new job (atomic) */
    int pending;        /* worker parts of the current job not yet finished (atomic) */
    int sleepers;       /* workers waiting on cv (atomic) */
    int caller_asleep;  /* the caller waits on done (atomic) */
    int stop;
    int side;           /* the current job is a side job: workers only (see pool_post) */
    pool_fn fn;
    void *ctx;
} pool_t;

struct pool_arg {
    pool_t *p;
    int idx;
};

static long nd_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* spin i of a bounded wait (i counts from 1, *t0 starts at 0): a pause, and every 256 spins a
 * look at the clock and a yield; 0 once ND_SPIN_NS have passed (then sleep instead) */
static int keep_spinning(long *t0, int i) {
    nd_relax();
    if (i & 255) return 1;
    const long t = nd_now_ns();
    if (!*t0) *t0 = t;
    else if (t - *t0 > ND_SPIN_NS) return 0;
    sched_yield(); /* more threads than free cores: let the one we wait for run */
    return 1;
}

static void *pool_worker(void *arg) {
    pool_arg *pa = arg;
    pool_t *p = pa->p;
    long seen = 0;
    for (;;) {
        long g, t0 = 0;
        for (int i = 1; (g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE)) == seen; i++)
            if (!keep_spinning(&t0, i)) break;
        if (g == seen) {
            pthread_mutex_lock(&p->mu);
            __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
            while (__atomic_load_n(&p->gen, __ATOMIC_SEQ_CST) == seen && !p->stop)
                pthread_cond_wait(&p->cv, &p->mu);
            __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
            pthread_mutex_unlock(&p->mu);
            g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
        }
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) return NULL;
        seen = g;
        /* fn, ctx and side were written before gen (release) */
        if (p->side) p->fn(p->ctx, pa->idx - 1, p->n - 1);
        else p->fn(p->ctx, pa->idx, p->n);
        if (__atomic_sub_fetch(&p->pending, 1, __ATOMIC_SEQ_CST) == 0 &&
            __atomic_load_n(&p->caller_asleep, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* wait until the workers have finished the job handed out last */
static void pool_join(pool_t *p) {
    if (!p) return;
    long t0 = 0;
    for (int i = 1; __atomic_load_n(&p->pending, __ATOMIC_ACQUIRE); i++)
        if (!keep_spinning(&t0, i)) break;
    if (__atomic_load_n(&p->pending, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&p->mu);
        __atomic_store_n(&p->caller_asleep, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&p->pending, __ATOMIC_SEQ_CST)) pthread_cond_wait(&p->done, &p->mu);
        __atomic_store_n(&p->caller_asleep, 0, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&p->mu);
    }
}

static void pool_start(pool_t *p, pool_fn fn, void *ctx, int side) {
    pool_join(p); /* a side job may still be running */
    p->fn = fn;
    p->ctx = ctx;
    p->side = side;
    __atomic_store_n(&p->pending, p->n - 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_SEQ_CST); /* publishes fn, ctx, side and pending */
    if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

static void pool_run(pool_t *p, pool_fn fn, void *ctx, int parts) {
    if (!p || p->n <= 1 || parts <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pool_start(p, fn, ctx, 0);
    fn(ctx, 0, p->n);
    pool_join(p);
}

/* A side job: the workers run fn as parts 0..n-2 while the caller goes on; whatever touches the
 * job's data, and the next job, waits for it (pool_join, which pool_run and pool_post call
 * first). Without workers it runs here and now. */
static void pool_post(pool_t *p, pool_fn fn, void *ctx) {
    if (!p || p->n <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pool_start(p, fn, ctx, 1);
}

/* n threads in all: the caller is part 0, n - 1 workers; NULL when n < 2 or out of memory */
static pool_t *pool_new(int n) {
    if (n < 2) return NULL;
    if (n > 16) n = 16;
    pool_t *p = calloc(1, sizeof(pool_t));
    pool_arg *args = calloc((size_t)n, sizeof(pool_arg));
    if (!p || !args) {
        free(p);
        free(args);
        return NULL;
    }
    p->n = n;
    p->args = args;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 1; i < n; i++) {
        args[i].p = p;
        args[i].idx = i;
        if (pthread_create(&p->th[i], NULL, pool_worker, &args[i])) {
            p->n = i; /* run with the workers that did start */
            break;
        }
    }
    return p;
}

static void pool_free(pool_t *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    __atomic_store_n(&p->stop, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&p->gen, 1, __ATOMIC_SEQ_CST); /* a spinning worker sees it too */
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->n; i++) pthread_join(p->th[i], NULL);
    free(p->args);
    free(p);
}

/* ---------------------------------------------------------------------------------------- */

/* per-thread attention scratch: ND_ATT_GROUP queries x (H / KV) heads rows */
typedef struct {
    float *scores;  /* [rows][cap], in position order */
    int32_t *idot;  /* [rows][capr], by slot (int8 mode) */
    int8_t *q8;     /* [rows][hdp] */
    float *obuf;    /* [rows][hd] */
    float *vsp;     /* [cap]: V scales in position order (int8 mode) */
} nd_scratch_t;

struct nd_engine {
    const nd_model_t *m;
    const nd_isa_t *isa;
    const nd_vops_t *v;
    /* sinks: pinned positions now (<= max_sinks); the sink region holds max_sinks slots and the
     * ring of `window` slots follows it, so reset(sinks) never reallocates */
    int int8, window, sinks, max_sinks, cap, tmax, pos, nthreads;
    size_t bytes, budget; /* allocated (or, after a failure, that would be), and the limit */
    int err;              /* the first allocation failure while building (ND_ERR_*) */
    pool_t *pool;
    /* KV cache: FP32 [L][cap][KV*hd] in the exact mode; in int8 mode one region of capr slots
     * per (layer, KV head) in the blocked layouts of nd_k8_at / nd_v8_at, and the per-slot
     * scales by (layer, KV head) as well (see k8_region) */
    float *kf, *vf;
    int8_t *k8, *v8;
    float *ks, *vs; /* [L][KV][capr] */
    int capr;       /* cap rounded up to whole 8-slot blocks */
    /* engram state per site: v' ring of the last (taps-1)*dil+1 positions, token history */
    float *vhist; /* [nsites][R][d] */
    int R;
    int32_t tokhist[8];
    /* per-chunk buffers */
    float *x0, *X, *nx, *hp, *hq, *hr, *u, *bx, *blk, *h, *qb, *kb, *vb, *gb, *att, *ao, *z;
    float *e, *ek, *ev, *xf, *cosb, *sinb, *tmp, *freq;
    int8_t *kc8, *vc8;      /* the chunk's int8 K and V, [T][KV][hdp] and [T][KV][hd] */
    float *ksc, *vsc;       /* their scales, [T][KV] */
    const void **kp, **vp;  /* FP32 mode, per query: key/value pointers in position order */
    nd_scratch_t scr[16];   /* one per thread */
    nd_pool_t probe;        /* probe pooling of every cell (probe.P == 0: off) */
    float *cellbuf;         /* the chunk's cells of one layer, when pooling without a cells
                             * buffer */
    struct {
        const float *x;     /* T cells, ld apart */
        int T, ld;
    } pj;                   /* the probe pooling handed to the workers (pool_cells) */
    float *full;            /* [vocab] logits of one token, for large candidate sets */
    int att_group;          /* queries per shared pass over the keys */
    nd_act_t act;
    int32_t *tokwin;
    double timers[8];
};

/* The int8 cache of layer l, KV head h: its K and V regions (slot s of K at nd_k8_at(s, j, hd),
 * of V at nd_v8_at(s, j, hd)) and its scales (one float per slot). A pass over one head's keys
 * reads one contiguous region. */
static inline size_t kv_head(const nd_engine_t *e, int l, int h) {
    return ((size_t)l * e->m->KV + h) * (size_t)e->capr;
}
static inline int8_t *k8_region(const nd_engine_t *e, int l, int h) {
    return e->k8 + kv_head(e, l, h) * nd_hdp(e->m->hd);
}
static inline int8_t *v8_region(const nd_engine_t *e, int l, int h) {
    return e->v8 + kv_head(e, l, h) * e->m->hd;
}

/* Row-wise copies between natural int8 rows and a slot of the blocked layouts (a token's K/V
 * entering the cache, and the portable state format, which stays row by row). */
static void k8_put(int8_t *K, int s, const int8_t *row, int hd) {
    const int hdp = nd_hdp(hd);
    for (int j = 0; j < hdp; j += 4) {
        int8_t c[4] = {0, 0, 0, 0};
        for (int i = 0; i < 4 && j + i < hd; i++) c[i] = row[j + i];
        memcpy(K + nd_k8_at(s, j, hd), c, 4);
    }
}
static void k8_get(const int8_t *K, int s, int8_t *row, int hd) {
    for (int j = 0; j < hd; j++) row[j] = K[nd_k8_at(s, j, hd)];
}
static void v8_put(int8_t *V, int s, const int8_t *row, int hd) {
    for (int j = 0; j < hd; j++) V[nd_v8_at(s, j, hd)] = row[j];
}
static void v8_get(const int8_t *V, int s, int8_t *row, int hd) {
    for (int j = 0; j < hd; j++) row[j] = V[nd_v8_at(s, j, hd)];
}

/* Every buffer goes through here. After the first failure (out of memory, or over the budget)
 * nothing more is allocated, but the sizes still add up, so the error can say what the whole
 * engine would have needed. */
static void *xalloc_aligned(nd_engine_t *e, size_t n, size_t align, int clear) {
    void *p = NULL;
    n = n ? (n + align - 1) & ~(align - 1) : align;
    if (!e->err && e->budget && (n > e->budget || e->bytes > e->budget - n))
        e->err = ND_ERR_BUDGET;
    if (!e->err && posix_memalign(&p, align, n)) {
        p = NULL;
        e->err = ND_ERR_NOMEM;
    }
    e->bytes += n;
    if (p && clear) memset(p, 0, n);
    return p;
}

static void *xalloc(nd_engine_t *e, size_t n) { return xalloc_aligned(e, n, 64, 1); }

/* large buffers that are always written before being read (the KV cache): not cleared, so the
 * pages of unused sink slots and of a ring not yet filled cost no resident memory */
static void *xalloc_lazy(nd_engine_t *e, size_t n) { return xalloc_aligned(e, n, 4096, 0); }

/* What the engine cannot run: shapes outside the kernels' reach, and sizes whose products would
 * overflow an int (the caller bounds the header; this keeps the C safe on its own). */
static int engine_args_ok(const nd_model_t *m, int window, int max_sinks, int capacity) {
    if (m->d < 1 || m->H < 1 || m->KV < 1 || m->L < 1 || m->hd < 2 || m->vocab < 1) return 0;
    if (m->lanes < 1 || m->lanes > 4 || m->nsites < 0 || m->nsites > 4) return 0;
    if (m->H % m->KV || m->H / m->KV > 16 || m->hada_n < m->d) return 0;
    if (window < 0 || window > ND_MAX_POSITIONS || max_sinks < 0 ||
        max_sinks > ND_MAX_POSITIONS - window)
        return 0;
    if (window == 0 && (capacity < 1 || capacity > ND_MAX_POSITIONS)) return 0;
    if (m->conv_taps < 0 || m->dil < 0) return 0;
    if (m->conv_taps > 1 && (int64_t)(m->conv_taps - 1) * m->dil >= ND_MAX_POSITIONS) return 0;
    if (m->nsites) {
        if (m->norders < 1 || m->norders > 4 || m->slots < 1 || m->sub_dim < 1 ||
            m->ntables < m->norders || m->conv_taps < 1)
            return 0;
        for (int i = 0; i < m->norders; i++)
            if (m->orders[i] < 1 || m->orders[i] > 8) return 0; /* tokwin keeps 8 tokens */
    }
    return 1;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int act_compat(const nd_cq_t *a, const nd_cq_t *b) {
    return a->in_pad == b->in_pad && a->group == b->group && a->cbits == b->cbits &&
           a->fast == b->fast && a->cbscale == b->cbscale;
}

/* Up to 4 products of one prepared activation as one job: their 8-row blocks are split over the
 * threads together, so the products hand work to the pool once, not once each (a decode step
 * makes ~10 hand-offs per layer, each a wake-up and a wait for the slowest part). Every row is
 * still computed by the same kernel, so the bits do not depend on the thread count. */
typedef struct {
    const nd_isa_t *isa;
    const nd_act_t *a;
    int int8, n;
    const nd_cq_t *m[4];
    float *y[4];
    int ldy[4], r0[4], r1[4];
    int nb[5]; /* product i owns blocks [nb[i], nb[i + 1]) of the job */
} mm_job;

/* Up to this many tokens, the int8 products run the single-token kernel once per token over each
 * block of ND_MV_ROWS rows (whose codes stay in L1 for the next token): the blocked kernel decodes
 * and transposes every weight group for a tile of 8 tokens whatever the count. Measured at the
 * release geometry with a 742-token prefix, a pass of T tokens (logits of each) against a
 * 1-token step: T = 2: 1.7-1.9x (blocked kernel: 2.5-2.8x), T = 3: 2.5x (2.8-3.1x), T = 4:
 * 3.3x (3.5x). The bits are the same either way. */
#ifndef ND_MV_TOKENS
#define ND_MV_TOKENS 4
#endif
#define ND_MV_ROWS 64

static void mv_each_token(const nd_isa_t *isa, const nd_cq_t *m, const nd_act_t *a, float *y,
                          int ldy, int r0, int r1) {
    nd_act_t one = *a;
    one.T = 1;
    for (int b = r0; b < r1; b += ND_MV_ROWS) {
        const int b1 = b + ND_MV_ROWS < r1 ? b + ND_MV_ROWS : r1;
        for (int t = 0; t < a->T; t++) {
            one.xr = a->xr + (size_t)t * a->in_pad;
            one.xq = a->xq + (size_t)t * a->in_pad;
            one.xs = a->xs + (size_t)t * a->groups;
            one.xsum = a->xsum + (size_t)t * a->groups;
            isa->mv_i8(m, &one, y + (size_t)t * ldy, b, b1);
        }
    }
}

static void mm_rows(const mm_job *j, int i, int r0, int r1) {
    const nd_isa_t *isa = j->isa;
    const nd_cq_t *m = j->m[i];
    if (j->int8 && m->fast) {
        if (j->a->T == 1)
            isa->mv_i8(m, j->a, j->y[i], r0, r1);
        else if (j->a->T <= ND_MV_TOKENS)
            mv_each_token(isa, m, j->a, j->y[i], j->ldy[i], r0, r1);
        else
            isa->mm_i8(m, j->a, j->y[i], j->ldy[i], r0, r1, NULL);
    } else {
        if (j->a->T == 1)
            isa->mv_f32(m, j->a->xr, j->y[i], r0, r1);
        else
            isa->mm_f32(m, j->a, j->y[i], j->ldy[i], r0, r1, NULL);
    }
}

static void mm_part(void *ctx, int part, int nparts) {
    const mm_job *j = ctx;
    const int nb = j->nb[j->n];
    const int b0 = (int)((long)nb * part / nparts), b1 = (int)((long)nb * (part + 1) / nparts);
    for (int i = 0; i < j->n; i++) {
        const int lo = b0 > j->nb[i] ? b0 : j->nb[i], hi = b1 < j->nb[i + 1] ? b1 : j->nb[i + 1];
        if (lo >= hi) continue;
        const int r0 = j->r0[i] + 8 * (lo - j->nb[i]);
        int r1 = j->r0[i] + 8 * (hi - j->nb[i]);
        if (r1 > j->r1[i]) r1 = j->r1[i];
        mm_rows(j, i, r0, r1);
    }
}

/* MACs below which a product runs on the calling thread alone */
#ifndef ND_MT_MIN_WORK
#define ND_MT_MIN_WORK 1e5
#endif

/* products i < n: y[i][t * ldy[i] + r] for rows [r0[i], r1[i]) of m[i] (y indexed by absolute
 * row), all of the activation prepared last */
static void matmul_n(nd_engine_t *e, int n, const nd_cq_t *const *m, float *const *y,
                     const int *ldy, const int *r0, const int *r1) {
    mm_job j = {e->isa, &e->act, e->int8, n, {0}, {0}, {0}, {0}, {0}, {0}};
    double work = 0;
    for (int i = 0; i < n; i++) {
        j.m[i] = m[i];
        j.y[i] = y[i];
        j.ldy[i] = ldy[i];
        j.r0[i] = r0[i];
        j.r1[i] = r1[i];
        j.nb[i + 1] = j.nb[i] + (r1[i] - r0[i] + 7) / 8;
        work += (double)(r1[i] - r0[i]) * m[i]->in_pad * e->act.T;
    }
    pool_run(e->pool, mm_part, &j, work >= ND_MT_MIN_WORK ? e->nthreads : 1);
}

/* y[t * ldy + r] for rows [r0, r1) of m (y is indexed by absolute row). */
static void matmul(nd_engine_t *e, const nd_cq_t *m, float *y, int ldy, int r0, int r1) {
    matmul_n(e, 1, &m, &y, &ldy, &r0, &r1);
}

static void prepare(nd_engine_t *e, const nd_cq_t *m, const float *x, int T, int ldx) {
    nd_act_prepare(e->isa, m, &e->act, x, T, ldx, e->int8);
}

/* n products of the same input x ([T][ldx]): prepared once and run as one job when their
 * activation layouts agree, else one by one (re-prepared where a layout changes) */
static void matmul_x(nd_engine_t *e, int n, const nd_cq_t *const *m, float *const *y,
                     const int *ldy, const int *r0, const int *r1, const float *x, int T,
                     int ldx) {
    prepare(e, m[0], x, T, ldx);
    int same = 1;
    for (int i = 1; i < n; i++) same &= act_compat(m[0], m[i]);
    if (same) {
        matmul_n(e, n, m, y, ldy, r0, r1);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (i && !act_compat(m[i - 1], m[i])) prepare(e, m[i], x, T, ldx);
        matmul_n(e, 1, m + i, y + i, ldy + i, r0 + i, r1 + i);
    }
}

/* Dense FP32 row of a CQ matrix (embedding, engram tables): codebook x norm, inverse rotation. */
static void decode_row_at(nd_engine_t *e, const nd_cq_t *m, int r, float *out, const uint8_t *row,
                          const uint16_t *norms);

static void decode_row(nd_engine_t *e, const nd_cq_t *m, int r, float *out) {
    decode_row_at(e, m, r, out, m->codes + (size_t)r * m->row_bytes, m->norms + (size_t)r * m->groups);
}

/* an engram table row: pread from the model file when the model has an fd (see nd_engram_w) */
static void decode_table_row(nd_engine_t *e, const nd_engram_w *w, int r, float *out) {
    const nd_cq_t *m = &w->tables;
    const int fd = e->m->fd;
    uint8_t codes[1024];
    uint16_t norms[64];
    if (fd >= 0 && m->row_bytes <= (int)sizeof(codes) && m->groups <= 64) {
        const size_t nb = (size_t)m->groups * 2;
        if (pread(fd, codes, m->row_bytes, w->tab_codes_off + (long long)r * m->row_bytes) ==
                m->row_bytes &&
            pread(fd, norms, nb, w->tab_norms_off + (long long)r * nb) == (ssize_t)nb) {
            decode_row_at(e, m, 0, out, codes, norms);
            return;
        }
    }
    decode_row(e, m, r, out);
}

static void decode_row_at(nd_engine_t *e, const nd_cq_t *m, int r, float *out, const uint8_t *row,
                          const uint16_t *nr) {
    (void)r;
    float buf[ND_GROUP * 4];
    for (int g = 0; g < m->groups; g++) {
        float n = nd_h2f(nr[g]);
        /* groups wider than the buffer are decoded in place (their rows are whole groups) */
        float *w = m->group <= ND_GROUP * 4 ? buf : out + g * m->group;
        for (int k = 0; k < m->group; k++) w[k] = m->cb[nd_code_at(row, m->bits, g * m->group + k)] * n;
        e->isa->fwht(w, m->group);
        int take = m->cols - g * m->group;
        if (take > m->group) take = m->group;
        if (w != out + g * m->group) memcpy(out + g * m->group, w, take * sizeof(float));
    }
}

/* One embedding row as a one-row matrix view: read with pread into `codes`/`norms` when the
 * model has an fd (see nd_model_t.emb_codes_off), else the mapped row itself. *row is the row
 * index to use with the returned view. */
#define ND_EMB_ROW_BYTES 1024
#define ND_EMB_ROW_GROUPS 64
#define ND_EMB_PREAD_MAX 64
/* above this many candidate rows a token's logits come from the full projection */
#define ND_CAND_FULL 512
static const nd_cq_t *emb_row_view(const nd_engine_t *e, int r, nd_cq_t *tmp, uint8_t *codes,
                                   uint16_t *norms, int *row) {
    const nd_model_t *m = e->m;
    const nd_cq_t *em = &m->emb;
    *row = r;
    if (m->fd < 0 || em->row_bytes > ND_EMB_ROW_BYTES || em->groups > ND_EMB_ROW_GROUPS) return em;
    const size_t nb = (size_t)em->groups * 2;
    if (pread(m->fd, codes, em->row_bytes, m->emb_codes_off + (long long)r * em->row_bytes) !=
            (ssize_t)em->row_bytes ||
        pread(m->fd, norms, nb, m->emb_norms_off + (long long)r * nb) != (ssize_t)nb)
        return em;
    *tmp = *em;
    tmp->codes = codes;
    tmp->norms = norms;
    tmp->rows = 1;
    *row = 0;
    return tmp;
}

static inline int kv_slot(const nd_engine_t *e, int p) {
    if (e->window <= 0) return p;
    if (p < e->sinks) return p;
    return e->max_sinks + (p - e->sinks) % e->window;
}

static void quant_head(const nd_vops_t *v, const float *x, int n, int8_t *q, float *scale) {
    const float amax = v->amax(x, n);
    if (amax == 0.f) {
        memset(q, 0, n);
        *scale = 0.f;
        return;
    }
    v->quant(x, n, 127.f / amax, q);
    *scale = amax / 127.f;
}

/* Attention of the chunk's queries. Each query sees its keys in absolute position order (sinks,
 * then the window), so a token gets the same bits whatever the chunking.
 *
 * int8 mode: q quantised per head, exact int32 q.k against the int8 K, one float scale per
 * score, softmax in position order, then the softmax weights times the V scales as int16
 * weights and V summed exactly in int32. The keys a query attends are at most three runs of
 * cache slots (the used sinks, the ring up to its end, the ring from its start: key_runs), and
 * the chunk's own K/V enter the cache before its queries attend, so the kernels read whole runs
 * of the blocked layouts. The integer sums do not depend on the order of the keys; the softmax
 * takes the scores in position order.
 *
 * FP32 mode: gather_keys() lays out the pointers of the keys query `pt` attends, the chunk's own
 * keys from its buffers (they enter the cache after every query has attended).
 *
 * While the window does not slide inside the chunk, every query's key list is a prefix of the
 * last query's, so the chunk is done in groups of queries that share one pass over K and V (the
 * cache is read once per group instead of once per query); the per-query arithmetic, and so
 * every bit of the result, is the same as one query at a time. KV heads are split over threads. */
static inline void put_key(nd_engine_t *e, int n, const void *k, const void *v) {
    e->kp[n] = k;
    e->vp[n] = v;
}

/* the positions query pt attends: the used sinks [0, *s_end), then the window [*lo, pt] */
static void attended_positions(const nd_engine_t *e, int pt, int *s_end, int *lo) {
    if (e->window <= 0) {
        *s_end = 0;
        *lo = 0;
        return;
    }
    *s_end = e->sinks < pt + 1 ? e->sinks : pt + 1;
    *lo = pt - e->window + 1 < e->sinks ? e->sinks : pt - e->window + 1;
}

static int gather_keys(nd_engine_t *e, int l, int pt) {
    const int kvd = e->m->KV * e->m->hd, p0 = e->pos;
    const size_t lbase = (size_t)l * e->cap;
    int s_end, lo;
    attended_positions(e, pt, &s_end, &lo);
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const int a = pass ? lo : 0, b = pass ? pt + 1 : s_end;
        const int bc = b < p0 ? b : p0; /* [a, bc) from the cache, [max(a, p0), b) the chunk */
        int p = a;
        if (p < bc) {
            int slot = kv_slot(e, p);
            const int ring = e->window > 0 && p >= e->sinks;
            const int wrap = e->max_sinks + e->window;
            for (; p < bc; p++, n++) {
                const size_t sl = lbase + slot;
                put_key(e, n, e->kf + sl * kvd, e->vf + sl * kvd);
                if (++slot == wrap && ring) slot = e->max_sinks;
            }
        }
        for (p = a > p0 ? a : p0; p < b; p++, n++) {
            const size_t c = (size_t)(p - p0);
            put_key(e, n, e->kb + c * kvd, e->vb + c * kvd);
        }
    }
    return n;
}

/* The cache slots query position pt attends, as runs [a[i], b[i]) in position order. */
typedef struct {
    int n, a[3], b[3];
} key_runs_t;

static void key_runs(const nd_engine_t *e, int pt, key_runs_t *r) {
    r->n = 0;
#define ND_RUN(x, y)          \
    do {                      \
        r->a[r->n] = (x);     \
        r->b[r->n++] = (y);   \
    } while (0)
    int s_end, lo;
    attended_positions(e, pt, &s_end, &lo);
    if (s_end > 0) ND_RUN(0, s_end);
    if (lo > pt) return;
    /* without a window a position is its slot; the ring's slots wrap at its end */
    const int a = kv_slot(e, lo), cnt = pt - lo + 1, end = e->max_sinks + e->window;
    if (e->window <= 0 || a + cnt <= end) {
        ND_RUN(a, a + cnt);
    } else {
        ND_RUN(a, end);
        ND_RUN(e->max_sinks, e->max_sinks + cnt - (end - a));
    }
#undef ND_RUN
}

/* queries per shared pass over the keys, and (FP32) keys per block that stay in L1 while every
 * query of the group uses them */
#define ND_ATT_GROUP 8
#define ND_ATT_KBLOCK 64

typedef struct {
    nd_engine_t *e;
    int l;
    int t0, nq, n_last; /* queries t0 .. t0+nq-1 of the chunk; the last one attends n_last keys */
    int T;              /* chunk length: query t attends n_last - (T - 1 - t) keys */
    key_runs_t runs;    /* int8: the last query's slot runs */
} att_job;

/* rows r = query x head of the group (rep heads per KV head): row r attends nrow[r] keys, a
 * prefix of the last query's; returns the most */
static int group_rows(const att_job *j, int rep, int *nrow) {
    int nmax = 0;
    for (int r = 0; r < j->nq * rep; r++) {
        nrow[r] = j->n_last - (j->T - 1 - (j->t0 + r / rep));
        nmax = nrow[r] > nmax ? nrow[r] : nmax;
    }
    return nmax;
}

static void att_part_f32(void *ctx, int part, int nparts) {
    const att_job *j = ctx;
    nd_engine_t *e = j->e;
    const nd_model_t *m = e->m;
    const nd_vops_t *v = e->v;
    const int hd = m->hd, KV = m->KV, rep = m->H / m->KV, qd = m->H * hd;
    const float scale = 1.f / sqrtf((float)hd);
    const int kh0 = KV * part / nparts, kh1 = KV * (part + 1) / nparts;
    nd_scratch_t *sc = &e->scr[part];
    const int rows = j->nq * rep;
    int nrow[ND_ATT_GROUP * 16];
    float inv[ND_ATT_GROUP * 16];
    const int nmax = group_rows(j, rep, nrow);
    const size_t ld = (size_t)e->cap;
    for (int kh = kh0; kh < kh1; kh++) {
        const int off = kh * hd;
        for (int i0 = 0; i0 < nmax; i0 += ND_ATT_KBLOCK) {
            for (int r = 0; r < rows; r++) {
                int nb = nrow[r] - i0;
                if (nb <= 0) continue;
                if (nb > ND_ATT_KBLOCK) nb = ND_ATT_KBLOCK;
                const int t = j->t0 + r / rep, h = kh * rep + r % rep;
                const float *qh = e->qb + (size_t)t * qd + h * hd;
                float *s = sc->scores + r * ld + i0;
                for (int i = 0; i < nb; i++)
                    s[i] = e->isa->dot(qh, (const float *)e->kp[i0 + i] + off, hd) * scale;
            }
        }
        for (int r = 0; r < rows; r++) {
            float *s = sc->scores + r * ld;
            inv[r] = 1.f / v->softmax_exp(s, nrow[r]);
            for (int i = nrow[r]; i < nmax; i++) s[i] = 0.f; /* FMA with 0 leaves a sum as is */
        }
        for (int i0 = 0; i0 < nmax; i0 += ND_ATT_KBLOCK) {
            const int nb = nmax - i0 < ND_ATT_KBLOCK ? nmax - i0 : ND_ATT_KBLOCK;
            v->attn_v_f32_acc(sc->obuf, e->vp + i0, off, sc->scores + i0, (int)ld, rows, nb, hd,
                              i0 == 0);
        }
        for (int r = 0; r < rows; r++) {
            const int t = j->t0 + r / rep, h = kh * rep + r % rep;
            float *o = e->att + (size_t)t * qd + h * hd;
            const float *ob = sc->obuf + (size_t)r * hd;
            for (int i = 0; i < hd; i++) o[i] = ob[i] * inv[r];
        }
    }
}

static void att_part_i8(void *ctx, int part, int nparts) {
    const att_job *j = ctx;
    nd_engine_t *e = j->e;
    const nd_model_t *m = e->m;
    const nd_vops_t *v = e->v;
    const int hd = m->hd, hdp = nd_hdp(hd), KV = m->KV, rep = m->H / m->KV, qd = m->H * hd;
    const float scale = 1.f / sqrtf((float)hd);
    const int kh0 = KV * part / nparts, kh1 = KV * (part + 1) / nparts;
    nd_scratch_t *sc = &e->scr[part];
    const int rows = j->nq * rep;
    int nrow[ND_ATT_GROUP * 16];
    float qs[ND_ATT_GROUP * 16], inv[ND_ATT_GROUP * 16], back[ND_ATT_GROUP * 16];
    const int nmax = group_rows(j, rep, nrow);
    /* the group's keys: the first nmax of the last query's runs */
    key_runs_t gr = {0, {0}, {0}};
    for (int k = 0, n = 0; k < j->runs.n && n < nmax; k++) {
        const int len = j->runs.b[k] - j->runs.a[k] < nmax - n ? j->runs.b[k] - j->runs.a[k] : nmax - n;
        gr.a[gr.n] = j->runs.a[k];
        gr.b[gr.n++] = j->runs.a[k] + len;
        n += len;
    }
    const key_runs_t *ru = &gr;
    const size_t ld = (size_t)e->capr; /* row stride of the slot-indexed dots */
    /* the softmax weights times the V scales become int16 weights in the dots' buffer (a row's
     * dots are used up by then), in position order */
    int16_t *w16 = (int16_t *)sc->idot;
    const size_t ld16 = 2 * ld;
    for (int kh = kh0; kh < kh1; kh++) {
        const size_t hb = kv_head(e, j->l, kh);
        const float *ks = e->ks + hb, *vs = e->vs + hb;
        for (int r = 0; r < rows; r++) {
            const int t = j->t0 + r / rep, h = kh * rep + r % rep;
            quant_head(v, e->qb + (size_t)t * qd + h * hd, hd, sc->q8 + (size_t)r * hdp, &qs[r]);
        }
        for (int k = 0, n = 0; k < ru->n; n += ru->b[k] - ru->a[k], k++) {
            e->isa->qk_blk(sc->q8, hdp, rows, k8_region(e, j->l, kh), ru->a[k], ru->b[k], hd,
                           sc->idot, (int)ld);
            memcpy(sc->vsp + n, vs + ru->a[k], (size_t)(ru->b[k] - ru->a[k]) * sizeof(float));
        }
        for (int r = 0; r < rows; r++) {
            float *s = sc->scores + r * (size_t)e->cap;
            float mx = -INFINITY, esum;
            for (int k = 0, n = 0; k < ru->n && n < nrow[r]; n += ru->b[k] - ru->a[k], k++) {
                const int len = ru->b[k] - ru->a[k] < nrow[r] - n ? ru->b[k] - ru->a[k] : nrow[r] - n;
                const float m = v->scores_i8(s + n, sc->idot + r * ld + ru->a[k], ks + ru->a[k],
                                             qs[r], scale, len);
                mx = m > mx ? m : mx;
            }
            back[r] = v->exp_w16(s, nrow[r], mx, sc->vsp, w16 + r * ld16, &esum);
            inv[r] = 1.f / esum;
            /* a zero weight adds nothing: rows shorter than the group's pass */
            for (int i = nrow[r]; i < nmax; i++) w16[r * ld16 + i] = 0;
        }
        for (int k = 0, n = 0; k < ru->n; n += ru->b[k] - ru->a[k], k++)
            e->isa->attn_v_blk((int32_t *)sc->obuf, v8_region(e, j->l, kh), ru->a[k], ru->b[k],
                               w16 + n, (int)ld16, rows, hd, k == 0);
        for (int r = 0; r < rows; r++) {
            const int t = j->t0 + r / rep, h = kh * rep + r % rep;
            float *o = e->att + (size_t)t * qd + h * hd;
            const int32_t *ob = (const int32_t *)sc->obuf + (size_t)r * hd;
            const float f = back[r] * inv[r];
            for (int i = 0; i < hd; i++) o[i] = (float)ob[i] * f;
        }
    }
}

/* chunk token t's int8 K/V (and scales) into its cache slot, every KV head of layer l */
static void store_kv8(nd_engine_t *e, int l, int t) {
    const int KV = e->m->KV, hd = e->m->hd, hdp = nd_hdp(hd);
    const int s = kv_slot(e, e->pos + t);
    for (int h = 0; h < KV; h++) {
        const size_t c = (size_t)t * KV + h;
        k8_put(k8_region(e, l, h), s, e->kc8 + c * hdp, hd);
        v8_put(v8_region(e, l, h), s, e->vc8 + c * hd, hd);
        e->ks[kv_head(e, l, h) + s] = e->ksc[c];
        e->vs[kv_head(e, l, h) + s] = e->vsc[c];
    }
}

/* The keys query position pt attends: int8, the slot runs in j->runs; FP32, the pointer lists
 * of gather_keys. Returns how many. */
static int attended(nd_engine_t *e, att_job *j, int pt) {
    if (!e->int8) return gather_keys(e, j->l, pt);
    key_runs(e, pt, &j->runs);
    int n = 0;
    for (int k = 0; k < j->runs.n; k++) n += j->runs.b[k] - j->runs.a[k];
    return n;
}

static void attention_chunk(nd_engine_t *e, int l, int T) {
    const int kvd = e->m->KV * e->m->hd;
    const size_t lbase = (size_t)l * e->cap;
    const int p0 = e->pos;
    /* the window start stays put over the chunk: every key list is a prefix of the last one */
    const int shared = e->window <= 0 || p0 + T - e->window <= e->sinks;
    const pool_fn part = e->int8 ? att_part_i8 : att_part_f32;
    att_job j = {e, l, 0, 1, 0, T, {0, {0}, {0}}};
    if (shared) {
        /* int8: no slot of the chunk holds a key any of its queries attends, so the chunk's
         * K/V all enter the cache first */
        for (int t = 0; e->int8 && t < T; t++) store_kv8(e, l, t);
        j.n_last = attended(e, &j, p0 + T - 1);
        for (int t0 = 0; t0 < T; t0 += e->att_group) {
            j.t0 = t0;
            j.nq = T - t0 < e->att_group ? T - t0 : e->att_group;
            const long work = (long)j.nq * j.n_last;
            pool_run(e->pool, part, &j, work >= 256 ? e->nthreads : 1);
        }
    } else {
        /* the window slides inside the chunk: query by query (int8: a token's slot held the
         * key that left the window as it arrived, which no later query attends, so each token
         * enters the cache just before it attends) */
        for (int t = 0; t < T; t++) {
            if (e->int8) store_kv8(e, l, t);
            j.n_last = attended(e, &j, p0 + t);
            j.t0 = t;
            j.nq = 1;
            j.T = t + 1;
            pool_run(e->pool, part, &j, j.n_last >= 256 ? e->nthreads : 1);
        }
    }
    if (e->int8) return;
    /* FP32: now the chunk's keys enter the cache */
    for (int t = 0; t < T; t++) {
        const size_t slot = lbase + kv_slot(e, p0 + t);
        memcpy(e->kf + slot * kvd, e->kb + (size_t)t * kvd, kvd * sizeof(float));
        memcpy(e->vf + slot * kvd, e->vb + (size_t)t * kvd, kvd * sizeof(float));
    }
}

static void block(nd_engine_t *e, int l, int T) {
    const nd_model_t *m = e->m;
    const nd_layer_w *w = &m->layers[l];
    const nd_vops_t *v = e->v;
    const int d = m->d, hd = m->hd, H = m->H, KV = m->KV, qd = H * hd, kvd = KV * hd;
    const int half = hd / 2;
    double t0 = now_ns();
    for (int t = 0; t < T; t++) v->zcn(e->bx + (size_t)t * d, w->norm_in, e->h + (size_t)t * d, d);
    {
        const nd_cq_t *ms[4] = {&w->q, &w->k, &w->v, &w->g};
        float *ys[4] = {e->qb, e->kb, e->vb, e->gb};
        /* each token's outputs are packed: row stride = row count */
        const int rows[4] = {qd, kvd, kvd, qd}, r0[4] = {0, 0, 0, 0};
        matmul_x(e, 4, ms, ys, rows, r0, rows, e->h, T, d);
    }
    double t1 = now_ns();
    e->timers[1] += t1 - t0;
    for (int t = 0; t < T; t++) {
        float *q = e->qb + (size_t)t * qd, *k = e->kb + (size_t)t * kvd, *vv = e->vb + (size_t)t * kvd;
        const float *c = e->cosb + (size_t)t * half, *s = e->sinb + (size_t)t * half;
        for (int h = 0; h < H; h++) {
            v->zcn(q + h * hd, w->q_norm, q + h * hd, hd);
            v->rope(q + h * hd, hd, c, s);
        }
        for (int h = 0; h < KV; h++) {
            v->zcn(k + h * hd, w->k_norm, k + h * hd, hd);
            v->rope(k + h * hd, hd, c, s);
            if (e->int8) {
                const size_t c = (size_t)t * KV + h;
                quant_head(v, k + h * hd, hd, e->kc8 + c * nd_hdp(hd), &e->ksc[c]);
                quant_head(v, vv + h * hd, hd, e->vc8 + c * hd, &e->vsc[c]);
            }
        }
    }
    attention_chunk(e, l, T);
    for (int t = 0; t < T; t++) v->gate(e->att + (size_t)t * qd, e->gb + (size_t)t * qd, qd);
    double t2 = now_ns();
    e->timers[2] += t2 - t1;
    prepare(e, &w->o, e->att, T, qd);
    matmul(e, &w->o, e->ao, d, 0, d);
    double t3 = now_ns();
    e->timers[3] += t3 - t2;
    const float ag = v->sigm(w->attn_gate);
    const int n = m->hada_n;
    for (int t = 0; t < T; t++) {
        float *x = e->blk + (size_t)t * d;
        const float *bx = e->bx + (size_t)t * d;
        float *a = e->ao + (size_t)t * d;
        v->zcn(a, w->post_norm, a, d);
        v->add_scaled(x, bx, ag, a, d);
        float *z = e->z;
        v->zcn(x, w->pre_hada, z, d);
        for (int i = d; i < n; i++) z[i] = 0.f;
        v->mul(z, w->d1, n);
        e->isa->fwht(z, n);
        v->silu_mul(z, w->d2, n);
        e->isa->fwht(z, n);
        v->add_mul(x, w->d3, z, d);
    }
    e->timers[4] += now_ns() - t3;
}

static void engram(nd_engine_t *e, int si, int T) {
    const nd_model_t *m = e->m;
    const nd_engram_w *w = &m->eng[si];
    const nd_vops_t *v = e->v;
    const int d = m->d, sub = m->sub_dim, ed = m->ntables * sub;
    const int heads = m->ntables / (m->norders ? m->norders : 1);
    double t0 = now_ns();
    for (int t = 0; t < T; t++) {
        const int p = e->pos + t;
        float *et = e->e + (size_t)t * ed;
        for (int j = 0; j < m->ntables; j++) {
            const int o = m->orders[j / heads];
            float *dst = et + j * sub;
            if (p + 1 < o) {
                memset(dst, 0, sub * sizeof(float));
                continue;
            }
            uint32_t acc = 0x9E3779B9u * (uint32_t)(j + 1);
            for (int i = 0; i < o; i++) acc = (acc ^ (uint32_t)e->tokwin[t + 7 - i]) * 0x01000193u;
            acc ^= acc >> 15;
            const int row = j * m->slots + (int)(acc % (uint32_t)m->slots);
            decode_table_row(e, w, row, e->tmp);
            memcpy(dst, e->tmp, sub * sizeof(float));
        }
    }
    {
        const nd_cq_t *ms[2] = {&w->key, &w->value};
        float *ys[2] = {e->ek, e->ev};
        const int rows[2] = {d, d}, r0[2] = {0, 0};
        matmul_x(e, 2, ms, ys, rows, r0, rows, e->e, T, ed);
    }
    float *vh = e->vhist + (size_t)si * e->R * d;
    const float isd = 1.f / sqrtf((float)d);
    for (int t = 0; t < T; t++) {
        const int p = e->pos + t;
        memcpy(vh + (size_t)(p % e->R) * d, e->ev + (size_t)t * d, d * sizeof(float));
        float *cv = e->tmp; /* conv output */
        memset(cv, 0, d * sizeof(float));
        for (int mm = 0; mm < m->conv_taps; mm++) {
            const int pp = p - mm * m->dil;
            if (pp < 0) break;
            v->add_mul(cv, w->taps + (size_t)mm * d, vh + (size_t)(pp % e->R) * d, d);
        }
        const float *u = e->u + (size_t)t * d;
        float *un = e->tmp + d, *kn = e->tmp + 2 * d;
        v->zcn(u, NULL, un, d);
        v->zcn(e->ek + (size_t)t * d, NULL, kn, d);
        const float gate = v->sigm(e->isa->dot(un, kn, d) * isd);
        v->add_scaled(e->bx + (size_t)t * d, u, gate, cv, d);
    }
    e->timers[5] += now_ns() - t0;
}

/* P = sinkhorn(A): 20 iterations of (rows, then columns) normalisation, then exp. In the positive
 * domain (exp once, then divide by row and column sums) when the logits' range keeps every entry
 * a normal FP32 number; else the log-space form (subtract the row / column logsumexp). The two are
 * the same function; only rounding differs. */
#define ND_SINKHORN_RANGE 80.f

static void sinkhorn_log(float A[4][4], int n) {
    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < n; i++) {
            float mx = -INFINITY, s = 0.f;
            for (int j = 0; j < n; j++) mx = fmaxf(mx, A[i][j]);
            for (int j = 0; j < n; j++) s += expf(A[i][j] - mx);
            const float lse = mx + logf(s);
            for (int j = 0; j < n; j++) A[i][j] -= lse;
        }
        for (int j = 0; j < n; j++) {
            float mx = -INFINITY, s = 0.f;
            for (int i = 0; i < n; i++) mx = fmaxf(mx, A[i][j]);
            for (int i = 0; i < n; i++) s += expf(A[i][j] - mx);
            const float lse = mx + logf(s);
            for (int i = 0; i < n; i++) A[i][j] -= lse;
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) A[i][j] = expf(A[i][j]);
}

void nd_sinkhorn(float A[4][4], int n, int force_log) {
    float mx = -INFINITY, mn = INFINITY;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            mx = fmaxf(mx, A[i][j]);
            mn = fminf(mn, A[i][j]);
        }
    if (force_log || !(mx - mn <= ND_SINKHORN_RANGE)) {
        sinkhorn_log(A, n);
        return;
    }
    if (n != 4) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) A[i][j] = expf(A[i][j] - mx);
        for (int it = 0; it < 20; it++) {
            for (int i = 0; i < n; i++) {
                float s = 0.f;
                for (int j = 0; j < n; j++) s += A[i][j];
                for (int j = 0; j < n; j++) A[i][j] /= s;
            }
            for (int j = 0; j < n; j++) {
                float s = 0.f;
                for (int i = 0; i < n; i++) s += A[i][j];
                for (int i = 0; i < n; i++) A[i][j] /= s;
            }
        }
        return;
    }
    /* 4 lanes: one 4-float vector per row; the same sums and divisions as the loop above */
    typedef float v4f __attribute__((vector_size(16)));
    v4f r[4];
    for (int i = 0; i < 4; i++) {
        float t[4];
        for (int j = 0; j < 4; j++) t[j] = expf(A[i][j] - mx);
        memcpy(&r[i], t, 16);
    }
    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < 4; i++) {
            const float s = ((r[i][0] + r[i][1]) + r[i][2]) + r[i][3];
            const v4f sv = {s, s, s, s};
            r[i] = r[i] / sv;
        }
        const v4f cs = ((r[0] + r[1]) + r[2]) + r[3];
        for (int i = 0; i < 4; i++) r[i] = r[i] / cs;
    }
    for (int i = 0; i < 4; i++) memcpy(A[i], &r[i], 16);
}

/* Cells into the probe pool, in order, probe by probe: the online form of softmax pooling (same
 * result as pooling all cells at the end, up to rounding). Probes are independent, so splitting
 * them over parts leaves every bit as it is. It runs as a side job (pool_post) on the workers,
 * which are otherwise idle while the caller does a layer's serial vector work. */
static void pool_cells(void *ctx, int part, int nparts) {
    nd_engine_t *e = ctx;
    nd_pool_t *p = &e->probe;
    const int k0 = p->P * part / nparts, k1 = p->P * (part + 1) / nparts;
    for (int k = k0; k < k1; k++) {
        double *a = p->acc + (size_t)k * p->d;
        for (int t = 0; t < e->pj.T; t++) {
            const float *x = e->pj.x + (size_t)t * e->pj.ld;
            const double s = (double)e->isa->dot(p->probes + (size_t)k * p->d, x, p->d) * p->scale;
            const double mn = s > p->m[k] ? s : p->m[k];
            const double shrink = exp(p->m[k] - mn), w = exp(s - mn);
            p->den[k] = p->den[k] * shrink + w;
            for (int i = 0; i < p->d; i++) a[i] = a[i] * shrink + w * (double)x[i];
            p->m[k] = mn;
        }
    }
}

/* T cells (ld apart) into the probe pool, on the workers while the caller goes on */
static void pool_add(nd_engine_t *e, const float *x, int T, int ld) {
    pool_join(e->pool); /* the workers are done with e->pj (the last cells are in) */
    e->pj.x = x;
    e->pj.T = T;
    e->pj.ld = ld;
    pool_post(e->pool, pool_cells, e);
}

void nd_engine_set_pool(nd_engine_t *e, const nd_pool_t *pool) {
    if (pool && pool->P > 0 && pool->d == e->m->d) e->probe = *pool;
    else memset(&e->probe, 0, sizeof(e->probe));
}

static int forward_chunk(nd_engine_t *e, const int32_t *ids, int T, float *logits, int mode,
                         const int32_t *cand, int ncand, float *cells) {
    const nd_model_t *m = e->m;
    const nd_vops_t *v = e->v;
    const int d = m->d, nl = m->lanes, L = m->L, half = m->hd / 2, ld = nl * d;
    double t0 = now_ns();
    const float sd = sqrtf((float)d);
    for (int t = 0; t < T; t++) {
        float *x0 = e->x0 + (size_t)t * d;
        {
            nd_cq_t one_row;
            uint8_t codes[ND_EMB_ROW_BYTES];
            uint16_t norms[ND_EMB_ROW_GROUPS];
            int r;
            const nd_cq_t *em = emb_row_view(e, ids[t], &one_row, codes, norms, &r);
            decode_row(e, em, r, x0);
        }
        for (int i = 0; i < d; i++) x0[i] *= sd;
        for (int i = 0; i < nl; i++) memcpy(e->X + (size_t)t * ld + i * d, x0, d * sizeof(float));
        if (cells) memcpy(cells + (size_t)t * (L + 1) * d, x0, d * sizeof(float));
        /* RoPE angles for this absolute position, in double for the angle product */
        const int p = e->pos + t;
        for (int i = 0; i < half; i++) {
            double ang = (double)p * (double)e->freq[i];
            e->cosb[(size_t)t * half + i] = (float)cos(ang);
            e->sinb[(size_t)t * half + i] = (float)sin(ang);
        }
    }
    if (e->probe.P) pool_add(e, e->x0, T, d);
    /* token window for the engram hash: 7 earlier tokens, then this chunk */
    for (int i = 0; i < 7; i++) e->tokwin[i] = e->tokhist[i + 1];
    for (int t = 0; t < T; t++) e->tokwin[7 + t] = ids[t];
    e->timers[0] += now_ns() - t0;

    for (int l = 0; l < L; l++) {
        double tm = now_ns();
        const int s = l % nl;
        for (int t = 0; t < T; t++) v->zcn(e->X + (size_t)t * ld, NULL, e->nx + (size_t)t * ld, ld);
        {
            /* the three mixing maps of this layer: rows l*nl.. of phi_pre/post, l*nl*nl.. of phi_res */
            const nd_cq_t *ms[3] = {&m->phi_pre, &m->phi_post, &m->phi_res};
            float *ys[3] = {e->hp - l * nl, e->hq - l * nl, e->hr - l * nl * nl};
            const int ldy[3] = {nl, nl, nl * nl}, r0[3] = {l * nl, l * nl, l * nl * nl};
            const int r1[3] = {(l + 1) * nl, (l + 1) * nl, (l + 1) * nl * nl};
            matmul_x(e, 3, ms, ys, ldy, r0, r1, e->nx, T, ld);
        }
        for (int t = 0; t < T; t++) {
            float hpre[4];
            for (int i = 0; i < nl; i++)
                hpre[i] = v->sigm(m->a_pre[l] * e->hp[t * nl + i] + m->b_pre[l * nl + i] +
                                  (i == s ? 4.f : -4.f));
            float *u = e->u + (size_t)t * d;
            v->lane_sum(u, e->X + (size_t)t * ld, hpre, nl, d);
            memcpy(e->bx + (size_t)t * d, u, d * sizeof(float));
        }
        e->timers[6] += now_ns() - tm;
        for (int si = 0; si < m->nsites; si++)
            if (m->sites[si] == l) engram(e, si, T);
        block(e, l, T);
        tm = now_ns();
        /* the cells of this layer: in the caller's buffer, or in cellbuf once the workers are
         * done with the last layer's */
        const size_t cell_ld = cells ? (size_t)(L + 1) * d : (size_t)d;
        float *cell0 = cells ? cells + (size_t)(l + 1) * d : e->probe.P ? e->cellbuf : NULL;
        if (cell0 == e->cellbuf) pool_join(e->pool);
        for (int t = 0; t < T; t++) {
            float *X = e->X + (size_t)t * ld;
            const float *u = e->u + (size_t)t * d, *y = e->blk + (size_t)t * d;
            float hpost[4], A[4][4];
            for (int i = 0; i < nl; i++)
                hpost[i] = 2.f * v->sigm(m->a_post[l] * e->hq[t * nl + i] + m->b_post[l * nl + i] +
                                         (i == s ? 0.f : -4.f));
            for (int i = 0; i < nl; i++)
                for (int j = 0; j < nl; j++)
                    A[i][j] = m->a_res[l] * e->hr[t * nl * nl + i * nl + j] + m->b_res[(l * nl + i) * nl + j];
            nd_sinkhorn(A, nl, 0);
            v->mhc_mix(X, y, u, hpost, (const float(*)[4])A, nl, d,
                       cell0 ? cell0 + t * cell_ld : NULL);
        }
        if (e->probe.P) pool_add(e, cell0, T, (int)cell_ld);
        e->timers[6] += now_ns() - tm;
    }

    double tf = now_ns();
    int t_first = mode == ND_LOGITS_ALL ? 0 : T - 1;
    int nt = mode == ND_LOGITS_NONE ? 0 : T - t_first;
    for (int t = t_first; t < T && nt; t++) {
        const float *X = e->X + (size_t)t * ld;
        float *xf = e->xf + (size_t)(t - t_first) * d;
        v->lane_mean(xf, X, nl, d);
        v->zcn(xf, m->final_norm, xf, d);
    }
    if (nt) {
        prepare(e, &m->emb, e->xf, nt, d);
        if (cand && nt == 1 && ncand > ND_CAND_FULL && e->full) {
            /* most of the vocabulary (inside a free string): the blocked, threaded full
             * projection, then the candidates' entries; one token's rows go through the same
             * single-row kernel either way, so the bits are the same as row by row */
            matmul(e, &m->emb, e->full, m->vocab, 0, m->vocab);
            for (int c = 0; c < ncand; c++) logits[c] = e->full[cand[c]];
        } else if (cand) {
            /* candidate rows one by one, each with the same kernel as a full projection */
            nd_act_t one = e->act;
            for (int t = 0; t < nt; t++) {
                one.T = 1;
                one.xr = e->act.xr + (size_t)t * e->act.in_pad;
                one.xq = e->act.xq + (size_t)t * e->act.in_pad;
                one.xs = e->act.xs + (size_t)t * e->act.groups;
                one.xsum = e->act.xsum + (size_t)t * e->act.groups;
                float *out = logits + (size_t)t * ncand;
                /* a few rows: read each (see emb_row_view); many: the mapping, where reading
                 * row by row would cost a system call per row for little memory saved */
                const int pread_rows = ncand <= ND_EMB_PREAD_MAX;
                for (int c = 0; c < ncand; c++) {
                    nd_cq_t one_row;
                    uint8_t codes[ND_EMB_ROW_BYTES];
                    uint16_t norms[ND_EMB_ROW_GROUPS];
                    int r = cand[c];
                    const nd_cq_t *em =
                        pread_rows ? emb_row_view(e, cand[c], &one_row, codes, norms, &r) : &m->emb;
                    float y;
                    if (e->int8 && em->fast)
                        e->isa->mv_i8(em, &one, &y - r, r, r + 1);
                    else
                        e->isa->mv_f32(em, one.xr, &y - r, r, r + 1);
                    out[c] = y;
                }
            }
        } else {
            matmul(e, &m->emb, logits, m->vocab, 0, m->vocab);
        }
    }
    e->timers[7] += now_ns() - tf;
    /* keep the last 8 tokens for the next chunk's engram hashes */
    int32_t hist[8 + 64];
    int nh = 0;
    for (int i = 0; i < 8; i++) hist[nh++] = e->tokhist[i];
    for (int t = 0; t < T; t++) {
        memmove(hist, hist + 1, 7 * sizeof(int32_t));
        hist[7] = ids[t];
    }
    memcpy(e->tokhist, hist, 8 * sizeof(int32_t));
    e->pos += T;
    pool_join(e->pool); /* the probe pool is complete when the call returns */
    return ND_OK;
}

int nd_engine_forward(nd_engine_t *e, const int32_t *ids, int n, float *logits, int mode,
                      const int32_t *cand, int ncand, float *cells) {
    const nd_model_t *m = e->m;
    if (n <= 0) return ND_ERR_ARG;
    if (e->window <= 0 && e->pos + n > e->cap) return ND_ERR_FULL;
    for (int i = 0; i < n; i++)
        if (ids[i] < 0 || ids[i] >= m->vocab) return ND_ERR_ARG;
    if (cand)
        for (int i = 0; i < ncand; i++)
            if (cand[i] < 0 || cand[i] >= m->vocab) return ND_ERR_ARG;
    const int rows = cand ? ncand : m->vocab;
    for (int i = 0; i < n; i += e->tmax) {
        int T = n - i < e->tmax ? n - i : e->tmax;
        int last = i + T >= n;
        int md = mode == ND_LOGITS_ALL ? ND_LOGITS_ALL : (last ? mode : ND_LOGITS_NONE);
        float *lg = logits && md == ND_LOGITS_ALL ? logits + (size_t)i * rows : logits;
        int rc = forward_chunk(e, ids + i, T, lg, md, cand, ncand,
                               cells ? cells + (size_t)i * (m->L + 1) * m->d : NULL);
        if (rc) return rc;
    }
    return ND_OK;
}

nd_engine_t *nd_engine_new(const nd_model_t *m, const char *isa, int int8, int window, int sinks,
                           int max_sinks, int capacity, int tmax, int threads, size_t budget,
                           int *err, size_t *need) {
    const nd_isa_t *ia = nd_isa_select(isa);
    *err = ND_ERR_ARG;
    *need = 0;
    if (window < 0) window = 0;
    if (sinks < 0) sinks = 0;
    if (max_sinks < sinks) max_sinks = sinks;
    if (!ia || !engine_args_ok(m, window, window > 0 ? max_sinks : 0, capacity)) return NULL;
    nd_engine_t *e = calloc(1, sizeof(*e));
    if (!e) {
        *err = ND_ERR_NOMEM;
        *need = sizeof(*e);
        return NULL;
    }
    e->budget = budget;
    e->m = m;
    e->isa = ia;
    e->v = ia->v;
    e->int8 = int8;
    e->window = window;
    e->max_sinks = window > 0 ? max_sinks : 0;
    e->sinks = window > 0 ? sinks : 0;
    e->cap = window > 0 ? e->max_sinks + window : capacity;
    e->tmax = tmax < 1 ? 1 : tmax;
    e->nthreads = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    const int d = m->d, qd = m->H * m->hd, kvd = m->KV * m->hd, L = m->L, T = e->tmax;
    const int ed = m->ntables * m->sub_dim;
    const size_t kvn = (size_t)L * e->cap * kvd;
    e->capr = (e->cap + 7) & ~7;
    if (int8) {
        const size_t nslots = (size_t)L * m->KV * e->capr;
        e->k8 = xalloc_lazy(e, nslots * nd_hdp(m->hd));
        e->v8 = xalloc_lazy(e, nslots * m->hd);
        e->ks = xalloc_lazy(e, nslots * 4);
        e->vs = xalloc_lazy(e, nslots * 4);
    } else {
        e->kf = xalloc_lazy(e, kvn * 4);
        e->vf = xalloc_lazy(e, kvn * 4);
    }
    e->R = (m->conv_taps > 0 ? (m->conv_taps - 1) * m->dil : 0) + 1;
    e->vhist = xalloc(e, (size_t)(m->nsites ? m->nsites : 1) * e->R * d * 4);
    int maxin = m->phi_pre.in_pad;
    const nd_cq_t *all[] = {&m->emb, &m->phi_post, &m->phi_res};
    for (int i = 0; i < 3; i++) maxin = all[i]->in_pad > maxin ? all[i]->in_pad : maxin;
    for (int l = 0; l < L; l++) {
        const nd_cq_t *ls[] = {&m->layers[l].q, &m->layers[l].k, &m->layers[l].v,
                               &m->layers[l].g, &m->layers[l].o};
        for (int i = 0; i < 5; i++) maxin = ls[i]->in_pad > maxin ? ls[i]->in_pad : maxin;
    }
    for (int s = 0; s < m->nsites; s++) {
        maxin = m->eng[s].key.in_pad > maxin ? m->eng[s].key.in_pad : maxin;
        maxin = m->eng[s].value.in_pad > maxin ? m->eng[s].value.in_pad : maxin;
    }
    const int maxg = maxin / 8 + 1;
    e->act.xr = xalloc(e, (size_t)T * maxin * 4);
    e->act.xq = xalloc(e, (size_t)T * maxin);
    e->act.xs = xalloc(e, (size_t)T * maxg * 4);
    e->act.xsum = xalloc(e, (size_t)T * maxg * 4);
    const int ld = m->lanes * d;
    e->x0 = xalloc(e, (size_t)T * d * 4);
    e->X = xalloc(e, (size_t)T * ld * 4);
    e->nx = xalloc(e, (size_t)T * ld * 4);
    e->hp = xalloc(e, (size_t)T * 4 * 4);
    e->hq = xalloc(e, (size_t)T * 4 * 4);
    e->hr = xalloc(e, (size_t)T * 16 * 4);
    e->u = xalloc(e, (size_t)T * d * 4);
    e->bx = xalloc(e, (size_t)T * d * 4);
    e->blk = xalloc(e, (size_t)T * d * 4);
    e->h = xalloc(e, (size_t)T * d * 4);
    e->qb = xalloc(e, (size_t)T * qd * 4);
    e->kb = xalloc(e, (size_t)T * kvd * 4);
    e->vb = xalloc(e, (size_t)T * kvd * 4);
    e->gb = xalloc(e, (size_t)T * qd * 4);
    e->att = xalloc(e, (size_t)T * qd * 4);
    e->ao = xalloc(e, (size_t)T * d * 4);
    e->z = xalloc(e, (size_t)(m->hada_n > d ? m->hada_n : d) * 4);
    e->e = xalloc(e, (size_t)T * (ed > 0 ? ed : 1) * 4);
    e->ek = xalloc(e, (size_t)T * d * 4);
    e->ev = xalloc(e, (size_t)T * d * 4);
    e->xf = xalloc(e, (size_t)T * d * 4);
    e->cosb = xalloc(e, (size_t)T * m->hd * 2);
    e->sinb = xalloc(e, (size_t)T * m->hd * 2);
    e->att_group = e->tmax < ND_ATT_GROUP ? e->tmax : ND_ATT_GROUP;
    const int arows = e->att_group * (m->H / m->KV);
    for (int i = 0; i < e->nthreads; i++) {
        /* written before read: untouched rows (short chunks) cost no resident memory */
        e->scr[i].scores = xalloc_lazy(e, (size_t)arows * e->cap * 4);
        e->scr[i].idot = xalloc_lazy(e, (size_t)arows * e->capr * 4);
        e->scr[i].q8 = xalloc(e, (size_t)arows * nd_hdp(m->hd));
        e->scr[i].obuf = xalloc(e, (size_t)arows * m->hd * 4);
        e->scr[i].vsp = int8 ? xalloc_lazy(e, (size_t)e->cap * 4) : NULL;
    }
    if (int8) {
        e->kc8 = xalloc(e, (size_t)T * m->KV * nd_hdp(m->hd));
        e->vc8 = xalloc(e, (size_t)T * m->KV * m->hd);
        e->ksc = xalloc(e, (size_t)T * m->KV * 4);
        e->vsc = xalloc(e, (size_t)T * m->KV * 4);
    } else {
        e->kp = xalloc(e, (size_t)e->cap * sizeof(void *));
        e->vp = xalloc(e, (size_t)e->cap * sizeof(void *));
    }
    e->freq = xalloc(e, (size_t)m->hd * 4);
    e->cellbuf = xalloc(e, (size_t)T * d * 4);
    e->full = xalloc_lazy(e, (size_t)m->vocab * 4); /* touched only by large candidate sets */
    int tmpn = 4 * d + 4 * ND_GROUP;
    if (m->sub_dim + ND_GROUP > tmpn) tmpn = m->sub_dim + ND_GROUP;
    if (ld > tmpn) tmpn = ld;
    if (d > tmpn) tmpn = d;
    e->tmp = xalloc(e, (size_t)(tmpn + m->emb.in_pad + m->eng[0].tables.in_pad) * 4);
    e->tokwin = xalloc(e, (size_t)(T + 8) * 4);
    if (e->err) { /* any buffer failed (xalloc_aligned records it): none is left half-made */
        *err = e->err;
        *need = e->bytes + sizeof(*e);
        nd_engine_free(e);
        return NULL;
    }
    for (int i = 0; i < m->hd / 2; i++)
        e->freq[i] = (float)pow((double)m->rope_theta, -2.0 * i / (double)m->hd);
    *err = ND_OK;
    if (e->nthreads > 1) e->pool = pool_new(e->nthreads);
    nd_engine_reset(e);
    return e;
}

void nd_engine_free(nd_engine_t *e) {
    if (!e) return;
    pool_free(e->pool);
    void *bufs[] = {e->kf, e->vf, e->k8, e->v8, e->ks, e->vs, e->vhist, e->act.xr, e->act.xq,
                    e->act.xs, e->act.xsum, e->x0, e->X, e->nx, e->hp, e->hq, e->hr, e->u,
                    e->bx, e->blk, e->h, e->qb, e->kb, e->vb, e->gb, e->att, e->ao, e->z,
                    e->e, e->ek, e->ev, e->xf, e->cosb, e->sinb, e->tmp, e->tokwin,
                    (void *)e->kp, (void *)e->vp, e->cellbuf, e->full,
                    e->kc8, e->vc8, e->ksc, e->vsc, e->freq};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) free(bufs[i]);
    for (int i = 0; i < 16; i++) {
        free(e->scr[i].scores);
        free(e->scr[i].idot);
        free(e->scr[i].q8);
        free(e->scr[i].obuf);
        free(e->scr[i].vsp);
    }
    free(e);
}

void nd_engine_reset(nd_engine_t *e) {
    e->pos = 0;
    memset(e->tokhist, 0, sizeof(e->tokhist));
    /* the cache need not be cleared: a slot is always written before it is attended */
    memset(e->vhist, 0, (size_t)(e->m->nsites ? e->m->nsites : 1) * e->R * e->m->d * 4);
    memset(e->timers, 0, sizeof(e->timers));
}

const char *nd_engine_isa(const nd_engine_t *e) { return e->isa->name; }
int nd_engine_pos(const nd_engine_t *e) { return e->pos; }
size_t nd_engine_bytes(const nd_engine_t *e) { return e->bytes + sizeof(*e); }

void nd_engine_timers(const nd_engine_t *e, double *out, int n) {
    for (int i = 0; i < n && i < 8; i++) out[i] = e->timers[i];
}

void nd_model_drop_tables(const nd_model_t *m) {
    if (m->fd < 0) return;
    const long pg = sysconf(_SC_PAGESIZE);
    for (int s = 0; s < m->nsites; s++) {
        const nd_cq_t *t = &m->eng[s].tables;
        uintptr_t a = (uintptr_t)t->codes, b = (uintptr_t)(t->norms + (size_t)t->rows * t->groups);
        a = (a + pg - 1) / pg * pg;
        b = b / pg * pg;
        if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
    }
    const nd_cq_t *t = &m->emb;
    uintptr_t a = (uintptr_t)t->codes, b = (uintptr_t)(t->norms + (size_t)t->rows * t->groups);
    a = (a + pg - 1) / pg * pg;
    b = b / pg * pg;
    if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

int nd_engine_set_sinks(nd_engine_t *e, int sinks) {
    if (sinks < 0 || (e->window > 0 && sinks > e->max_sinks)) return ND_ERR_ARG;
    e->sinks = e->window > 0 ? sinks : 0;
    return ND_OK;
}

int nd_engine_sinks(const nd_engine_t *e) { return e->sinks; }
int nd_engine_max_sinks(const nd_engine_t *e) { return e->max_sinks; }

/* ---- prefix state: position, sinks, token history, engram v' ring, and the used KV slots ---- */

static size_t slot_bytes(const nd_engine_t *e) {
    const int kvd = e->m->KV * e->m->hd;
    return e->int8 ? (size_t)2 * kvd + (size_t)2 * e->m->KV * 4 : (size_t)2 * kvd * 4;
}

/* the used slots as two runs: sinks [0, n0) and ring [a1, a1 + n1) */
static void used_runs(const nd_engine_t *e, int pos, int sinks, int *n0, int *a1, int *n1) {
    if (e->window <= 0) {
        *n0 = pos < e->cap ? pos : e->cap;
        *a1 = 0;
        *n1 = 0;
        return;
    }
    *n0 = pos < sinks ? pos : sinks;
    int r = pos - sinks;
    r = r < 0 ? 0 : r > e->window ? e->window : r;
    *a1 = e->max_sinks;
    *n1 = r;
}

#define ND_STATE_WORDS 9
static size_t vhist_bytes(const nd_engine_t *e) {
    return (size_t)(e->m->nsites ? e->m->nsites : 1) * e->R * e->m->d * 4;
}

/* A state either carries every used slot, or (keep_sinks) only the ring: the sink slots are
   never written after the prefix that fills them, so a session returning to its tools prefix
   can leave them in place and restore a few kilobytes instead of the prefix's whole KV. */
#define ND_STATE_MAGIC_KEEP 0x4E444B32u /* "NDK2": sink slots not included */

static int stored_sink_slots(int n0, int keep_sinks) { return keep_sinks ? 0 : n0; }

size_t nd_state_size_ex(const nd_engine_t *e, int keep_sinks) {
    int n0, a1, n1;
    used_runs(e, e->pos, e->sinks, &n0, &a1, &n1);
    return ND_STATE_WORDS * 4 + sizeof(e->tokhist) + vhist_bytes(e) +
           (size_t)e->m->L * (stored_sink_slots(n0, keep_sinks) + n1) * slot_bytes(e);
}

size_t nd_state_size(const nd_engine_t *e) { return nd_state_size_ex(e, 0); }
/* copy slots [a, a + n) of every layer out of (dir 0) or into (dir 1) the cache. The state
 * holds int8 K and V as natural rows, per layer and head, then the scales slot by slot ([n][KV]),
 * whatever the cache's blocked layout. */
static uint8_t *copy_slots(nd_engine_t *e, uint8_t *p, int a, int n, int dir) {
    const int kvd = e->m->KV * e->m->hd, KV = e->m->KV, hd = e->m->hd;
    if (n <= 0) return p;
#define ND_CP(dst_cache, bytes)                                   \
    do {                                                          \
        if (dir) memcpy((dst_cache), p, (bytes));                 \
        else memcpy(p, (dst_cache), (bytes));                     \
        p += (bytes);                                             \
    } while (0)
    for (int l = 0; l < e->m->L; l++) {
        size_t base = (size_t)l * e->cap + a;
        if (e->int8) {
            for (int kv = 0; kv < 2; kv++)
                for (int h = 0; h < KV; h++)
                    for (int s = a; s < a + n; s++, p += hd) {
                        if (kv == 0 && dir) k8_put(k8_region(e, l, h), s, (const int8_t *)p, hd);
                        else if (kv == 0) k8_get(k8_region(e, l, h), s, (int8_t *)p, hd);
                        else if (dir) v8_put(v8_region(e, l, h), s, (const int8_t *)p, hd);
                        else v8_get(v8_region(e, l, h), s, (int8_t *)p, hd);
                    }
            for (int kv = 0; kv < 2; kv++)
                for (int s = a; s < a + n; s++)
                    for (int h = 0; h < KV; h++) {
                        float *f = (kv ? e->vs : e->ks) + kv_head(e, l, h) + s;
                        ND_CP(f, sizeof(float));
                    }
        } else {
            ND_CP(e->kf + base * kvd, (size_t)n * kvd * 4);
            ND_CP(e->vf + base * kvd, (size_t)n * kvd * 4);
        }
    }
#undef ND_CP
    return p;
}

size_t nd_state_save_ex(const nd_engine_t *e, void *buf, size_t cap, int keep_sinks) {
    size_t need = nd_state_size_ex(e, keep_sinks);
    if (cap < need) return 0;
    uint8_t *p = buf;
    int n0, a1, n1;
    used_runs(e, e->pos, e->sinks, &n0, &a1, &n1);
    const int s0 = stored_sink_slots(n0, keep_sinks);
    uint32_t hdr[ND_STATE_WORDS] = {keep_sinks ? ND_STATE_MAGIC_KEEP : ND_STATE_MAGIC,
                                    (uint32_t)e->pos,
                                    (uint32_t)e->int8,
                                    (uint32_t)e->window,
                                    (uint32_t)e->sinks,
                                    (uint32_t)e->max_sinks,
                                    (uint32_t)e->cap,
                                    (uint32_t)e->R,
                                    (uint32_t)(s0 + n1)};
    memcpy(p, hdr, sizeof(hdr));
    p += sizeof(hdr);
    memcpy(p, e->tokhist, sizeof(e->tokhist));
    p += sizeof(e->tokhist);
    memcpy(p, e->vhist, vhist_bytes(e));
    p += vhist_bytes(e);
    p = copy_slots((nd_engine_t *)e, p, 0, s0, 0);
    p = copy_slots((nd_engine_t *)e, p, a1, n1, 0);
    return need;
}

size_t nd_state_save(const nd_engine_t *e, void *buf, size_t cap) {
    return nd_state_save_ex(e, buf, cap, 0);
}

int nd_state_load(nd_engine_t *e, const void *buf, size_t n) {
    const uint8_t *p = buf;
    uint32_t hdr[ND_STATE_WORDS];
    if (n < sizeof(hdr)) return ND_ERR_STATE;
    memcpy(hdr, p, sizeof(hdr));
    const int keep_sinks = hdr[0] == ND_STATE_MAGIC_KEEP;
    if ((hdr[0] != ND_STATE_MAGIC && !keep_sinks) || hdr[2] != (uint32_t)e->int8 ||
        hdr[3] != (uint32_t)e->window || hdr[5] != (uint32_t)e->max_sinks ||
        hdr[6] != (uint32_t)e->cap || hdr[7] != (uint32_t)e->R ||
        hdr[4] > (uint32_t)e->max_sinks || hdr[1] > 0x7FFFFFFFu)
        return ND_ERR_STATE;
    const int pos = (int)hdr[1], sinks = (int)hdr[4];
    int n0, a1, n1;
    used_runs(e, pos, sinks, &n0, &a1, &n1);
    const int s0 = stored_sink_slots(n0, keep_sinks);
    if (hdr[8] != (uint32_t)(s0 + n1)) return ND_ERR_STATE;
    size_t need = sizeof(hdr) + sizeof(e->tokhist) + vhist_bytes(e) +
                  (size_t)e->m->L * (s0 + n1) * slot_bytes(e);
    if (n != need) return ND_ERR_STATE;
    p += sizeof(hdr);
    memcpy(e->tokhist, p, sizeof(e->tokhist));
    p += sizeof(e->tokhist);
    memcpy(e->vhist, p, vhist_bytes(e));
    p += vhist_bytes(e);
    uint8_t *q = (uint8_t *)p;
    q = copy_slots(e, q, 0, s0, 1);
    copy_slots(e, q, a1, n1, 1);
    e->pos = pos;
    e->sinks = e->window > 0 ? sinks : 0;
    return ND_OK;
}
