/* x86-64 AVX2 + FMA kernels (and an AVX-VNNI variant of the int8 ones). Compiled with per-function
 * target attributes: nd_kernels.c only calls them after cpuid says the CPU has the features. */
#ifndef ND_ISA_AVX2_H
#define ND_ISA_AVX2_H
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "nd_common.h"

#define ND_AVX2 __attribute__((target("avx2,fma,f16c")))

/* Butterflies in the same order as the portable path (values are bit-identical): the three
 * in-register stages act within one 8-float block, which is all stages 1, 2, 4 ever touch. */
/* n == 128 (one CQ group): each 64-float half through all its stages in registers, then the
 * last stage and the scale. The same butterflies on the same values as the generic order. */
ND_AVX2 static inline void avx2_fwht128(float *x) {
    for (int half = 0; half < 2; half++) {
        float *p = x + 64 * half;
        __m256 v[8];
        for (int i = 0; i < 8; i++) {
            __m256 a = _mm256_loadu_ps(p + 8 * i);
            __m256 sw = _mm256_permute_ps(a, 0xB1);
            a = _mm256_blend_ps(_mm256_add_ps(a, sw), _mm256_sub_ps(sw, a), 0xAA);
            sw = _mm256_permute_ps(a, 0x4E);
            a = _mm256_blend_ps(_mm256_add_ps(a, sw), _mm256_sub_ps(sw, a), 0xCC);
            sw = _mm256_permute2f128_ps(a, a, 1);
            v[i] = _mm256_blend_ps(_mm256_add_ps(a, sw), _mm256_sub_ps(sw, a), 0xF0);
        }
#define ND_BF(j, k)                                                                              \
    {                                                                                            \
        __m256 a_ = v[j], b_ = v[k];                                                             \
        v[j] = _mm256_add_ps(a_, b_);                                                            \
        v[k] = _mm256_sub_ps(a_, b_);                                                            \
    }
        ND_BF(0, 1) ND_BF(2, 3) ND_BF(4, 5) ND_BF(6, 7)
        ND_BF(0, 2) ND_BF(1, 3) ND_BF(4, 6) ND_BF(5, 7)
        ND_BF(0, 4) ND_BF(1, 5) ND_BF(2, 6) ND_BF(3, 7)
#undef ND_BF
        for (int i = 0; i < 8; i++) _mm256_storeu_ps(p + 8 * i, v[i]);
    }
    const __m256 s = _mm256_set1_ps((float)(1.0 / sqrt(128.0)));
    for (int i = 0; i < 8; i++) {
        __m256 a = _mm256_loadu_ps(x + 8 * i), b = _mm256_loadu_ps(x + 64 + 8 * i);
        _mm256_storeu_ps(x + 8 * i, _mm256_mul_ps(_mm256_add_ps(a, b), s));
        _mm256_storeu_ps(x + 64 + 8 * i, _mm256_mul_ps(_mm256_sub_ps(a, b), s));
    }
}

ND_AVX2 static void avx2_fwht(float *x, int n) {
    if (n == 128) {
        avx2_fwht128(x);
        return;
    }
    if (n < 8) {
        nd_fwht_portable(x, n);
        return;
    }
    for (int i = 0; i < n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256 sw = _mm256_permute_ps(v, 0xB1);
        v = _mm256_blend_ps(_mm256_add_ps(v, sw), _mm256_sub_ps(sw, v), 0xAA);
        sw = _mm256_permute_ps(v, 0x4E);
        v = _mm256_blend_ps(_mm256_add_ps(v, sw), _mm256_sub_ps(sw, v), 0xCC);
        sw = _mm256_permute2f128_ps(v, v, 1);
        v = _mm256_blend_ps(_mm256_add_ps(v, sw), _mm256_sub_ps(sw, v), 0xF0);
        _mm256_storeu_ps(x + i, v);
    }
    for (int h = 8; h < n; h <<= 1) {
        for (int i = 0; i < n; i += 2 * h) {
            for (int j = i; j < i + h; j += 8) {
                __m256 a = _mm256_loadu_ps(x + j), b = _mm256_loadu_ps(x + j + h);
                _mm256_storeu_ps(x + j, _mm256_add_ps(a, b));
                _mm256_storeu_ps(x + j + h, _mm256_sub_ps(a, b));
            }
        }
    }
    const __m256 s = _mm256_set1_ps((float)(1.0 / sqrt((double)n)));
    for (int i = 0; i < n; i += 8) _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), s));
}


ND_AVX2 static inline float avx2_hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/* Codebook values of 8 consecutive natural-order codes starting at `c` (2 or 4 bits each). */
ND_AVX2 static inline __m256 avx2_cb8_2(__m256 cbv, uint32_t word, __m256i sh) {
    return _mm256_permutevar8x32_ps(cbv, _mm256_srlv_epi32(_mm256_set1_epi32((int)word), sh));
}
ND_AVX2 static inline __m256 avx2_cb8_4(__m256 lo8, __m256 hi8, uint32_t word, __m256i sh) {
    __m256i idx = _mm256_srlv_epi32(_mm256_set1_epi32((int)word), sh);
    __m256 lo = _mm256_permutevar8x32_ps(lo8, idx), hi = _mm256_permutevar8x32_ps(hi8, idx);
    return _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(idx, 28)));
}

