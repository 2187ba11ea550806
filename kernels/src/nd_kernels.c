/* Kernel dispatch and the ISA-independent parts (activation preparation, codebook tables). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nd_common.h"
#include "isa_portable.h"
#include "isa_avx2.h"
#include "isa_neon.h"
#include "isa_neon_dot.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

static const nd_isa_t ISA_PORTABLE = {"portable",   nd_fwht_portable, port_mv_f32, port_mv_i8,
                                      port_mm_f32,  port_mm_i8,       port_dot,    port_axpy,
                                      port_dot_i8f, port_axpy_i8, port_peak_i8};
#if defined(__x86_64__)
static const nd_isa_t ISA_AVX2 = {"avx2",      avx2_fwht, avx2_mv_f32, avx2_mv_i8,  avx2_mm_f32,
                                  avx2_mm_i8,  avx2_dot,  avx2_axpy,   avx2_dot_i8f, avx2_axpy_i8, avx2_peak_i8};
#ifdef ND_HAVE_VNNI
static const nd_isa_t ISA_VNNI = {"avx2_vnni", avx2_fwht, avx2_mv_f32, vnni_mv_i8,  avx2_mm_f32,
                                  vnni_mm_i8,  avx2_dot,  avx2_axpy,   avx2_dot_i8f, avx2_axpy_i8, vnni_peak_i8};
#endif
#endif
#if defined(__aarch64__)
static const nd_isa_t ISA_NEON = {"neon",      neon_fwht, neon_mv_f32, neon_mv_i8,  neon_mm_f32,
                                  neon_mm_i8,  neon_dotf, neon_axpy,   neon_dot_i8f, neon_axpy_i8, neon_peak_i8};
static const nd_isa_t ISA_NDOT = {"neon_dot",  neon_fwht, neon_mv_f32, ndot_mv_i8,  neon_mm_f32,
                                  ndot_mm_i8,  neon_dotf, neon_axpy,   neon_dot_i8f, neon_axpy_i8, ndot_peak_i8};
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
            float amax = 0.f;
            for (int k = 0; k < ND_GROUP; k++) amax = fmaxf(amax, fabsf(v[k]));
            int32_t sum = 0;
            int8_t *q = xq + g * ND_GROUP;
            if (amax > 0.f) {
                const float inv = 127.f / amax;
                for (int k = 0; k < ND_GROUP; k++) {
                    long r = lrintf(v[k] * inv);
                    int8_t qi = (int8_t)(r > 127 ? 127 : r < -127 ? -127 : r);
                    q[nd_perm_index(m->cbits, k)] = qi;
                    sum += qi;
                }
            } else {
                memset(q, 0, ND_GROUP);
            }
            a->xs[(size_t)t * G + g] = (amax / 127.f) * m->cbscale;
            a->xsum[(size_t)t * G + g] = sum;
        }
    }
}
