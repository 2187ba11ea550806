/* Portable C kernels: the fallback on any CPU and the arithmetic reference for the SIMD paths. */
#ifndef ND_ISA_PORTABLE_H
#define ND_ISA_PORTABLE_H
#include <math.h>
#include <string.h>

#include "nd_common.h"

void nd_fwht_portable(float *x, int n) {
    for (int h = 1; h < n; h <<= 1) {
        for (int i = 0; i < n; i += 2 * h) {
            for (int j = i; j < i + h; j++) {
                float a = x[j], b = x[j + h];
                x[j] = a + b;
                x[j + h] = a - b;
            }
        }
    }
    const float s = (float)(1.0 / sqrt((double)n));
    for (int i = 0; i < n; i++) x[i] *= s;
}

/* FP32 exact: any width and group, natural-order rotated activations. */
static void port_mv_f32(const nd_cq_t *m, const float *xr, float *y, int r0, int r1) {
    const int G = m->groups, gs = m->group;
    for (int r = r0; r < r1; r++) {
        const uint8_t *row = m->codes + (size_t)r * m->row_bytes;
        const uint16_t *nr = m->norms + (size_t)r * G;
        float acc = 0.f;
        for (int g = 0; g < G; g++) {
            float s = 0.f;
            const float *xg = xr + g * gs;
            if (m->fast && m->cbits == 2) {
                const uint8_t *c = row + g * 32;
                for (int b = 0; b < 32; b++) {
                    unsigned v = c[b];
                    s += m->cb[v & 3] * xg[4 * b] + m->cb[(v >> 2) & 3] * xg[4 * b + 1] +
                         m->cb[(v >> 4) & 3] * xg[4 * b + 2] + m->cb[v >> 6] * xg[4 * b + 3];
                }
            } else if (m->fast) {
                const uint8_t *c = row + g * 64;
                for (int b = 0; b < 64; b++) {
                    unsigned v = c[b];
                    s += m->cb[v & 15] * xg[2 * b] + m->cb[v >> 4] * xg[2 * b + 1];
                }
            } else {
                for (int k = 0; k < gs; k++) s += m->cb[nd_code_at(row, m->bits, g * gs + k)] * xg[k];
            }
            acc += nd_h2f(nr[g]) * s;
        }
        y[r] = acc;
    }
}

/* Exact int32 dot of one (row, group) against a nibble-permuted int8 activation group. */
static inline int32_t port_dot_i8(const nd_cq_t *m, const uint8_t *c, const int8_t *xq) {
    int32_t d = 0;
    if (m->cbits == 2) {
        const int8_t *A = m->tab_s[0], *B = m->tab_s[1];
        for (int b = 0; b < 32; b++) {
            unsigned lo = c[b] & 15, hi = c[b] >> 4;
            d += A[lo] * xq[b] + B[lo] * xq[32 + b] + A[hi] * xq[64 + b] + B[hi] * xq[96 + b];
        }
    } else {
        const int8_t *A = m->tab_s[0];
        for (int h = 0; h < 2; h++)
            for (int b = 0; b < 32; b++) {
                unsigned v = c[h * 32 + b];
                d += A[v & 15] * xq[h * 64 + b] + A[v >> 4] * xq[h * 64 + 32 + b];
            }
    }
    return d;
}

static void port_mv_i8(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1) {
    const int G = m->groups, gb = m->cbits * 16;
    for (int r = r0; r < r1; r++) {
        const uint8_t *row = m->codes + (size_t)r * m->row_bytes;
        const uint16_t *nr = m->norms + (size_t)r * G;
        float acc = 0.f;
        for (int g = 0; g < G; g++) {
            int32_t d = port_dot_i8(m, row + g * gb, a->xq + g * ND_GROUP);
            acc = ND_COMBINE(acc, d, a->xs[g], nd_h2f(nr[g]));
        }
        y[r] = acc;
    }
}

/* T tokens through the single-token kernels: the fallback wherever no blocked kernel exists.
 * Same per-(token, row) arithmetic as the blocked kernels' int8 path, so results match. */
typedef void (*nd_mv_f32_fn)(const nd_cq_t *, const float *, float *, int, int);
typedef void (*nd_mv_i8_fn)(const nd_cq_t *, const nd_act_t *, float *, int, int);

static void generic_mm_f32(nd_mv_f32_fn mv, const nd_cq_t *m, const nd_act_t *a, float *y, int ldy,
                           int r0, int r1) {
    for (int t = 0; t < a->T; t++) mv(m, a->xr + (size_t)t * a->in_pad, y + (size_t)t * ldy, r0, r1);
}

static void generic_mm_i8(nd_mv_i8_fn mv, const nd_cq_t *m, const nd_act_t *a, float *y, int ldy,
                          int r0, int r1) {
    nd_act_t one = *a;
    one.T = 1;
    for (int t = 0; t < a->T; t++) {
        one.xq = a->xq + (size_t)t * a->in_pad;
        one.xs = a->xs + (size_t)t * a->groups;
        one.xsum = a->xsum + (size_t)t * a->groups;
        mv(m, &one, y + (size_t)t * ldy, r0, r1);
    }
}

static void port_mm_f32(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                        float *scratch) {
    (void)scratch;
    generic_mm_f32(port_mv_f32, m, a, y, ldy, r0, r1);
}

static void port_mm_i8(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                       uint8_t *scratch) {
    (void)scratch;
    generic_mm_i8(port_mv_i8, m, a, y, ldy, r0, r1);
}

static float port_dot(const float *a, const float *b, int n) {
    float s = 0.f;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static void port_qk_blk(const int8_t *q, int ldq, int rows, const int8_t *K, int a, int b,
                        int hd, int32_t *out, int ldo) {
    for (int r = 0; r < rows; r++)
        for (int s = a; s < b; s++) {
            int32_t d = 0;
            for (int j = 0; j < hd; j++) d += q[(size_t)r * ldq + j] * K[nd_k8_at(s, j, hd)];
            out[(size_t)r * ldo + s] = d;
        }
}

static void port_attn_v_blk(int32_t *acc, const int8_t *V, int a, int b, const int16_t *w,
                            int ldw, int rows, int hd, int init) {
    for (int r = 0; r < rows; r++) {
        int32_t *o = acc + (size_t)r * hd;
        if (init) memset(o, 0, (size_t)hd * sizeof(int32_t));
        const int16_t *wr = w + (size_t)r * ldw;
        for (int s = a; s < b; s++) {
            const int32_t ws = wr[s - a];
            for (int j = 0; j < hd; j++) o[j] += ws * V[nd_v8_at(s, j, hd)];
        }
    }
}

static double port_peak_i8(long iters) {
    volatile int32_t sink;
    int32_t acc[16] = {0};
    int8_t w[16], x[16];
    for (int i = 0; i < 16; i++) {
        w[i] = (int8_t)(i * 7 - 50);
        x[i] = (int8_t)(i * 3 - 20);
    }
    for (long it = 0; it < iters; it++)
        for (int i = 0; i < 16; i++) acc[i] += w[i] * x[(i + it) & 15];
    sink = acc[3];
    (void)sink;
    return (double)iters * 16;
}

#endif