ND_AVX2 static void avx2_mv_f32(const nd_cq_t *m, const float *xr, float *y, int r0, int r1) {
    if (!m->fast) {
        port_mv_f32(m, xr, y, r0, r1);
        return;
    }
    const int G = m->groups;
    const __m256i sh2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256i sh2b = _mm256_setr_epi32(16, 18, 20, 22, 24, 26, 28, 30);
    const __m256i sh4 = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    /* vpermps reads 3 index bits: a 4-entry codebook is repeated so bit 2 does not matter */
    const __m256 cb2 = _mm256_setr_ps(m->cb[0], m->cb[1], m->cb[2], m->cb[3], m->cb[0], m->cb[1],
                                      m->cb[2], m->cb[3]);
    const __m256 cblo = _mm256_loadu_ps(m->cb), cbhi = _mm256_loadu_ps(m->cb + 8);
    for (int r = r0; r < r1; r++) {
        const uint8_t *row = m->codes + (size_t)r * m->row_bytes;
        const uint16_t *nr = m->norms + (size_t)r * G;
        __m256 racc = _mm256_setzero_ps();
        for (int g = 0; g < G; g++) {
            const float *xg = xr + g * ND_GROUP;
            __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
            if (m->cbits == 2) {
                const uint8_t *c = row + g * 32;
                for (int i = 0; i < 8; i++) {
                    uint32_t w;
                    memcpy(&w, c + 4 * i, 4);
                    a0 = _mm256_fmadd_ps(avx2_cb8_2(cb2, w, sh2), _mm256_loadu_ps(xg + 16 * i), a0);
                    a1 = _mm256_fmadd_ps(avx2_cb8_2(cb2, w, sh2b), _mm256_loadu_ps(xg + 16 * i + 8), a1);
                }
            } else {
                const uint8_t *c = row + g * 64;
                for (int i = 0; i < 16; i += 2) {
                    uint32_t w0, w1;
                    memcpy(&w0, c + 4 * i, 4);
                    memcpy(&w1, c + 4 * i + 4, 4);
                    a0 = _mm256_fmadd_ps(avx2_cb8_4(cblo, cbhi, w0, sh4), _mm256_loadu_ps(xg + 8 * i), a0);
                    a1 = _mm256_fmadd_ps(avx2_cb8_4(cblo, cbhi, w1, sh4), _mm256_loadu_ps(xg + 8 * i + 8), a1);
                }
            }
            racc = _mm256_fmadd_ps(_mm256_add_ps(a0, a1), _mm256_set1_ps(nd_h2f(nr[g])), racc);
        }
        y[r] = avx2_hsum(racc);
    }
}

/* |w| x sign(x, w): both factors fit maddubs without saturation since |w|, |x| <= 127. */
ND_AVX2 static inline __m256i avx2_dot32(__m256i w, __m256i x) {
    __m256i p = _mm256_maddubs_epi16(_mm256_abs_epi8(w), _mm256_sign_epi8(x, w));
    return _mm256_madd_epi16(p, _mm256_set1_epi16(1));
}

ND_AVX2 static inline __m128i avx2_hsum4_epi32(__m256i s0, __m256i s1, __m256i s2, __m256i s3) {
    __m256i t = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
    return _mm_add_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
}

ND_AVX2 static inline __m128 avx2_norms4(const uint16_t *n0, int G, int g) {
    __m128i h = _mm_setr_epi16((short)n0[g], (short)n0[G + g], (short)n0[2 * G + g],
                               (short)n0[3 * G + g], 0, 0, 0, 0);
    return _mm_cvtph_ps(h);
}

/* The int8 row-group dot, written once for the sign-trick and the VNNI variants. */
#define ND_AVX2_ROWDOT(NAME, ATTR, TABLE, DOT, ADD)                                              \
    ATTR static inline __m256i NAME(const nd_cq_t *m, const uint8_t *c, const __m256i *x,      \
                                    __m256i TA, __m256i TB) {                                  \
        const __m256i m0f = _mm256_set1_epi8(0x0F);                                           \
        __m256i s = _mm256_setzero_si256();                                                    \
        if (m->cbits == 2) {                                                                   \
            __m256i v = _mm256_loadu_si256((const __m256i *)c);                                \
            __m256i lo = _mm256_and_si256(v, m0f);                                             \
            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);                       \
            s = DOT(s, _mm256_shuffle_epi8(TA, lo), x[0]);                                     \
            s = DOT(s, _mm256_shuffle_epi8(TB, lo), x[1]);                                     \
            s = DOT(s, _mm256_shuffle_epi8(TA, hi), x[2]);                                     \
            s = DOT(s, _mm256_shuffle_epi8(TB, hi), x[3]);                                     \
        } else {                                                                               \
            for (int h = 0; h < 2; h++) {                                                      \
                __m256i v = _mm256_loadu_si256((const __m256i *)(c + 32 * h));                 \
                __m256i lo = _mm256_and_si256(v, m0f);                                         \
                __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);                   \
                s = DOT(s, _mm256_shuffle_epi8(TA, lo), x[2 * h]);                             \
                s = DOT(s, _mm256_shuffle_epi8(TA, hi), x[2 * h + 1]);                         \
            }                                                                                  \
        }                                                                                      \
        return s;                                                                              \
    }

#define ND_SIGN_DOT(s, w, x) _mm256_add_epi32((s), avx2_dot32((w), (x)))
ND_AVX2_ROWDOT(avx2_rowdot, ND_AVX2, tab_s, ND_SIGN_DOT, 0)

