/* The Needle 2 forward pass in C: embedding, 4-lane mHC, attention over a sink + ring KV cache,
 * Hadamard MLP, engram, final norm and tied output projection. Everything is allocated when the
 * engine is created; a token step allocates nothing. */
#include "nd_engine.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ND_STATE_MAGIC 0x4E445354u /* "NDST" */

/* ---------------------------------------------------------------------------------------- */
/* A small persistent thread pool: rows of one product are split into 8-row aligned ranges, so
 * every row is computed by exactly the same code whatever the thread count. */

typedef void (*pool_fn)(void *ctx, int part, int nparts);

typedef struct {
    int n;
    pthread_t th[16];
    pthread_mutex_t mu;
    pthread_cond_t cv, done;
    long gen;
    int pending, stop;
    pool_fn fn;
    void *ctx;
} pool_t;

typedef struct {
    pool_t *p;
    int idx;
} pool_arg;

static pool_arg g_args[16];

static void *pool_worker(void *arg) {
    pool_arg *pa = arg;
    pool_t *p = pa->p;
    long seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->gen == seen && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->gen;
        pool_fn fn = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->mu);
        fn(ctx, pa->idx, p->n);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void pool_run(pool_t *p, pool_fn fn, void *ctx, int parts) {
    if (!p || p->n <= 1 || parts <= 1) {
        fn(ctx, 0, 1);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->pending = p->n - 1;
    p->gen++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->n);
    pthread_mutex_lock(&p->mu);
    while (p->pending) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* ---------------------------------------------------------------------------------------- */

struct nd_engine {
    const nd_model_t *m;
    const nd_isa_t *isa;
    int int8, window, sinks, cap, tmax, pos, nthreads;
    size_t bytes;
    pool_t *pool;
    /* KV cache [L][cap][KV*hd]: FP32 in the exact mode, int8 + per-head scales in int8 mode */
    float *kf, *vf;
    int8_t *k8, *v8;
    float *ks, *vs; /* [L][cap][KV] */
    /* engram state per site: v' ring of the last (taps-1)*dil+1 positions, token history */
    float *vhist; /* [nsites][R][d] */
    int R;
    int32_t tokhist[8];
    /* per-chunk buffers */
    float *x0, *X, *nx, *hp, *hq, *hr, *u, *bx, *blk, *h, *qb, *kb, *vb, *gb, *att, *ao, *z;
    float *e, *ek, *ev, *xf, *cosb, *sinb, *scores, *tmp;
    nd_act_t act;
    int32_t *tokwin;
    int32_t *slotlist;
    double timers[8];
};

static void *xalloc(nd_engine_t *e, size_t n) {
    void *p = NULL;
    n = (n + 63) & ~(size_t)63;
    if (posix_memalign(&p, 64, n ? n : 64)) return NULL;
    memset(p, 0, n);
    e->bytes += n;
    return p;
}

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline float sigm(float x) { return 1.f / (1.f + expf(-x)); }

static void zcn(const float *x, const float *g, float *y, int n) {
    float ss = 0.f;
    for (int i = 0; i < n; i++) ss += x[i] * x[i];
    const float r = 1.f / sqrtf(ss / n + 1e-6f);
    for (int i = 0; i < n; i++) y[i] = (1.f + g[i]) * x[i] * r;
}

static void rms_unit(const float *x, float *y, int n) {
    float ss = 0.f;
    for (int i = 0; i < n; i++) ss += x[i] * x[i];
    const float r = 1.f / sqrtf(ss / n + 1e-6f);
    for (int i = 0; i < n; i++) y[i] = x[i] * r;
}

static int act_compat(const nd_cq_t *a, const nd_cq_t *b) {
    return a->in_pad == b->in_pad && a->group == b->group && a->cbits == b->cbits &&
           a->fast == b->fast && a->cbscale == b->cbscale;
}

typedef struct {
    const nd_isa_t *isa;
    const nd_cq_t *m;
    const nd_act_t *a;
    float *y;
    int ldy, r0, r1, int8;
} mm_job;

static void mm_part(void *ctx, int part, int nparts) {
    mm_job *j = ctx;
    int nb = (j->r1 - j->r0 + 7) / 8;
    int b0 = (int)((long)nb * part / nparts), b1 = (int)((long)nb * (part + 1) / nparts);
    int r0 = j->r0 + 8 * b0, r1 = j->r0 + 8 * b1;
    if (r1 > j->r1) r1 = j->r1;
    if (r0 >= r1) return;
    const nd_isa_t *isa = j->isa;
    if (j->int8 && j->m->fast) {
        if (j->a->T == 1)
            isa->mv_i8(j->m, j->a, j->y, r0, r1);
        else
            isa->mm_i8(j->m, j->a, j->y, j->ldy, r0, r1, NULL);
    } else {
        if (j->a->T == 1)
            isa->mv_f32(j->m, j->a->xr, j->y, r0, r1);
        else
            isa->mm_f32(j->m, j->a, j->y, j->ldy, r0, r1, NULL);
    }
}

/* y[t * ldy + r] for rows [r0, r1) of m (y is indexed by absolute row). */
static void matmul(nd_engine_t *e, const nd_cq_t *m, float *y, int ldy, int r0, int r1) {
    mm_job j = {e->isa, m, &e->act, y, ldy, r0, r1, e->int8};
    double work = (double)(r1 - r0) * m->in_pad * e->act.T;
    pool_run(e->pool, mm_part, &j, work >= 1.5e6 ? e->nthreads : 1);
}

static void prepare(nd_engine_t *e, const nd_cq_t *m, const float *x, int T, int ldx) {
    nd_act_prepare(e->isa, m, &e->act, x, T, ldx, e->int8);
}

/* Dense FP32 row of a CQ matrix (embedding, engram tables): codebook x norm, inverse rotation. */
static void decode_row(nd_engine_t *e, const nd_cq_t *m, int r, float *out) {
    const uint8_t *row = m->codes + (size_t)r * m->row_bytes;
    float buf[ND_GROUP * 4];
    for (int g = 0; g < m->groups; g++) {
        float n = nd_h2f(m->norms[(size_t)r * m->groups + g]);
        /* groups wider than the buffer are decoded in place (their rows are whole groups) */
        float *w = m->group <= ND_GROUP * 4 ? buf : out + g * m->group;
        for (int k = 0; k < m->group; k++) w[k] = m->cb[nd_code_at(row, m->bits, g * m->group + k)] * n;
        e->isa->fwht(w, m->group);
        int take = m->cols - g * m->group;
        if (take > m->group) take = m->group;
        if (w != out + g * m->group) memcpy(out + g * m->group, w, take * sizeof(float));
    }
}

static inline int kv_slot(const nd_engine_t *e, int p) {
    if (e->window <= 0) return p;
    if (p < e->sinks) return p;
    return e->sinks + (p - e->sinks) % e->window;
}

/* Slots a query at position t may attend, oldest first within each part. */
static int attend_slots(const nd_engine_t *e, int t, int32_t *out) {
    int n = 0;
    if (e->window <= 0) {
        for (int p = 0; p <= t; p++) out[n++] = p;
        return n;
    }
    int s_end = e->sinks < t + 1 ? e->sinks : t + 1;
    for (int p = 0; p < s_end; p++) out[n++] = p;
    int lo = t - e->window + 1;
    if (lo < e->sinks) lo = e->sinks;
    for (int p = lo; p <= t; p++) out[n++] = kv_slot(e, p);
    return n;
}

static void quant_head(const float *x, int n, int8_t *q, float *scale) {
    float amax = 0.f;
    for (int i = 0; i < n; i++) amax = fmaxf(amax, fabsf(x[i]));
    if (amax == 0.f) {
        memset(q, 0, n);
        *scale = 0.f;
        return;
    }
    const float inv = 127.f / amax;
    for (int i = 0; i < n; i++) {
        long r = lrintf(x[i] * inv);
        q[i] = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
    }
    *scale = amax / 127.f;
}

static void attention(nd_engine_t *e, int l, int t_abs, const float *q, float *out) {
    const nd_model_t *m = e->m;
    const int hd = m->hd, KV = m->KV, rep = m->H / m->KV, kvd = KV * hd;
    const int n = attend_slots(e, t_abs, e->slotlist);
    const float scale = 1.f / sqrtf((float)hd);
    const size_t lbase = (size_t)l * e->cap;
    for (int h = 0; h < m->H; h++) {
        const int kh = h / rep;
        const float *qh = q + h * hd;
        float mx = -INFINITY;
        for (int i = 0; i < n; i++) {
            const size_t s = lbase + e->slotlist[i];
            float sc;
            if (e->int8)
                sc = e->isa->dot_i8(qh, e->k8 + s * kvd + kh * hd, hd) * e->ks[s * KV + kh];
            else
                sc = e->isa->dot(qh, e->kf + s * kvd + kh * hd, hd);
            sc *= scale;
            e->scores[i] = sc;
            if (sc > mx) mx = sc;
        }
        float sum = 0.f;
        for (int i = 0; i < n; i++) {
            e->scores[i] = expf(e->scores[i] - mx);
            sum += e->scores[i];
        }
        const float inv = 1.f / sum;
        float *o = out + h * hd;
        memset(o, 0, hd * sizeof(float));
        for (int i = 0; i < n; i++) {
            const size_t s = lbase + e->slotlist[i];
            const float w = e->scores[i] * inv;
            if (e->int8) {
                e->isa->axpy_i8(w * e->vs[s * KV + kh], e->v8 + s * kvd + kh * hd, o, hd);
            } else {
                e->isa->axpy(w, e->vf + s * kvd + kh * hd, o, hd);
            }
        }
    }
}

static void rope(float *x, int hd, const float *c, const float *s) {
    const int half = hd / 2;
    for (int i = 0; i < half; i++) {
        float a = x[i], b = x[i + half];
        x[i] = a * c[i] - b * s[i];
        x[i + half] = b * c[i] + a * s[i];
    }
}

static void block(nd_engine_t *e, int l, int T) {
    const nd_model_t *m = e->m;
    const nd_layer_w *w = &m->layers[l];
    const int d = m->d, hd = m->hd, H = m->H, KV = m->KV, qd = H * hd, kvd = KV * hd;
    const int half = hd / 2;
    double t0 = now_ns();
    for (int t = 0; t < T; t++) zcn(e->bx + (size_t)t * d, w->norm_in, e->h + (size_t)t * d, d);
    prepare(e, &w->q, e->h, T, d);
    matmul(e, &w->q, e->qb, qd, 0, qd);
    if (!act_compat(&w->q, &w->k)) prepare(e, &w->k, e->h, T, d);
    matmul(e, &w->k, e->kb, kvd, 0, kvd);
    if (!act_compat(&w->k, &w->v)) prepare(e, &w->v, e->h, T, d);
    matmul(e, &w->v, e->vb, kvd, 0, kvd);
    if (!act_compat(&w->v, &w->g)) prepare(e, &w->g, e->h, T, d);
    matmul(e, &w->g, e->gb, qd, 0, qd);
    double t1 = now_ns();
    e->timers[1] += t1 - t0;
    for (int t = 0; t < T; t++) {
        float *q = e->qb + (size_t)t * qd, *k = e->kb + (size_t)t * kvd, *v = e->vb + (size_t)t * kvd;
        const float *c = e->cosb + (size_t)t * half, *s = e->sinb + (size_t)t * half;
        for (int h = 0; h < H; h++) {
            zcn(q + h * hd, w->q_norm, q + h * hd, hd);
            rope(q + h * hd, hd, c, s);
        }
        for (int h = 0; h < KV; h++) {
            zcn(k + h * hd, w->k_norm, k + h * hd, hd);
            rope(k + h * hd, hd, c, s);
        }
        const int p = e->pos + t;
        const size_t slot = (size_t)l * e->cap + kv_slot(e, p);
        if (e->int8) {
            for (int h = 0; h < KV; h++) {
                quant_head(k + h * hd, hd, e->k8 + slot * kvd + h * hd, &e->ks[slot * KV + h]);
                quant_head(v + h * hd, hd, e->v8 + slot * kvd + h * hd, &e->vs[slot * KV + h]);
            }
        } else {
            memcpy(e->kf + slot * kvd, k, kvd * sizeof(float));
            memcpy(e->vf + slot * kvd, v, kvd * sizeof(float));
        }
        float *o = e->att + (size_t)t * qd;
        attention(e, l, p, q, o);
        const float *g = e->gb + (size_t)t * qd;
        for (int i = 0; i < qd; i++) o[i] *= sigm(g[i]);
    }
    double t2 = now_ns();
    e->timers[2] += t2 - t1;
    prepare(e, &w->o, e->att, T, qd);
    matmul(e, &w->o, e->ao, d, 0, d);
    double t3 = now_ns();
    e->timers[3] += t3 - t2;
    const float ag = sigm(w->attn_gate);
    const int n = m->hada_n;
    for (int t = 0; t < T; t++) {
        float *x = e->blk + (size_t)t * d;
        const float *bx = e->bx + (size_t)t * d;
        float *a = e->ao + (size_t)t * d;
        zcn(a, w->post_norm, a, d);
        for (int i = 0; i < d; i++) x[i] = bx[i] + ag * a[i];
        float *z = e->z;
        zcn(x, w->pre_hada, z, d);
        for (int i = d; i < n; i++) z[i] = 0.f;
        for (int i = 0; i < n; i++) z[i] *= w->d1[i];
        e->isa->fwht(z, n);
        for (int i = 0; i < n; i++) {
            float v = w->d2[i] * z[i];
            z[i] = v * sigm(v);
        }
        e->isa->fwht(z, n);
        for (int i = 0; i < d; i++) x[i] += w->d3[i] * z[i];
    }
    e->timers[4] += now_ns() - t3;
}

static void engram(nd_engine_t *e, int si, int T) {
    const nd_model_t *m = e->m;
    const nd_engram_w *w = &m->eng[si];
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
            decode_row(e, &w->tables, row, e->tmp);
            memcpy(dst, e->tmp, sub * sizeof(float));
        }
    }
    prepare(e, &w->key, e->e, T, ed);
    matmul(e, &w->key, e->ek, d, 0, d);
    if (!act_compat(&w->key, &w->value)) prepare(e, &w->value, e->e, T, ed);
    matmul(e, &w->value, e->ev, d, 0, d);
    float *vh = e->vhist + (size_t)si * e->R * d;
    const float isd = 1.f / sqrtf((float)d);
    for (int t = 0; t < T; t++) {
        const int p = e->pos + t;
        memcpy(vh + (size_t)(p % e->R) * d, e->ev + (size_t)t * d, d * sizeof(float));
        float *v = e->tmp; /* conv output */
        memset(v, 0, d * sizeof(float));
        for (int mm = 0; mm < m->conv_taps; mm++) {
            const int pp = p - mm * m->dil;
            if (pp < 0) break;
            const float *src = vh + (size_t)(pp % e->R) * d, *tap = w->taps + (size_t)mm * d;
            for (int i = 0; i < d; i++) v[i] += tap[i] * src[i];
        }
        const float *u = e->u + (size_t)t * d;
        float *un = e->tmp + d, *kn = e->tmp + 2 * d;
        rms_unit(u, un, d);
        rms_unit(e->ek + (size_t)t * d, kn, d);
        float s = 0.f;
        for (int i = 0; i < d; i++) s += un[i] * kn[i];
        const float gate = sigm(s * isd);
        float *bx = e->bx + (size_t)t * d;
        for (int i = 0; i < d; i++) bx[i] = u[i] + gate * v[i];
    }
    e->timers[5] += now_ns() - t0;
}

