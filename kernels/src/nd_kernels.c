/* Kernel dispatch and the ISA-independent parts (activation preparation, codebook tables). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nd_common.h"
#include "isa_portable.h"
#include "isa_avx2.h"
#include "isa_neon.h"
#include "isa_neon_dot.h"

/* the per-token vector work, once per ISA (see nd_vec_impl.h) */
#pragma GCC diagnostic ignored "-Wpsabi"
#define VPFX(n) gen_##n
#define VATTR
#if defined(__aarch64__)
#define ND_FMA8(a, b, c) ({                                                                     \
    float32x4_t a0_, a1_, b0_, b1_, c0_, c1_;                                                 \
    nd_v8f a_ = (a), b_ = (b), c_ = (c), r_;                                                  \
    memcpy(&a0_, &a_, 16), memcpy(&a1_, (char *)&a_ + 16, 16);                               \
    memcpy(&b0_, &b_, 16), memcpy(&b1_, (char *)&b_ + 16, 16);                               \
    memcpy(&c0_, &c_, 16), memcpy(&c1_, (char *)&c_ + 16, 16);                               \
    c0_ = vfmaq_f32(c0_, a0_, b0_);                                                           \
    c1_ = vfmaq_f32(c1_, a1_, b1_);                                                           \
    memcpy(&r_, &c0_, 16), memcpy((char *)&r_ + 16, &c1_, 16);                                \
    r_;                                                                                       \
})
#endif
#include "nd_vec_impl.h"
#undef ND_FMA8
#undef VPFX
#undef VATTR
#if defined(__x86_64__)
#define VPFX(n) avx2v_##n
#define VATTR __attribute__((target("avx2,fma")))
#define ND_FMA8(a, b, c) ((nd_v8f)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define ND_PACK8(dst, v)                                                                        \
    do {                                                                                        \
        __m256i v_;                                                                             \
        memcpy(&v_, &(v), 32);                                                                  \
        __m128i p_ = _mm_packs_epi32(_mm256_castsi256_si128(v_), _mm256_extracti128_si256(v_, 1)); \
        _mm_storel_epi64((__m128i *)(dst), _mm_packs_epi16(p_, p_));                            \
    } while (0)
#include "nd_vec_impl.h"
#undef ND_PACK8
#undef ND_FMA8
#undef VPFX
#undef VATTR
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

static const nd_isa_t ISA_PORTABLE = {"portable",   nd_fwht_portable, port_mv_f32, port_mv_i8,
                                      port_mm_f32,  port_mm_i8,       port_dot,
                                      port_peak_i8,
                                      port_qk_blk,  port_attn_v_blk, &gen_vops};
#if defined(__x86_64__)
static const nd_isa_t ISA_AVX2 = {"avx2",      avx2_fwht, avx2_mv_f32, avx2_mv_i8,  avx2_mm_f32,
                                  avx2_mm_i8,  avx2_dot,  avx2_peak_i8,
                                  avx2_qk_blk, avx2_attn_v_blk, &avx2v_vops};
#ifdef ND_HAVE_VNNI
static const nd_isa_t ISA_VNNI = {"avx2_vnni", avx2_fwht, avx2_mv_f32, vnni_mv_i8,  avx2_mm_f32,
                                  vnni_mm_i8,  avx2_dot,  vnni_peak_i8,
                                  vnni_qk_blk, vnni_attn_v_blk, &avx2v_vops};
#endif
#endif
#if defined(__aarch64__)
static const nd_isa_t ISA_NEON = {"neon",      neon_fwht, neon_mv_f32, neon_mv_i8,  neon_mm_f32,
                                  neon_mm_i8,  neon_dotf, neon_peak_i8,
                                  neon_qk_blk, neon_attn_v_blk, &gen_vops};
static const nd_isa_t ISA_NDOT = {"neon_dot",  neon_fwht, neon_mv_f32, ndot_mv_i8,  neon_mm_f32,
                                  ndot_mm_i8,  neon_dotf, ndot_peak_i8,
                                  ndot_qk_blk, neon_attn_v_blk, &gen_vops};
#endif

/* Best first. */
static const nd_isa_t *const ALL[] = {
#if defined(__x86_64__)
#ifdef ND_HAVE_VNNI
    &ISA_VNNI,
#endif
    &ISA_AVX2,
#endif
#if defined(__aarch64__)
    &ISA_NDOT,
    &ISA_NEON,
#endif
    &ISA_PORTABLE,
};

static int cpu_can(const nd_isa_t *c) {
    if (c == &ISA_PORTABLE) return 1;
#if defined(__x86_64__)
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (c == &ISA_AVX2) return avx2;
#ifdef ND_HAVE_VNNI
    if (c == &ISA_VNNI) return avx2 && __builtin_cpu_supports("avxvnni");
#endif
#endif
#if defined(__aarch64__)
    if (c == &ISA_NEON) return 1;
#if defined(__linux__)
    if (c == &ISA_NDOT) return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
#else
    if (c == &ISA_NDOT) return 0;
#endif
#endif
    return 0;
}