/* 8x8 transpose of 32-bit lanes: r[i] holds row i's 8 dwords; afterwards r[k] holds dword k of
 * every row (the weights of 4 consecutive codes of 8 rows, one lane per row). */
ND_AVX2 static inline void avx2_tr8x8_epi32(__m256i r[8]) {
    __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

/* FP16 norms of rows [rb, rb + 8), all G groups, to nf[g][i] (F16C: exact like nd_h2f) */
ND_AVX2 static inline void avx2_norms8(const nd_cq_t *m, int rb, float nf[][8]) {
    const int G = m->groups;
    const uint16_t *src = m->norms + (size_t)rb * G;
    float buf[8 * 64] ND_ALIGNED(32);
    int n = 8 * G, k = 0;
    for (; k + 8 <= n; k += 8)
        _mm256_store_ps(buf + k, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + k))));
    for (; k < n; k++) buf[k] = nd_h2f(src[k]);
    for (int g = 0; g < G; g++)
        for (int i = 0; i < 8; i++) nf[g][i] = buf[i * G + g];
}

/* 4 rows per pass: the activation group sits in registers and serves all four. */
#define ND_AVX2_MV_I8(NAME, ATTR, ROWDOT, TABLE, OFFSET)                                        \
    ATTR static void NAME(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1) {       \
        const int G = m->groups, gb = m->cbits * 16;                                            \
        const __m256i TA = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[0]));                                     \
        const __m256i TB = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[1]));                                     \
        int r = r0;                                                                             \
        for (; r + 4 <= r1; r += 4) {                                                           \
            const uint8_t *row = m->codes + (size_t)r * m->row_bytes;                           \
            const uint16_t *nr = m->norms + (size_t)r * G;                                      \
            __m128 acc = _mm_setzero_ps();                                                      \
            for (int g = 0; g < G; g++) {                                                       \
                const int8_t *xg = a->xq + g * ND_GROUP;                                        \
                __m256i x[4];                                                                   \
                for (int j = 0; j < 4; j++) x[j] = _mm256_loadu_si256((const __m256i *)(xg + 32 * j)); \
                const size_t rb = m->row_bytes;                                                 \
                __m256i s0 = ROWDOT(m, row + g * gb, x, TA, TB);                                \
                __m256i s1 = ROWDOT(m, row + rb + g * gb, x, TA, TB);                           \
                __m256i s2 = ROWDOT(m, row + 2 * rb + g * gb, x, TA, TB);                       \
                __m256i s3 = ROWDOT(m, row + 3 * rb + g * gb, x, TA, TB);                       \
                __m128i d = avx2_hsum4_epi32(s0, s1, s2, s3);                                   \
                if (OFFSET) d = _mm_sub_epi32(d, _mm_set1_epi32(128 * a->xsum[g]));             \
                __m128 f = _mm_mul_ps(_mm_cvtepi32_ps(d), _mm_set1_ps(a->xs[g]));               \
                acc = _mm_add_ps(acc, _mm_mul_ps(f, avx2_norms4(nr, G, g)));                    \
            }                                                                                   \
            _mm_storeu_ps(y + r, acc);                                                          \
        }                                                                                       \
        if (r < r1) port_mv_i8(m, a, y, r, r1);                                                 \
    }

ND_AVX2_MV_I8(avx2_mv4_i8, ND_AVX2, avx2_rowdot, tab_s, 0)

/* 8 rows per pass: one reduction tree gives the 8 rows' group dots in one register, the norms of
 * the 8 rows are converted once per block; the float combine per row is the 4-row kernel's. */
#define ND_AVX2_MV8_I8(NAME, ATTR, ROWDOT, TABLE, OFFSET, MV4)                                  \
    ATTR static void NAME(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1) {       \
        const int G = m->groups, gb = m->cbits * 16;                                            \
        if (G > 64) {                                                                           \
            MV4(m, a, y, r0, r1);                                                               \
            return;                                                                             \
        }                                                                                       \
        const __m256i TA = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[0]));                                     \
        const __m256i TB = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[1]));                                     \
        float nf[64][8] ND_ALIGNED(32);                                                         \
        const size_t rb = m->row_bytes;                                                         \
        int r = r0;                                                                             \
        for (; r + 8 <= r1; r += 8) {                                                           \
            avx2_norms8(m, r, nf);                                                              \
            const uint8_t *row = m->codes + (size_t)r * rb;                                     \
            /* short weight streams (a few hundred rows): prefetch two blocks ahead */          \
            if (r + 24 <= r1) {                                                                 \
                const char *pf = (const char *)(row + 16 * rb);                                 \
                for (size_t o = 0; o < 8 * rb; o += 64) _mm_prefetch(pf + o, _MM_HINT_T0);      \
                _mm_prefetch((const char *)(m->norms + (size_t)(r + 16) * G), _MM_HINT_T0);     \
            }                                                                                   \
            __m256 acc = _mm256_setzero_ps();                                                   \
            for (int g = 0; g < G; g++) {                                                       \
                const int8_t *xg = a->xq + g * ND_GROUP;                                        \
                __m256i x[4];                                                                   \
                for (int j = 0; j < 4; j++) x[j] = _mm256_loadu_si256((const __m256i *)(xg + 32 * j)); \
                const uint8_t *c = row + g * gb;                                                \
                __m256i s0 = ROWDOT(m, c, x, TA, TB);                                           \
                __m256i s1 = ROWDOT(m, c + rb, x, TA, TB);                                      \
                __m256i s2 = ROWDOT(m, c + 2 * rb, x, TA, TB);                                  \
                __m256i s3 = ROWDOT(m, c + 3 * rb, x, TA, TB);                                  \
                __m256i h0 = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3)); \
                s0 = ROWDOT(m, c + 4 * rb, x, TA, TB);                                          \
                s1 = ROWDOT(m, c + 5 * rb, x, TA, TB);                                          \
                s2 = ROWDOT(m, c + 6 * rb, x, TA, TB);                                          \
                s3 = ROWDOT(m, c + 7 * rb, x, TA, TB);                                          \
                __m256i h1 = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3)); \
                __m256i d = _mm256_add_epi32(_mm256_permute2x128_si256(h0, h1, 0x20),            \
                                             _mm256_permute2x128_si256(h0, h1, 0x31));           \
                if (OFFSET) d = _mm256_sub_epi32(d, _mm256_set1_epi32(128 * a->xsum[g]));       \
                __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(d), _mm256_set1_ps(a->xs[g]));      \
                acc = _mm256_add_ps(acc, _mm256_mul_ps(f, _mm256_load_ps(nf[g])));              \
            }                                                                                   \
            _mm256_storeu_ps(y + r, acc);                                                       \
        }                                                                                       \
        if (r < r1) MV4(m, a, y, r, r1);                                                        \
    }

