/* aarch64 NEON kernels with the dot-product extension (Cortex-A76 / Pi 5, Neoverse-N1).
 * Compiled with a target attribute; nd_kernels.c calls them only when HWCAP_ASIMDDP is set. */
#ifndef ND_ISA_NEON_DOT_H
#define ND_ISA_NEON_DOT_H
#if defined(__aarch64__)
#include <arm_neon.h>

#include "nd_common.h"
#include "isa_neon.h"

#define ND_NDOT __attribute__((target("arch=armv8.2-a+dotprod")))

ND_NDOT static inline int32x4_t ndot_dot16(int32x4_t acc, int8x16_t w, int8x16_t x) {
    return vdotq_s32(acc, w, x);
}

ND_NEON_ROWDOT(ndot_rowdot, ND_NDOT, ndot_dot16)
ND_NEON_MV_I8(ndot_mv_i8, ND_NDOT, ndot_rowdot)

/* Blocked T-token kernel: 8 rows (two registers of 4 rows x 4 bytes) x 4 tokens per tile; the
 * weights of one group are decoded and transposed once and serve every token. */
ND_NDOT static void ndot_mm_i8(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0,
                               int r1, uint8_t *scratch) {
    (void)scratch;
    const int G = m->groups, gb = m->cbits * 16, T = a->T;
    if (G > 64) {
        generic_mm_i8(ndot_mv_i8, m, a, y, ldy, r0, r1);
        return;
    }
    uint8_t dec[8][ND_GROUP] ND_ALIGNED(16);
    uint32_t wT[32][8] ND_ALIGNED(16);
    float nf[64][8] ND_ALIGNED(16);
    const int8x16_t TA = vld1q_s8(m->tab_s[0]), TB = vld1q_s8(m->tab_s[1]);
    const uint8x16_t m0f = vdupq_n_u8(0x0F);
    int rb = r0;
    for (; rb + 8 <= r1; rb += 8) {
        for (int i = 0; i < 8; i++)
            for (int g = 0; g < G; g++) nf[g][i] = nd_h2f(m->norms[(size_t)(rb + i) * G + g]);
        for (int t = 0; t < T; t++) memset(y + (size_t)t * ldy + rb, 0, 8 * sizeof(float));
        for (int g = 0; g < G; g++) {
            for (int i = 0; i < 8; i++) {
                const uint8_t *c = m->codes + (size_t)(rb + i) * m->row_bytes + g * gb;
                for (int q = 0; q < gb; q += 16) {
                    uint8x16_t v = vld1q_u8(c + q);
                    uint8x16_t lo = vandq_u8(v, m0f), hi = vshrq_n_u8(v, 4);
                    if (m->cbits == 2) {
                        vst1q_s8((int8_t *)&dec[i][q], vqtbl1q_s8(TA, lo));
                        vst1q_s8((int8_t *)&dec[i][32 + q], vqtbl1q_s8(TB, lo));
                        vst1q_s8((int8_t *)&dec[i][64 + q], vqtbl1q_s8(TA, hi));
                        vst1q_s8((int8_t *)&dec[i][96 + q], vqtbl1q_s8(TB, hi));
                    } else {
                        int h = q >> 5, qq = q & 31;
                        vst1q_s8((int8_t *)&dec[i][h * 64 + qq], vqtbl1q_s8(TA, lo));
                        vst1q_s8((int8_t *)&dec[i][h * 64 + 32 + qq], vqtbl1q_s8(TA, hi));
                    }
                }
            }
            /* wT[c][i] = dword c of row i: 4x4 dword transposes (rows 0-3, then 4-7) */
            for (int c = 0; c < 32; c += 4)
                for (int i0 = 0; i0 < 8; i0 += 4) {
                    uint32x4_t r0 = vld1q_u32((const uint32_t *)&dec[i0][4 * c]);
                    uint32x4_t r1 = vld1q_u32((const uint32_t *)&dec[i0 + 1][4 * c]);
                    uint32x4_t r2 = vld1q_u32((const uint32_t *)&dec[i0 + 2][4 * c]);
                    uint32x4_t r3 = vld1q_u32((const uint32_t *)&dec[i0 + 3][4 * c]);
                    uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1));
                    uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
                    uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
                    uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
                    vst1q_u32(&wT[c][i0], vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)));
                    vst1q_u32(&wT[c + 1][i0], vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)));
                    vst1q_u32(&wT[c + 2][i0], vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)));
                    vst1q_u32(&wT[c + 3][i0], vreinterpretq_u32_u64(vtrn2q_u64(t1, t3)));
                }
            const float32x4_t n0 = vld1q_f32(nf[g]), n1 = vld1q_f32(nf[g] + 4);
            for (int t0 = 0; t0 < T; t0 += 4) {
                const int8_t *xp[4];
                for (int t = 0; t < 4; t++)
                    xp[t] = a->xq + (size_t)(t0 + t < T ? t0 + t : t0) * a->in_pad + g * ND_GROUP;
                int32x4_t acc[4][2];
                for (int t = 0; t < 4; t++) acc[t][0] = acc[t][1] = vdupq_n_s32(0);
                for (int c = 0; c < 32; c += 4) {
                    int8x16_t xv[4];
                    for (int t = 0; t < 4; t++) xv[t] = vld1q_s8(xp[t] + 4 * c);
#define ND_NDOT_LANE(L)                                                                      \
    {                                                                                        \
        int8x16_t w0 = vld1q_s8((const int8_t *)wT[c + L]);                                  \
        int8x16_t w1 = vld1q_s8((const int8_t *)wT[c + L] + 16);                             \
        for (int t = 0; t < 4; t++) {                                                        \
            acc[t][0] = vdotq_laneq_s32(acc[t][0], w0, xv[t], L);                            \
            acc[t][1] = vdotq_laneq_s32(acc[t][1], w1, xv[t], L);                            \
        }                                                                                    \
    }
                    ND_NDOT_LANE(0)
                    ND_NDOT_LANE(1)
                    ND_NDOT_LANE(2)
                    ND_NDOT_LANE(3)
#undef ND_NDOT_LANE
                }
                for (int t = 0; t < 4 && t0 + t < T; t++) {
                    const size_t tg = (size_t)(t0 + t) * a->groups + g;
                    const float32x4_t xs = vdupq_n_f32(a->xs[tg]);
                    float *yp = y + (size_t)(t0 + t) * ldy + rb;
                    float32x4_t f0 = vmulq_f32(vcvtq_f32_s32(acc[t][0]), xs);
                    float32x4_t f1 = vmulq_f32(vcvtq_f32_s32(acc[t][1]), xs);
                    vst1q_f32(yp, vaddq_f32(vld1q_f32(yp), vmulq_f32(f0, n0)));
                    vst1q_f32(yp + 4, vaddq_f32(vld1q_f32(yp + 4), vmulq_f32(f1, n1)));
                }
            }
        }
    }
    if (rb < r1) generic_mm_i8(ndot_mv_i8, m, a, y, ldy, rb, r1);
}

ND_NEON_QKB(ndot_qk_blk, ND_NDOT, ndot_dot16)

ND_NDOT static double ndot_peak_i8(long iters) {
    int32x4_t acc[8];
    int8x16_t w = vdupq_n_s8(3), x = vdupq_n_s8(-5);
    for (int i = 0; i < 8; i++) acc[i] = vdupq_n_s32(0);
    for (long it = 0; it < iters; it++)
        for (int i = 0; i < 8; i++) {
            acc[i] = vdotq_s32(acc[i], w, x);
            __asm__ volatile("" : "+w"(acc[i]));
        }
    volatile int sink = vgetq_lane_s32(acc[0], 0) + vgetq_lane_s32(acc[7], 1);
    (void)sink;
    return (double)iters * 8 * 16;
}

#endif
#endif