const nd_isa_t *nd_isa_select(const char *force) {
    for (size_t i = 0; i < sizeof(ALL) / sizeof(ALL[0]); i++) {
        if (force && *force && strcmp(force, ALL[i]->name)) continue;
        if (cpu_can(ALL[i])) return ALL[i];
    }
    return NULL;
}

const char *nd_isa_available(void) {
    static char buf[128];
    buf[0] = 0;
    for (size_t i = 0; i < sizeof(ALL) / sizeof(ALL[0]); i++) {
        if (!cpu_can(ALL[i])) continue;
        if (buf[0]) strcat(buf, ",");
        strcat(buf, ALL[i]->name);
    }
    return buf;
}

void nd_cq_init(nd_cq_t *m, const uint8_t *codes, const uint16_t *norms, int rows, int cols,
                int bits, int group, const float *codebook) {
    memset(m, 0, sizeof(*m));
    m->codes = codes;
    m->norms = norms;
    m->rows = rows;
    m->cols = cols;
    m->bits = bits;
    m->group = group;
    m->in_pad = (cols + group - 1) / group * group;
    m->groups = m->in_pad / group;
    int cbits = bits == 5 ? 2 : bits;
    m->row_bytes = m->in_pad * cbits / 8;
    if (bits == 5) {
        /* ternary crumbs 0, 1, 2, 3 mean 0, +c, 0 (unused), -c; codebook is (-c, 0, +c) */
        m->cb[0] = codebook[1];
        m->cb[1] = codebook[2];
        m->cb[2] = codebook[1];
        m->cb[3] = codebook[0];
        m->ncb = 4;
    } else {
        m->ncb = 1 << bits;
        for (int i = 0; i < m->ncb; i++) m->cb[i] = codebook[i];
    }
    m->fast = group == ND_GROUP && (cbits == 2 || cbits == 4);
    m->cbits = cbits;
    float amax = 0.f;
    for (int i = 0; i < m->ncb; i++) amax = fmaxf(amax, fabsf(m->cb[i]));
    m->cbscale = amax > 0.f ? amax / 127.f : 1.f;
    for (int i = 0; i < m->ncb; i++) {
        long q = lrintf(m->cb[i] / m->cbscale);
        m->cbq[i] = (int8_t)(q > 127 ? 127 : q < -127 ? -127 : q);
    }
    for (int n = 0; n < 16; n++) {
        int8_t a = cbits == 2 ? m->cbq[n & 3] : m->cbq[n];
        int8_t b = cbits == 2 ? m->cbq[n >> 2] : m->cbq[n];
        m->tab_s[0][n] = a;
        m->tab_s[1][n] = b;
        m->tab_u[0][n] = (uint8_t)(a + 128);
        m->tab_u[1][n] = (uint8_t)(b + 128);
    }
}

/* Rotate each group once (this is what every output row reuses), and in int8 mode quantize it
 * per group: scale = absmax / 127, round to nearest even, stored in the kernels' byte order.
 * Plain C on purpose: every ISA must see the very same int8 activations. */
void nd_act_prepare(const nd_isa_t *isa, const nd_cq_t *m, nd_act_t *a, const float *x, int T,
                    int ldx, int int8) {
    const int cols = m->cols, in_pad = m->in_pad, gs = m->group, G = m->groups;
    a->T = T;
    a->in_pad = in_pad;
    a->groups = G;
    a->cbits = m->cbits;
    for (int t = 0; t < T; t++) {
        float *xr = a->xr + (size_t)t * in_pad;
        memcpy(xr, x + (size_t)t * ldx, cols * sizeof(float));
        if (in_pad > cols) memset(xr + cols, 0, (in_pad - cols) * sizeof(float));
        for (int g = 0; g < G; g++) isa->fwht(xr + g * gs, gs);
        if (!int8 || !m->fast) continue;
        int8_t *xq = a->xq + (size_t)t * in_pad;
        for (int g = 0; g < G; g++) {
            const float *v = xr + g * ND_GROUP;
            const float amax = isa->v->amax(v, ND_GROUP);
            int32_t sum = 0;
            int8_t *q = xq + g * ND_GROUP;
            if (amax > 0.f) {
                int8_t nat[ND_GROUP];
                sum = isa->v->quant(v, ND_GROUP, 127.f / amax, nat);
                isa->v->perm_group(nat, q, m->cbits);
            } else {
                memset(q, 0, ND_GROUP);
            }
            a->xs[(size_t)t * G + g] = (amax / 127.f) * m->cbscale;
            a->xsum[(size_t)t * G + g] = sum;
        }
    }
}

/* Read bandwidth probe for the benchmark report: sums n bytes (a multiple of 64) as 64-bit words
 * with 8 independent accumulators; the caller times it. Returns the sum (keeps the loop alive). */
uint64_t nd_read_probe(const void *p, size_t n) {
    const uint64_t *w = p;
    uint64_t a[8] = {0};
    for (size_t i = 0; i + 8 <= n / 8; i += 8)
        for (int k = 0; k < 8; k++) a[k] += w[i + k];
    return a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
}