ND_AVX2_MV8_I8(avx2_mv_i8, ND_AVX2, avx2_rowdot, tab_s, 0, avx2_mv4_i8)

/* Blocked T-token kernels: 8 rows x up to 8 tokens per register tile; each decoded weight group
 * is reused by every token. Per (token, row) the arithmetic equals the single-token kernels'. */
#define ND_AVX2_MM_I8(NAME, ATTR, TABLE, OFFSET, STEP, MV)                                      \
    ATTR static void NAME(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0,       \
                          int r1, uint8_t *scratch) {                                          \
        (void)scratch;                                                                          \
        const int G = m->groups, gb = m->cbits * 16, T = a->T;                                  \
        if (G > 64) {                                                                           \
            generic_mm_i8(MV, m, a, y, ldy, r0, r1);                                            \
            return;                                                                             \
        }                                                                                       \
        uint8_t dec[8][ND_GROUP] ND_ALIGNED(32);                                                \
        __m256i wT[32];                                                                         \
        float nf[64][8] ND_ALIGNED(32);                                                         \
        const __m256i TA = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[0]));                                     \
        const __m256i TB = _mm256_broadcastsi128_si256(                                          \
            _mm_loadu_si128((const __m128i *)m->TABLE[1]));                                     \
        const __m256i m0f = _mm256_set1_epi8(0x0F);                                             \
        int rb = r0;                                                                            \
        for (; rb + 8 <= r1; rb += 8) {                                                         \
            avx2_norms8(m, rb, nf);                                                             \
            for (int t = 0; t < T; t++) memset(y + (size_t)t * ldy + rb, 0, 8 * sizeof(float)); \
            for (int g = 0; g < G; g++) {                                                       \
                for (int i = 0; i < 8; i++) {                                                   \
                    const uint8_t *c = m->codes + (size_t)(rb + i) * m->row_bytes + g * gb;     \
                    if (m->cbits == 2) {                                                        \
                        __m256i v = _mm256_loadu_si256((const __m256i *)c);                     \
                        __m256i lo = _mm256_and_si256(v, m0f);                                  \
                        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);            \
                        _mm256_store_si256((__m256i *)&dec[i][0], _mm256_shuffle_epi8(TA, lo));  \
                        _mm256_store_si256((__m256i *)&dec[i][32], _mm256_shuffle_epi8(TB, lo)); \
                        _mm256_store_si256((__m256i *)&dec[i][64], _mm256_shuffle_epi8(TA, hi)); \
                        _mm256_store_si256((__m256i *)&dec[i][96], _mm256_shuffle_epi8(TB, hi)); \
                    } else {                                                                    \
                        for (int h = 0; h < 2; h++) {                                           \
                            __m256i v = _mm256_loadu_si256((const __m256i *)(c + 32 * h));      \
                            __m256i lo = _mm256_and_si256(v, m0f);                              \
                            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m0f);        \
                            _mm256_store_si256((__m256i *)&dec[i][64 * h], _mm256_shuffle_epi8(TA, lo)); \
                            _mm256_store_si256((__m256i *)&dec[i][64 * h + 32], _mm256_shuffle_epi8(TA, hi)); \
                        }                                                                       \
                    }                                                                           \
                }                                                                               \
                for (int q = 0; q < 4; q++) {                                                   \
                    __m256i r8[8];                                                              \
                    for (int i = 0; i < 8; i++) r8[i] = _mm256_load_si256((const __m256i *)&dec[i][32 * q]); \
                    avx2_tr8x8_epi32(r8);                                                       \
                    for (int k = 0; k < 8; k++) wT[8 * q + k] = r8[k];                          \
                }                                                                               \
                const __m256 nv = _mm256_load_ps(nf[g]);                                        \
                for (int t0 = 0; t0 < T; t0 += 8) {                                             \
                    const int8_t *xp[8];                                                        \
                    for (int t = 0; t < 8; t++)                                                 \
                        xp[t] = a->xq + (size_t)(t0 + t < T ? t0 + t : t0) * a->in_pad + g * ND_GROUP; \
                    __m256i acc[8];                                                             \
                    for (int t = 0; t < 8; t++) acc[t] = _mm256_setzero_si256();                \
                    for (int c = 0; c < 32; c++) {                                              \
                        const __m256i w = wT[c];                                                \
                        for (int t = 0; t < 8; t++) {                                           \
                            int32_t xv;                                                         \
                            memcpy(&xv, xp[t] + 4 * c, 4);                                      \
                            acc[t] = STEP(acc[t], w, _mm256_set1_epi32(xv));                    \
                        }                                                                       \
                    }                                                                           \
                    for (int t = 0; t < 8 && t0 + t < T; t++) {                                 \
                        __m256i d = acc[t];                                                     \
                        const size_t tg = (size_t)(t0 + t) * a->groups + g;                     \
                        if (OFFSET) d = _mm256_sub_epi32(d, _mm256_set1_epi32(128 * a->xsum[tg])); \
                        float *yp = y + (size_t)(t0 + t) * ldy + rb;                            \
                        __m256 f = _mm256_mul_ps(_mm256_cvtepi32_ps(d), _mm256_set1_ps(a->xs[tg])); \
                        _mm256_storeu_ps(yp, _mm256_add_ps(_mm256_loadu_ps(yp), _mm256_mul_ps(f, nv))); \
                    }                                                                           \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
        if (rb < r1) generic_mm_i8(MV, m, a, y, ldy, rb, r1);                                   \
    }

