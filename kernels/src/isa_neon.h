/* aarch64 NEON kernels without the dot-product extension (Cortex-A72 / Pi 4 class).
 * ASIMD is part of the aarch64 baseline, so these need no target attribute. */
#ifndef ND_ISA_NEON_H
#define ND_ISA_NEON_H
#if defined(__aarch64__)
#include <arm_neon.h>

#include "nd_common.h"

static void neon_fwht(float *x, int n) {
    if (n < 4) {
        nd_fwht_portable(x, n);
        return;
    }
    const uint32x4_t odd1 = {0, ~0u, 0, ~0u}, odd2 = {0, 0, ~0u, ~0u};
    for (int i = 0; i < n; i += 4) {
        float32x4_t v = vld1q_f32(x + i);
        float32x4_t sw = vrev64q_f32(v);
        v = vbslq_f32(odd1, vsubq_f32(sw, v), vaddq_f32(v, sw));
        sw = vextq_f32(v, v, 2);
        v = vbslq_f32(odd2, vsubq_f32(sw, v), vaddq_f32(v, sw));
        vst1q_f32(x + i, v);
    }
    for (int h = 4; h < n; h <<= 1)
        for (int i = 0; i < n; i += 2 * h)
            for (int j = i; j < i + h; j += 4) {
                float32x4_t a = vld1q_f32(x + j), b = vld1q_f32(x + j + h);
                vst1q_f32(x + j, vaddq_f32(a, b));
                vst1q_f32(x + j + h, vsubq_f32(a, b));
            }
    const float32x4_t s = vdupq_n_f32((float)(1.0 / sqrt((double)n)));
    for (int i = 0; i < n; i += 4) vst1q_f32(x + i, vmulq_f32(vld1q_f32(x + i), s));
}

/* Float codebook values of 4 codes held in the low bits of a u32 lane each: a byte table lookup
 * over the codebook's bytes (CQ2: 16 bytes, one register; CQ4: 64 bytes, four). */
static inline uint8x16_t neon_cbidx(uint32x4_t code) {
    return vreinterpretq_u8_u32(vmlaq_n_u32(vdupq_n_u32(0x03020100u), code, 0x04040404u));
}

static void neon_mv_f32(const nd_cq_t *m, const float *xr, float *y, int r0, int r1) {
    if (!m->fast) {
        port_mv_f32(m, xr, y, r0, r1);
        return;
    }
    const int G = m->groups;
    const uint8x16_t t2 = vld1q_u8((const uint8_t *)m->cb);
    uint8x16x4_t t4;
    t4.val[0] = vld1q_u8((const uint8_t *)m->cb);
    t4.val[1] = vld1q_u8((const uint8_t *)(m->cb + 4));
    t4.val[2] = vld1q_u8((const uint8_t *)(m->cb + 8));
    t4.val[3] = vld1q_u8((const uint8_t *)(m->cb + 12));
    const int32x4_t sh2 = {0, -2, -4, -6}, sh4a = {0, -4, -8, -12}, sh4b = {-16, -20, -24, -28};
    const uint32x4_t m3 = vdupq_n_u32(3), m15 = vdupq_n_u32(15);
    for (int r = r0; r < r1; r++) {
        const uint8_t *row = m->codes + (size_t)r * m->row_bytes;
        const uint16_t *nr = m->norms + (size_t)r * G;
        float32x4_t racc = vdupq_n_f32(0.f);
        for (int g = 0; g < G; g++) {
            const float *xg = xr + g * ND_GROUP;
            float32x4_t a0 = vdupq_n_f32(0.f), a1 = vdupq_n_f32(0.f);
            if (m->cbits == 2) {
                const uint8_t *c = row + g * 32;
                for (int b = 0; b < 32; b += 2) {
                    uint32x4_t c0 = vandq_u32(vshlq_u32(vdupq_n_u32(c[b]), sh2), m3);
                    uint32x4_t c1 = vandq_u32(vshlq_u32(vdupq_n_u32(c[b + 1]), sh2), m3);
                    float32x4_t w0 = vreinterpretq_f32_u8(vqtbl1q_u8(t2, neon_cbidx(c0)));
                    float32x4_t w1 = vreinterpretq_f32_u8(vqtbl1q_u8(t2, neon_cbidx(c1)));
                    a0 = vfmaq_f32(a0, w0, vld1q_f32(xg + 4 * b));
                    a1 = vfmaq_f32(a1, w1, vld1q_f32(xg + 4 * b + 4));
                }
            } else {
                const uint8_t *c = row + g * 64;
                for (int b = 0; b < 64; b += 4) {
                    uint32_t w;
                    memcpy(&w, c + b, 4);
                    uint32x4_t c0 = vandq_u32(vshlq_u32(vdupq_n_u32(w), sh4a), m15);
                    uint32x4_t c1 = vandq_u32(vshlq_u32(vdupq_n_u32(w), sh4b), m15);
                    float32x4_t w0 = vreinterpretq_f32_u8(vqtbl4q_u8(t4, neon_cbidx(c0)));
                    float32x4_t w1 = vreinterpretq_f32_u8(vqtbl4q_u8(t4, neon_cbidx(c1)));
                    a0 = vfmaq_f32(a0, w0, vld1q_f32(xg + 2 * b));
                    a1 = vfmaq_f32(a1, w1, vld1q_f32(xg + 2 * b + 4));
                }
            }
            racc = vfmaq_n_f32(racc, vaddq_f32(a0, a1), nd_h2f(nr[g]));
        }
        y[r] = vaddvq_f32(racc);
    }
}