static void sinkhorn(float A[4][4], int n) {
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

static int forward_chunk(nd_engine_t *e, const int32_t *ids, int T, float *logits, int mode,
                         const int32_t *cand, int ncand, float *cells) {
    const nd_model_t *m = e->m;
    const int d = m->d, nl = m->lanes, L = m->L, half = m->hd / 2, ld = nl * d;
    double t0 = now_ns();
    const float sd = sqrtf((float)d);
    for (int t = 0; t < T; t++) {
        float *x0 = e->x0 + (size_t)t * d;
        decode_row(e, &m->emb, ids[t], x0);
        for (int i = 0; i < d; i++) x0[i] *= sd;
        for (int i = 0; i < nl; i++) memcpy(e->X + (size_t)t * ld + i * d, x0, d * sizeof(float));
        if (cells) memcpy(cells + (size_t)t * (L + 1) * d, x0, d * sizeof(float));
        /* RoPE angles for this absolute position, in double for the angle product */
        const int p = e->pos + t;
        for (int i = 0; i < half; i++) {
            double f = pow((double)m->rope_theta, -2.0 * i / (double)m->hd);
            double ang = (double)p * (double)(float)f;
            e->cosb[(size_t)t * half + i] = (float)cos(ang);
            e->sinb[(size_t)t * half + i] = (float)sin(ang);
        }
    }
    /* token window for the engram hash: 7 earlier tokens, then this chunk */
    for (int i = 0; i < 7; i++) e->tokwin[i] = e->tokhist[i + 1];
    for (int t = 0; t < T; t++) e->tokwin[7 + t] = ids[t];
    e->timers[0] += now_ns() - t0;

    for (int l = 0; l < L; l++) {
        double tm = now_ns();
        const int s = l % nl;
        for (int t = 0; t < T; t++) rms_unit(e->X + (size_t)t * ld, e->nx + (size_t)t * ld, ld);
        prepare(e, &m->phi_pre, e->nx, T, ld);
        matmul(e, &m->phi_pre, e->hp - l * nl, nl, l * nl, (l + 1) * nl);
        if (!act_compat(&m->phi_pre, &m->phi_post)) prepare(e, &m->phi_post, e->nx, T, ld);
        matmul(e, &m->phi_post, e->hq - l * nl, nl, l * nl, (l + 1) * nl);
        if (!act_compat(&m->phi_post, &m->phi_res)) prepare(e, &m->phi_res, e->nx, T, ld);
        matmul(e, &m->phi_res, e->hr - l * nl * nl, nl * nl, l * nl * nl, (l + 1) * nl * nl);
        for (int t = 0; t < T; t++) {
            const float *X = e->X + (size_t)t * ld;
            float *u = e->u + (size_t)t * d;
            memset(u, 0, d * sizeof(float));
            for (int i = 0; i < nl; i++) {
                float hpre = sigm(m->a_pre[l] * e->hp[t * nl + i] + m->b_pre[l * nl + i] +
                                  (i == s ? 4.f : -4.f));
                for (int k = 0; k < d; k++) u[k] += hpre * X[i * d + k];
            }
            memcpy(e->bx + (size_t)t * d, u, d * sizeof(float));
        }
        e->timers[6] += now_ns() - tm;
        for (int si = 0; si < m->nsites; si++)
            if (m->sites[si] == l) engram(e, si, T);
        block(e, l, T);
        tm = now_ns();
        for (int t = 0; t < T; t++) {
            float *X = e->X + (size_t)t * ld;
            const float *u = e->u + (size_t)t * d, *y = e->blk + (size_t)t * d;
            float hpost[4], A[4][4], Xn[4 * 1024];
            float *xn = ld <= 4 * 1024 ? Xn : e->tmp;
            for (int i = 0; i < nl; i++)
                hpost[i] = 2.f * sigm(m->a_post[l] * e->hq[t * nl + i] + m->b_post[l * nl + i] +
                                      (i == s ? 0.f : -4.f));
            for (int i = 0; i < nl; i++)
                for (int j = 0; j < nl; j++)
                    A[i][j] = m->a_res[l] * e->hr[t * nl * nl + i * nl + j] + m->b_res[(l * nl + i) * nl + j];
            sinkhorn(A, nl);
            for (int i = 0; i < nl; i++) {
                float *o = xn + i * d;
                for (int k = 0; k < d; k++) o[k] = hpost[i] * (y[k] - u[k]);
                for (int j = 0; j < nl; j++) {
                    const float pij = A[i][j];
                    const float *xj = X + j * d;
                    for (int k = 0; k < d; k++) o[k] += pij * xj[k];
                }
            }
            memcpy(X, xn, ld * sizeof(float));
            if (cells) {
                float *c = cells + ((size_t)t * (L + 1) + l + 1) * d;
                for (int k = 0; k < d; k++) {
                    float acc = 0.f;
                    for (int i = 0; i < nl; i++) acc += X[i * d + k];
                    c[k] = acc / nl;
                }
            }
        }
        e->timers[6] += now_ns() - tm;
    }

    double tf = now_ns();
    int t_first = mode == ND_LOGITS_ALL ? 0 : T - 1;
    int nt = mode == ND_LOGITS_NONE ? 0 : T - t_first;
    for (int t = t_first; t < T && nt; t++) {
        const float *X = e->X + (size_t)t * ld;
        float *xf = e->xf + (size_t)(t - t_first) * d;
        for (int k = 0; k < d; k++) {
            float acc = 0.f;
            for (int i = 0; i < nl; i++) acc += X[i * d + k];
            xf[k] = acc / nl;
        }
        zcn(xf, m->final_norm, xf, d);
    }
    if (nt) {
        prepare(e, &m->emb, e->xf, nt, d);
        if (cand) {
            /* candidate rows one by one, each with the same kernel as a full projection */
            nd_act_t one = e->act;
            for (int t = 0; t < nt; t++) {
                one.T = 1;
                one.xr = e->act.xr + (size_t)t * e->act.in_pad;
                one.xq = e->act.xq + (size_t)t * e->act.in_pad;
                one.xs = e->act.xs + (size_t)t * e->act.groups;
                one.xsum = e->act.xsum + (size_t)t * e->act.groups;
                float *out = logits + (size_t)t * ncand;
                for (int c = 0; c < ncand; c++) {
                    const int r = cand[c];
                    float y;
                    if (e->int8 && m->emb.fast)
                        e->isa->mv_i8(&m->emb, &one, &y - r, r, r + 1);
                    else
                        e->isa->mv_f32(&m->emb, one.xr, &y - r, r, r + 1);
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
                           int capacity, int tmax, int threads) {
    const nd_isa_t *ia = nd_isa_select(isa);
    if (!ia || m->lanes > 4 || m->nsites > 4) return NULL;
    nd_engine_t *e = calloc(1, sizeof(*e));
    if (!e) return NULL;
    e->m = m;
    e->isa = ia;
    e->int8 = int8;
    e->window = window;
    e->sinks = window > 0 ? (sinks < 0 ? 0 : sinks) : 0;
    e->cap = window > 0 ? e->sinks + window : capacity;
    e->tmax = tmax < 1 ? 1 : tmax;
    e->nthreads = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    const int d = m->d, qd = m->H * m->hd, kvd = m->KV * m->hd, L = m->L, T = e->tmax;
    const int ed = m->ntables * m->sub_dim;
    const size_t kvn = (size_t)L * e->cap * kvd;
    if (int8) {
        e->k8 = xalloc(e, kvn);
        e->v8 = xalloc(e, kvn);
        e->ks = xalloc(e, (size_t)L * e->cap * m->KV * 4);
        e->vs = xalloc(e, (size_t)L * e->cap * m->KV * 4);
    } else {
        e->kf = xalloc(e, kvn * 4);
        e->vf = xalloc(e, kvn * 4);
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
    e->scores = xalloc(e, (size_t)e->cap * 4);
    int tmpn = 4 * d + 4 * ND_GROUP;
    if (m->sub_dim + ND_GROUP > tmpn) tmpn = m->sub_dim + ND_GROUP;
    if (ld > tmpn) tmpn = ld;
    if (d > tmpn) tmpn = d;
    e->tmp = xalloc(e, (size_t)(tmpn + m->emb.in_pad + m->eng[0].tables.in_pad) * 4);
    e->tokwin = xalloc(e, (size_t)(T + 8) * 4);
    e->slotlist = xalloc(e, (size_t)e->cap * 4);
    if (!e->scores || !e->act.xr || (!e->kf && !e->k8)) {
        nd_engine_free(e);
        return NULL;
    }
    if (e->nthreads > 1) {
        pool_t *p = calloc(1, sizeof(pool_t));
        p->n = e->nthreads;
        pthread_mutex_init(&p->mu, NULL);
        pthread_cond_init(&p->cv, NULL);
        pthread_cond_init(&p->done, NULL);
        for (int i = 1; i < p->n; i++) {
            pool_arg *pa = malloc(sizeof(pool_arg));
            pa->p = p;
            pa->idx = i;
            pthread_create(&p->th[i], NULL, pool_worker, pa);
        }
        e->pool = p;
    }
    (void)g_args;
    nd_engine_reset(e);
    return e;
}

void nd_engine_free(nd_engine_t *e) {
    if (!e) return;
    if (e->pool) {
        pool_t *p = e->pool;
        pthread_mutex_lock(&p->mu);
        p->stop = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        for (int i = 1; i < p->n; i++) pthread_join(p->th[i], NULL);
        free(p);
    }
    void *bufs[] = {e->kf, e->vf, e->k8, e->v8, e->ks, e->vs, e->vhist, e->act.xr, e->act.xq,
                    e->act.xs, e->act.xsum, e->x0, e->X, e->nx, e->hp, e->hq, e->hr, e->u,
                    e->bx, e->blk, e->h, e->qb, e->kb, e->vb, e->gb, e->att, e->ao, e->z,
                    e->e, e->ek, e->ev, e->xf, e->cosb, e->sinb, e->scores, e->tmp, e->tokwin,
                    e->slotlist};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) free(bufs[i]);
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

/* ---- prefix state: position, token history, engram v' ring, and the used KV slots ---- */

static size_t slot_bytes(const nd_engine_t *e) {
    const int kvd = e->m->KV * e->m->hd;
    return e->int8 ? (size_t)2 * kvd + (size_t)2 * e->m->KV * 4 : (size_t)2 * kvd * 4;
}

static int used_slots(const nd_engine_t *e) { return e->pos < e->cap ? e->pos : e->cap; }

size_t nd_state_size(const nd_engine_t *e) {
    return 8 * 4 + sizeof(e->tokhist) + (size_t)(e->m->nsites ? e->m->nsites : 1) * e->R * e->m->d * 4 +
           (size_t)e->m->L * used_slots(e) * slot_bytes(e);
}

size_t nd_state_save(const nd_engine_t *e, void *buf, size_t cap) {
    size_t need = nd_state_size(e);
    if (cap < need) return 0;
    uint8_t *p = buf;
    const int kvd = e->m->KV * e->m->hd, KV = e->m->KV, us = used_slots(e);
    uint32_t hdr[8] = {ND_STATE_MAGIC, (uint32_t)e->pos, (uint32_t)e->int8, (uint32_t)e->window,
                       (uint32_t)e->sinks, (uint32_t)e->cap, (uint32_t)us, (uint32_t)e->R};
    memcpy(p, hdr, sizeof(hdr));
    p += sizeof(hdr);
    memcpy(p, e->tokhist, sizeof(e->tokhist));
    p += sizeof(e->tokhist);
    size_t vh = (size_t)(e->m->nsites ? e->m->nsites : 1) * e->R * e->m->d * 4;
    memcpy(p, e->vhist, vh);
    p += vh;
    for (int l = 0; l < e->m->L; l++) {
        size_t base = (size_t)l * e->cap;
        if (e->int8) {
            memcpy(p, e->k8 + base * kvd, (size_t)us * kvd), p += (size_t)us * kvd;
            memcpy(p, e->v8 + base * kvd, (size_t)us * kvd), p += (size_t)us * kvd;
            memcpy(p, e->ks + base * KV, (size_t)us * KV * 4), p += (size_t)us * KV * 4;
            memcpy(p, e->vs + base * KV, (size_t)us * KV * 4), p += (size_t)us * KV * 4;
        } else {
            memcpy(p, e->kf + base * kvd, (size_t)us * kvd * 4), p += (size_t)us * kvd * 4;
            memcpy(p, e->vf + base * kvd, (size_t)us * kvd * 4), p += (size_t)us * kvd * 4;
        }
    }
    return need;
}

int nd_state_load(nd_engine_t *e, const void *buf, size_t n) {
    const uint8_t *p = buf;
    uint32_t hdr[8];
    if (n < sizeof(hdr)) return ND_ERR_STATE;
    memcpy(hdr, p, sizeof(hdr));
    if (hdr[0] != ND_STATE_MAGIC || hdr[2] != (uint32_t)e->int8 || hdr[3] != (uint32_t)e->window ||
        hdr[4] != (uint32_t)e->sinks || hdr[5] != (uint32_t)e->cap || hdr[7] != (uint32_t)e->R)
        return ND_ERR_STATE;
    const int us = (int)hdr[6];
    const int pos = (int)hdr[1];
    if (us != (pos < e->cap ? pos : e->cap)) return ND_ERR_STATE;
    size_t vh = (size_t)(e->m->nsites ? e->m->nsites : 1) * e->R * e->m->d * 4;
    size_t need = sizeof(hdr) + sizeof(e->tokhist) + vh + (size_t)e->m->L * us * slot_bytes(e);
    if (n != need) return ND_ERR_STATE;
    p += sizeof(hdr);
    memcpy(e->tokhist, p, sizeof(e->tokhist));
    p += sizeof(e->tokhist);
    memcpy(e->vhist, p, vh);
    p += vh;
    const int kvd = e->m->KV * e->m->hd, KV = e->m->KV;
    for (int l = 0; l < e->m->L; l++) {
        size_t base = (size_t)l * e->cap;
        if (e->int8) {
            memcpy(e->k8 + base * kvd, p, (size_t)us * kvd), p += (size_t)us * kvd;
            memcpy(e->v8 + base * kvd, p, (size_t)us * kvd), p += (size_t)us * kvd;
            memcpy(e->ks + base * KV, p, (size_t)us * KV * 4), p += (size_t)us * KV * 4;
            memcpy(e->vs + base * KV, p, (size_t)us * KV * 4), p += (size_t)us * KV * 4;
        } else {
            memcpy(e->kf + base * kvd, p, (size_t)us * kvd * 4), p += (size_t)us * kvd * 4;
            memcpy(e->vf + base * kvd, p, (size_t)us * kvd * 4), p += (size_t)us * kvd * 4;
        }
    }
    e->pos = pos;
    return ND_OK;
}