ND_AVX2_MM_I8(avx2_mm_i8, ND_AVX2, tab_s, 0, ND_SIGN_DOT, avx2_mv_i8)

ND_AVX2 static void avx2_mm_f32(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0,
                                int r1, float *scratch) {
    (void)scratch;
    const int G = m->groups, T = a->T;
    if (!m->fast || G > 64) {
        generic_mm_f32(avx2_mv_f32, m, a, y, ldy, r0, r1);
        return;
    }
    float dec[8][ND_GROUP] ND_ALIGNED(32);
    float wT[ND_GROUP][8] ND_ALIGNED(32);
    float nf[64][8] ND_ALIGNED(32);
    const __m256i sh2 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256i sh2b = _mm256_setr_epi32(16, 18, 20, 22, 24, 26, 28, 30);
    const __m256i sh4 = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    const __m256 cb2 = _mm256_setr_ps(m->cb[0], m->cb[1], m->cb[2], m->cb[3], m->cb[0], m->cb[1],
                                      m->cb[2], m->cb[3]);
    const __m256 cblo = _mm256_loadu_ps(m->cb), cbhi = _mm256_loadu_ps(m->cb + 8);
    const int gb = m->cbits * 16;
    int rb = r0;
    for (; rb + 8 <= r1; rb += 8) {
        for (int i = 0; i < 8; i++)
            for (int g = 0; g < G; g++) nf[g][i] = nd_h2f(m->norms[(size_t)(rb + i) * G + g]);
        for (int t = 0; t < T; t++) memset(y + (size_t)t * ldy + rb, 0, 8 * sizeof(float));
        for (int g = 0; g < G; g++) {
            for (int i = 0; i < 8; i++) {
                const uint8_t *c = m->codes + (size_t)(rb + i) * m->row_bytes + g * gb;
                for (int k = 0; k < ND_GROUP; k += 16) {
                    uint32_t w0, w1;
                    if (m->cbits == 2) {
                        memcpy(&w0, c + k / 4, 4);
                        _mm256_store_ps(&dec[i][k], avx2_cb8_2(cb2, w0, sh2));
                        _mm256_store_ps(&dec[i][k + 8], avx2_cb8_2(cb2, w0, sh2b));
                    } else {
                        memcpy(&w0, c + k / 2, 4);
                        memcpy(&w1, c + k / 2 + 4, 4);
                        _mm256_store_ps(&dec[i][k], avx2_cb8_4(cblo, cbhi, w0, sh4));
                        _mm256_store_ps(&dec[i][k + 8], avx2_cb8_4(cblo, cbhi, w1, sh4));
                    }
                }
            }
            for (int k = 0; k < ND_GROUP; k++)
                for (int i = 0; i < 8; i++) wT[k][i] = dec[i][k];
            const __m256 nv = _mm256_load_ps(nf[g]);
            for (int t0 = 0; t0 < T; t0 += 8) {
                const float *xp[8];
                for (int t = 0; t < 8; t++)
                    xp[t] = a->xr + (size_t)(t0 + t < T ? t0 + t : t0) * a->in_pad + g * ND_GROUP;
                __m256 acc[8];
                for (int t = 0; t < 8; t++) acc[t] = _mm256_setzero_ps();
                for (int k = 0; k < ND_GROUP; k++) {
                    __m256 w = _mm256_load_ps(wT[k]);
                    for (int t = 0; t < 8; t++)
                        acc[t] = _mm256_fmadd_ps(w, _mm256_broadcast_ss(xp[t] + k), acc[t]);
                }
                for (int t = 0; t < 8 && t0 + t < T; t++) {
                    float *yp = y + (size_t)(t0 + t) * ldy + rb;
                    _mm256_storeu_ps(yp, _mm256_fmadd_ps(acc[t], nv, _mm256_loadu_ps(yp)));
                }
            }
        }
    }
    if (rb < r1) generic_mm_f32(avx2_mv_f32, m, a, y, ldy, rb, r1);
}