/* int8 dot of 16 weights by 16 activations, accumulated in int32 lanes (exact). */
static inline int32x4_t neon_dot16(int32x4_t acc, int8x16_t w, int8x16_t x) {
    acc = vpadalq_s16(acc, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
    return vpadalq_s16(acc, vmull_high_s8(w, x));
}

/* One (row, group) dot in the nibble-permuted layout, written for any 16-lane dot step. */
#define ND_NEON_ROWDOT(NAME, ATTR, DOT)                                                         \
    ATTR static inline int32x4_t NAME(const nd_cq_t *m, const uint8_t *c, const int8x16_t *x,   \
                                      int8x16_t TA, int8x16_t TB) {                             \
        const uint8x16_t m0f = vdupq_n_u8(0x0F);                                               \
        int32x4_t s = vdupq_n_s32(0);                                                           \
        if (m->cbits == 2) {                                                                    \
            for (int h = 0; h < 2; h++) {                                                       \
                uint8x16_t v = vld1q_u8(c + 16 * h);                                            \
                uint8x16_t lo = vandq_u8(v, m0f), hi = vshrq_n_u8(v, 4);                        \
                s = DOT(s, vqtbl1q_s8(TA, lo), x[0 + h]);                                       \
                s = DOT(s, vqtbl1q_s8(TB, lo), x[2 + h]);                                       \
                s = DOT(s, vqtbl1q_s8(TA, hi), x[4 + h]);                                       \
                s = DOT(s, vqtbl1q_s8(TB, hi), x[6 + h]);                                       \
            }                                                                                   \
        } else {                                                                                \
            for (int q = 0; q < 4; q++) {                                                       \
                uint8x16_t v = vld1q_u8(c + 16 * q);                                            \
                uint8x16_t lo = vandq_u8(v, m0f), hi = vshrq_n_u8(v, 4);                        \
                int h = q >> 1, o = q & 1;                                                      \
                s = DOT(s, vqtbl1q_s8(TA, lo), x[h * 4 + o]);                                   \
                s = DOT(s, vqtbl1q_s8(TA, hi), x[h * 4 + 2 + o]);                               \
            }                                                                                   \
        }                                                                                       \
        return s;                                                                               \
    }

#define ND_NEON_MV_I8(NAME, ATTR, ROWDOT)                                                       \
    ATTR static void NAME(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1) {       \
        const int G = m->groups, gb = m->cbits * 16;                                            \
        const int8x16_t TA = vld1q_s8(m->tab_s[0]), TB = vld1q_s8(m->tab_s[1]);                \
        int r = r0;                                                                             \
        for (; r + 4 <= r1; r += 4) {                                                           \
            const uint8_t *row = m->codes + (size_t)r * m->row_bytes;                           \
            const uint16_t *nr = m->norms + (size_t)r * G;                                      \
            const size_t rb = m->row_bytes;                                                     \
            float32x4_t acc = vdupq_n_f32(0.f);                                                 \
            for (int g = 0; g < G; g++) {                                                       \
                const int8_t *xg = a->xq + g * ND_GROUP;                                        \
                int8x16_t x[8];                                                                 \
                for (int j = 0; j < 8; j++) x[j] = vld1q_s8(xg + 16 * j);                       \
                int32x4_t s0 = ROWDOT(m, row + g * gb, x, TA, TB);                              \
                int32x4_t s1 = ROWDOT(m, row + rb + g * gb, x, TA, TB);                         \
                int32x4_t s2 = ROWDOT(m, row + 2 * rb + g * gb, x, TA, TB);                     \
                int32x4_t s3 = ROWDOT(m, row + 3 * rb + g * gb, x, TA, TB);                     \
                int32x4_t d = vpaddq_s32(vpaddq_s32(s0, s1), vpaddq_s32(s2, s3));               \
                float nv[4] = {nd_h2f(nr[g]), nd_h2f(nr[G + g]), nd_h2f(nr[2 * G + g]),         \
                               nd_h2f(nr[3 * G + g])};                                          \
                float32x4_t f = vmulq_f32(vcvtq_f32_s32(d), vdupq_n_f32(a->xs[g]));             \
                acc = vaddq_f32(acc, vmulq_f32(f, vld1q_f32(nv)));                              \
            }                                                                                   \
            vst1q_f32(y + r, acc);                                                              \
        }                                                                                       \
        if (r < r1) port_mv_i8(m, a, y, r, r1);                                                 \
    }

ND_NEON_ROWDOT(neon_rowdot, , neon_dot16)
ND_NEON_MV_I8(neon_mv_i8, , neon_rowdot)

static void neon_mm_f32(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                        float *scratch) {
    (void)scratch;
    generic_mm_f32(neon_mv_f32, m, a, y, ldy, r0, r1);
}

static void neon_mm_i8(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                       uint8_t *scratch) {
    (void)scratch;
    generic_mm_i8(neon_mv_i8, m, a, y, ldy, r0, r1);
}

static float neon_dotf(const float *a, const float *b, int n) {
    float32x4_t s0 = vdupq_n_f32(0.f), s1 = vdupq_n_f32(0.f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        s0 = vfmaq_f32(s0, vld1q_f32(a + i), vld1q_f32(b + i));
        s1 = vfmaq_f32(s1, vld1q_f32(a + i + 4), vld1q_f32(b + i + 4));
    }
    float s = vaddvq_f32(vaddq_f32(s0, s1));
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

/* The dot-product instruction's arithmetic without it: lane i += the 4 products of bytes
 * 4i..4i+3 (two adjacent products fit int16 since |q|, |k| <= 127). */
static inline int32x4_t neon_sdot4(int32x4_t acc, int8x16_t w, int8x16_t x) {
    const int16x8_t p = vpaddq_s16(vmull_s8(vget_low_s8(w), vget_low_s8(x)), vmull_high_s8(w, x));
    return vpadalq_s16(acc, p);
}

/* q . k over the blocked K layout (nd_k8_at): a 16-byte load holds a 4-byte chunk of 4 keys and
 * the query's chunk is broadcast, so each dot step adds to 4 keys' sums; two blocks by two rows
 * per pass. DOT4 is the 4-byte-per-lane dot (vdotq_s32 or neon_sdot4). Exact int32. */
#define ND_NEON_QKB(NAME, ATTR, DOT4)                                                           \
    ATTR static void NAME(const int8_t *q, int ldq, int rows, const int8_t *K, int a, int b,  \
                          int hd, int32_t *out, int ldo) {                                      \
        const int hdp = nd_hdp(hd), nc = hdp / 4;                                               \
        if (b <= a) return;                                                                     \
        const int blk0 = a >> 3, blk1 = (b + 7) >> 3;                                           \
        for (int t0 = blk0; t0 < blk1; t0 += 16) {                                              \
            const int t1 = t0 + 16 < blk1 ? t0 + 16 : blk1;                                     \
            for (int r = 0; r < rows; r += 2) {                                                 \
                const int two = r + 1 < rows;                                                   \
                const int8_t *qa = q + (size_t)r * ldq, *qb = two ? qa + ldq : qa;              \
                int32_t *ya = out + (size_t)r * ldo, *yb = two ? ya + ldo : NULL;               \
                for (int bi = t0; bi < t1;) {                                                   \
                    const int nb = t1 - bi >= 2 ? 2 : 1;                                        \
                    const int8_t *kb = K + (size_t)bi * 8 * hdp;                                \
                    int32x4_t sa[4], sb[4];                                                     \
                    for (int u = 0; u < 2 * nb; u++) sa[u] = sb[u] = vdupq_n_s32(0);            \
                    for (int c = 0; c < nc; c++) {                                              \
                        int32_t xa, xb;                                                         \
                        memcpy(&xa, qa + 4 * c, 4);                                             \
                        memcpy(&xb, qb + 4 * c, 4);                                             \
                        const int8x16_t va = vreinterpretq_s8_s32(vdupq_n_s32(xa));             \
                        const int8x16_t vb = vreinterpretq_s8_s32(vdupq_n_s32(xb));             \
                        for (int u = 0; u < 2 * nb; u++) {                                      \
                            const int8x16_t k = vld1q_s8(kb + (size_t)(u >> 1) * 8 * hdp +      \
                                                         32 * c + 16 * (u & 1));                \
                            sa[u] = DOT4(sa[u], k, va);                                         \
                            sb[u] = DOT4(sb[u], k, vb);                                         \
                        }                                                                       \
                    }                                                                           \
                    for (int u = 0; u < 2 * nb; u++) {                                          \
                        const int s0 = bi * 8 + 4 * u;                                          \
                        if (s0 >= a && s0 + 4 <= b) {                                           \
                            vst1q_s32(ya + s0, sa[u]);                                          \
                            if (two) vst1q_s32(yb + s0, sb[u]);                                 \
                        } else {                                                                \
                            int32_t ta[4], tb[4];                                               \
                            vst1q_s32(ta, sa[u]);                                               \
                            vst1q_s32(tb, sb[u]);                                               \
                            nd_store_in_run(ya, yb, ta, tb, s0, 4, a, b);                       \
                        }                                                                       \
                    }                                                                           \
                    bi += nb;                                                                   \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }

ND_NEON_QKB(neon_qk_blk, , neon_sdot4)

/* Integer V accumulation over the slot-pair layout (nd_v8_at): widened to int16, the pairs
 * (v_even[d], v_odd[d]) are multiplied-accumulated-long by (w_even, w_odd) into int32 lanes that
 * keep the two slots apart; one pairwise add per dimension pair at the end. Exact int32. */
static void neon_attn_v_blk(int32_t *acc, const int8_t *V, int a, int b, const int16_t *w,
                            int ldw, int rows, int hd, int init) {
    if (hd % 16) {
        port_attn_v_blk(acc, V, a, b, w, ldw, rows, hd, init);
        return;
    }
    if (init) memset(acc, 0, (size_t)rows * hd * sizeof(int32_t));
    if (b <= a) return;
    const int p0 = a >> 1, p1 = (b + 1) >> 1;
    for (int r0 = 0; r0 < rows; r0 += 2) {
        const int nr = rows - r0 >= 2 ? 2 : 1;
        for (int d0 = 0; d0 < hd; d0 += 16) {
            int32x4_t s[2][8];
            for (int r = 0; r < nr; r++)
                for (int i = 0; i < 8; i++) s[r][i] = vdupq_n_s32(0);
            for (int p = p0; p < p1; p++) {
                int16x8_t wv[2]; /* (w_even, w_odd) in every lane pair */
                for (int r = 0; r < nr; r++)
                    wv[r] = vreinterpretq_s16_s32(
                        vdupq_n_s32(nd_w16_pair_edge(w + (size_t)(r0 + r) * ldw, p, a, b)));
                const int8_t *vp = V + (size_t)p * 2 * hd + 2 * d0;
                for (int h = 0; h < 2; h++) {
                    const int8x16_t v8 = vld1q_s8(vp + 16 * h);
                    const int16x8_t lo = vmovl_s8(vget_low_s8(v8)), hi = vmovl_high_s8(v8);
                    for (int r = 0; r < nr; r++) {
                        int32x4_t *t = s[r] + 4 * h;
                        t[0] = vmlal_s16(t[0], vget_low_s16(lo), vget_low_s16(wv[r]));
                        t[1] = vmlal_high_s16(t[1], lo, wv[r]);
                        t[2] = vmlal_s16(t[2], vget_low_s16(hi), vget_low_s16(wv[r]));
                        t[3] = vmlal_high_s16(t[3], hi, wv[r]);
                    }
                }
            }
            for (int r = 0; r < nr; r++) {
                int32_t *o = acc + (size_t)(r0 + r) * hd + d0;
                for (int i = 0; i < 4; i++)
                    vst1q_s32(o + 4 * i, vaddq_s32(vld1q_s32(o + 4 * i),
                                                   vpaddq_s32(s[r][2 * i], s[r][2 * i + 1])));
            }
        }
    }
}

static double neon_peak_i8(long iters) {
    int32x4_t acc[8];
    int8x16_t w = vdupq_n_s8(3), x = vdupq_n_s8(-5);
    for (int i = 0; i < 8; i++) acc[i] = vdupq_n_s32(0);
    for (long it = 0; it < iters; it++)
        for (int i = 0; i < 8; i++) {
            acc[i] = neon_dot16(acc[i], w, x);
            __asm__ volatile("" : "+w"(acc[i]));
        }
    volatile int sink = vgetq_lane_s32(acc[0], 0) + vgetq_lane_s32(acc[7], 1);
    (void)sink;
    return (double)iters * 8 * 16;
}

#endif
#endif