ND_AVX2 static float avx2_dot(const float *a, const float *b, int n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
    }
    float s = avx2_hsum(_mm256_add_ps(s0, s1));
    for (; i < n; i++) s += a[i] * b[i];
    return s;
}

static inline int32_t nd_qsum(const int8_t *q, int n) {
    int32_t s = 0;
    for (int j = 0; j < n; j++) s += q[j];
    return s;
}

/* q . k over the blocked K layout (nd_k8_at): one 32-byte load holds a 4-byte chunk of 8 keys,
 * the query's chunk is broadcast, and one dot step adds it to 8 keys' sums at once. Four blocks
 * (32 keys) by two query rows per pass keep eight independent sums in flight; a tile of blocks
 * stays in L1 while every row pair passes over it. DOT(s, k, q) adds KEY(k) . q per 32-bit lane;
 * QOFF(q) is what that exceeds the signed q . k by (0 for the signed AVX2 dot; 128 sum(q) for
 * the u8 x s8 VNNI dot of k ^ 0x80 = k + 128). Exact int32, so the bits of every ISA agree. */
#define ND_QK_TILE 16 /* blocks: 128 keys, 8 KB at hd 64 */
/* The dots of block bi + U (sums SA, SB of rows qa, qb) into the output: a whole block inside
 * the run [a, b) at once, a block the run starts or ends inside lane by lane. */
#define ND_QKB_STORE(U, SA, SB)                                                                   \
    {                                                                                             \
        const int s0 = (bi + (U)) * 8;                                                            \
        const __m256i ra = _mm256_sub_epi32((SA), oa), rb = _mm256_sub_epi32((SB), ob);           \
        if (s0 >= a && s0 + 8 <= b) {                                                             \
            _mm256_storeu_si256((__m256i *)(ya + s0), ra);                                        \
            if (two) _mm256_storeu_si256((__m256i *)(yb + s0), rb);                               \
        } else {                                                                                  \
            int32_t ta[8], tb[8];                                                                 \
            _mm256_storeu_si256((__m256i *)ta, ra);                                               \
            _mm256_storeu_si256((__m256i *)tb, rb);                                               \
            nd_store_in_run(ya, yb, ta, tb, s0, 8, a, b);                                         \
        }                                                                                         \
    }

/* chunk c of q (4 bytes) broadcast to every lane, for rows qa and qb */
#define ND_QKB_Q(c)                                                                               \
    int32_t xa_, xb_;                                                                             \
    memcpy(&xa_, qa + 4 * (c), 4);                                                                \
    memcpy(&xb_, qb + 4 * (c), 4);                                                                \
    const __m256i va = _mm256_set1_epi32(xa_), vb = _mm256_set1_epi32(xb_);

/* Four blocks by two query rows: eight independent sums, each a named variable (in arrays GCC
 * kept copying the destructive multiply-accumulates' sums between registers and the stack). */
#define ND_QKB_PASS4(DOT, KEY)                                                                    \
    {                                                                                             \
        const int8_t *kb = K + (size_t)bi * 8 * hdp;                                              \
        const size_t bs = (size_t)8 * hdp;                                                        \
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;                           \
        __m256i b0 = a0, b1 = a0, b2 = a0, b3 = a0;                                               \
        for (int c = 0; c < nc; c++) {                                                            \
            ND_QKB_Q(c)                                                                           \
            const int8_t *kc = kb + 32 * c;                                                       \
            const __m256i k0 = KEY(_mm256_loadu_si256((const __m256i *)kc));                      \
            a0 = DOT(a0, k0, va);                                                                 \
            b0 = DOT(b0, k0, vb);                                                                 \
            const __m256i k1 = KEY(_mm256_loadu_si256((const __m256i *)(kc + bs)));               \
            a1 = DOT(a1, k1, va);                                                                 \
            b1 = DOT(b1, k1, vb);                                                                 \
            const __m256i k2 = KEY(_mm256_loadu_si256((const __m256i *)(kc + 2 * bs)));           \
            a2 = DOT(a2, k2, va);                                                                 \
            b2 = DOT(b2, k2, vb);                                                                 \
            const __m256i k3 = KEY(_mm256_loadu_si256((const __m256i *)(kc + 3 * bs)));           \
            a3 = DOT(a3, k3, va);                                                                 \
            b3 = DOT(b3, k3, vb);                                                                 \
        }                                                                                         \
        ND_QKB_STORE(0, a0, b0)                                                                   \
        ND_QKB_STORE(1, a1, b1)                                                                   \
        ND_QKB_STORE(2, a2, b2)                                                                   \
        ND_QKB_STORE(3, a3, b3)                                                                   \
        bi += 4;                                                                                  \
    }

/* one block by two query rows (the last blocks of a tile) */
#define ND_QKB_PASS1(DOT, KEY)                                                                    \
    {                                                                                             \
        const int8_t *kb = K + (size_t)bi * 8 * hdp;                                              \
        __m256i a0 = _mm256_setzero_si256(), b0 = a0;                                             \
        for (int c = 0; c < nc; c++) {                                                            \
            ND_QKB_Q(c)                                                                           \
            const __m256i k0 = KEY(_mm256_loadu_si256((const __m256i *)(kb + 32 * c)));           \
            a0 = DOT(a0, k0, va);                                                                 \
            b0 = DOT(b0, k0, vb);                                                                 \
        }                                                                                         \
        ND_QKB_STORE(0, a0, b0)                                                                   \
        bi += 1;                                                                                  \
    }

#define ND_AVX2_QKB(NAME, ATTR, DOT, KEY, QOFF)                                                   \
    ATTR static void NAME(const int8_t *q, int ldq, int rows, const int8_t *K, int a, int b,    \
                          int hd, int32_t *out, int ldo) {                                        \
        const int hdp = nd_hdp(hd), nc = hdp / 4;                                                 \
        if (b <= a) return;                                                                       \
        const int blk0 = a >> 3, blk1 = (b + 7) >> 3;                                             \
        for (int t0 = blk0; t0 < blk1; t0 += ND_QK_TILE) {                                        \
            const int t1 = t0 + ND_QK_TILE < blk1 ? t0 + ND_QK_TILE : blk1;                       \
            for (int r = 0; r < rows; r += 2) {                                                   \
                const int two = r + 1 < rows;                                                     \
                const int8_t *qa = q + (size_t)r * ldq, *qb = two ? qa + ldq : qa;                \
                const __m256i oa = _mm256_set1_epi32(QOFF(qa, hdp));                              \
                const __m256i ob = _mm256_set1_epi32(QOFF(qb, hdp));                              \
                int32_t *ya = out + (size_t)r * ldo, *yb = two ? ya + ldo : NULL;                 \
                for (int bi = t0; bi < t1;) {                                                     \
                    if (t1 - bi >= 4) {                                                           \
                        ND_QKB_PASS4(DOT, KEY)                                                    \
                    } else {                                                                      \
                        ND_QKB_PASS1(DOT, KEY)                                                    \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

#define ND_QK_SIGNED(v) (v)
#define ND_QOFF_NONE(qq, n) 0
ND_AVX2_QKB(avx2_qk_blk, ND_AVX2, ND_SIGN_DOT, ND_QK_SIGNED, ND_QOFF_NONE)

/* Integer V accumulation over the slot-pair layout (nd_v8_at): widening 16 bytes gives the
 * (v_even[d], v_odd[d]) int16 pairs of 8 dimensions, and one pair-dot (vpmaddwd + add, or VNNI
 * vpdpwssd) with the two slots' weights adds w_e v_e[d] + w_o v_o[d] to each dimension's int32
 * sum, in natural order. A run that starts or ends inside a pair gives the outside slot weight
 * 0. Two rows per pass share each widened load; a tile of pairs stays in L1 across row pairs. */
#define ND_AV_TILE 32 /* pairs: 64 slots, 4 KB at hd 64 */
/* One slot pair p for NR rows: WEIGHT(r) is row r's weight pair as one int32 */
#define ND_AVB_PAIR(NR, PAIRDOT, WEIGHT)                                                          \
    {                                                                                             \
        __m256i wp[NR];                                                                           \
        for (int r = 0; r < NR; r++) wp[r] = _mm256_set1_epi32(WEIGHT(r));                        \
        const int8_t *vp = V + (size_t)p * 2 * hd + 2 * d0;                                       \
        for (int i = 0; i < 4; i++) {                                                             \
            const __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(vp + 16 * i))); \
            for (int r = 0; r < NR; r++) s[r][i] = PAIRDOT(s[r][i], x, wp[r]);                   \
        }                                                                                         \
    }

#define ND_AVB_W_IN(r) nd_w16_pair(w + (size_t)(r0 + (r)) * ldw, p, a)
#define ND_AVB_W_EDGE(r) nd_w16_pair_edge(w + (size_t)(r0 + (r)) * ldw, p, a, b)

/* NR query rows (a constant, so the sums stay in registers) over the tile's pairs; the pairs
 * wholly inside the run take the branch-free path */
#define ND_AVB_PASS(NR, PAIRDOT)                                                                  \
    for (int d0 = 0; d0 < hd; d0 += 32) {                                                         \
        __m256i s[NR][4];                                                                         \
        for (int r = 0; r < NR; r++)                                                              \
            for (int i = 0; i < 4; i++)                                                           \
                s[r][i] =                                                                         \
                    _mm256_loadu_si256((const __m256i *)(acc + (size_t)(r0 + r) * hd + d0 + 8 * i)); \
        int p = t0;                                                                               \
        const int in1 = 2 * (t1 - 1) + 1 < b ? t1 : t1 - 1; /* pairs before in1 end inside */    \
        for (; p < t1 && 2 * p < a; p++) ND_AVB_PAIR(NR, PAIRDOT, ND_AVB_W_EDGE)                  \
        for (; p < in1; p++) ND_AVB_PAIR(NR, PAIRDOT, ND_AVB_W_IN)                                \
        for (; p < t1; p++) ND_AVB_PAIR(NR, PAIRDOT, ND_AVB_W_EDGE)                               \
        for (int r = 0; r < NR; r++)                                                              \
            for (int i = 0; i < 4; i++)                                                           \
                _mm256_storeu_si256((__m256i *)(acc + (size_t)(r0 + r) * hd + d0 + 8 * i), s[r][i]); \
    }

#define ND_AVX2_AVB(NAME, ATTR, PAIRDOT)                                                          \
    ATTR static void NAME(int32_t *acc, const int8_t *V, int a, int b, const int16_t *w, int ldw, \
                          int rows, int hd, int init) {                                           \
        if (hd % 32) {                                                                            \
            port_attn_v_blk(acc, V, a, b, w, ldw, rows, hd, init);                                \
            return;                                                                               \
        }                                                                                         \
        if (init) memset(acc, 0, (size_t)rows * hd * sizeof(int32_t));                            \
        if (b <= a) return;                                                                       \
        const int p0 = a >> 1, p1 = (b + 1) >> 1;                                                 \
        for (int t0 = p0; t0 < p1; t0 += ND_AV_TILE) {                                            \
            const int t1 = t0 + ND_AV_TILE < p1 ? t0 + ND_AV_TILE : p1;                           \
            for (int r0 = 0; r0 < rows; r0 += 2) {                                                \
                if (rows - r0 >= 2) {                                                             \
                    ND_AVB_PASS(2, PAIRDOT)                                                       \
                } else {                                                                          \
                    ND_AVB_PASS(1, PAIRDOT)                                                       \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }
#define ND_AVX2_PAIRDOT(s, x, w) _mm256_add_epi32((s), _mm256_madd_epi16((x), (w)))
ND_AVX2_AVB(avx2_attn_v_blk, ND_AVX2, ND_AVX2_PAIRDOT)

/* Peak of the instruction sequence the int8 kernels use (maddubs + madd + add per 32 MACs). */
ND_AVX2 static double avx2_peak_i8(long iters) {
    __m256i acc[8], w = _mm256_set1_epi8(3), x = _mm256_set1_epi8(-5);
    for (int i = 0; i < 8; i++) acc[i] = _mm256_setzero_si256();
    for (long it = 0; it < iters; it++)
        for (int i = 0; i < 8; i++) {
            acc[i] = ND_SIGN_DOT(acc[i], w, x);
            __asm__ volatile("" : "+x"(acc[i]));
        }
    volatile int sink = _mm256_extract_epi32(acc[0], 0) + _mm256_extract_epi32(acc[7], 1);
    (void)sink;
    return (double)iters * 8 * 32;
}

/* ---- AVX-VNNI: the same kernels with u8 x s8 dot products (weights offset by +128) ---- */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define ND_HAVE_VNNI 1
#define ND_VNNI __attribute__((target("avx2,fma,f16c,avxvnni")))
/* s + w (u8) . x (s8) per 32-bit lane, accumulated in place: through the intrinsic GCC copies
 * the destructive instruction's sums between registers (and to the stack) in the inner loops */
ND_VNNI static inline __m256i nd_vnni_dot(__m256i s, __m256i w, __m256i x) {
    __asm__("%{vex%} vpdpbusd %2, %1, %0" : "+x"(s) : "x"(w), "x"(x));
    return s;
}
#define ND_VNNI_DOT(s, w, x) nd_vnni_dot((s), (w), (x))
ND_AVX2_ROWDOT(vnni_rowdot, ND_VNNI, tab_u, ND_VNNI_DOT, 0)
ND_AVX2_MV_I8(vnni_mv4_i8, ND_VNNI, vnni_rowdot, tab_u, 1)
ND_AVX2_MV8_I8(vnni_mv_i8, ND_VNNI, vnni_rowdot, tab_u, 1, vnni_mv4_i8)
ND_AVX2_MM_I8(vnni_mm_i8, ND_VNNI, tab_u, 1, ND_VNNI_DOT, vnni_mv_i8)

/* q . k with u8 x s8 dots: (k ^ 0x80) is k + 128 as u8, so q.k = dot(k + 128, q) - 128 sum(q) */
#define ND_QK_FLIP(v) _mm256_xor_si256((v), _mm256_set1_epi8((char)0x80))
#define ND_QOFF_FLIP(qq, n) (128 * nd_qsum((qq), (n)))
ND_AVX2_QKB(vnni_qk_blk, ND_VNNI, ND_VNNI_DOT, ND_QK_FLIP, ND_QOFF_FLIP)

ND_VNNI static inline __m256i nd_vnni_pairdot(__m256i s, __m256i x, __m256i w) {
    __asm__("%{vex%} vpdpwssd %2, %1, %0" : "+x"(s) : "x"(x), "x"(w));
    return s;
}
#define ND_VNNI_PAIRDOT(s, x, w) nd_vnni_pairdot((s), (x), (w))
ND_AVX2_AVB(vnni_attn_v_blk, ND_VNNI, ND_VNNI_PAIRDOT)

ND_VNNI static double vnni_peak_i8(long iters) {
    __m256i acc[8], w = _mm256_set1_epi8(3), x = _mm256_set1_epi8(-5);
    for (int i = 0; i < 8; i++) acc[i] = _mm256_setzero_si256();
    for (long it = 0; it < iters; it++)
        for (int i = 0; i < 8; i++) {
            acc[i] = ND_VNNI_DOT(acc[i], w, x);
            __asm__ volatile("" : "+x"(acc[i]));
        }
    volatile int sink = _mm256_extract_epi32(acc[0], 0) + _mm256_extract_epi32(acc[7], 1);
    (void)sink;
    return (double)iters * 8 * 32;
}
#endif

#endif
#endif
