/* Shared declarations for the needled native kernels.
 *
 * Every ISA header (isa_portable.h, isa_avx2.h, isa_neon.h, isa_neon_dot.h) defines static
 * functions compiled with their own target attribute and one `nd_isa_t` table; nd_kernels.c
 * picks a table at run time from what the CPU reports, so one binary carries every path.
 *
 * Layout conventions the kernels share (all ISAs use the same ones, so int8 results are
 * bit-identical across them):
 *  - CQ groups are 128 wide on the fast paths (CQ2, CQ4, ternary); other widths or CQ3 use the
 *    generic FP32 path.
 *  - int8 activations of one group are stored "nibble-permuted" (nd_perm_index): the order in
 *    which a 16-entry byte table lookup over the packed code bytes yields weights, so kernels never
 *    reorder weights, only the activation once.
 *  - An int8 (row, group) dot is exact int32; it becomes float as
 *        acc = acc + ((float)dot * xs[g]) * norm[r][g]
 *    in group order, never fused, so every ISA gives the same bits.
 */
#ifndef ND_COMMON_H
#define ND_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ND_GROUP 128
#define ND_MAX_TILE_T 8 /* tokens per GEMM register tile */

#if defined(__GNUC__)
#define ND_INLINE static inline __attribute__((always_inline))
#define ND_ALIGNED(n) __attribute__((aligned(n)))
#else
#define ND_INLINE static inline
#define ND_ALIGNED(n)
#endif

/* A CQ matrix as stored in the file: codes then FP16 norms, never copied. */
typedef struct {
    const uint8_t *codes;   /* [rows, row_bytes] */
    const uint16_t *norms;  /* [rows, groups] FP16 bits */
    int rows, cols, in_pad, groups, row_bytes, bits, group;
    float cb[16];           /* FP32 codebook by stored code (ternary: crumb -> value) */
    int ncb;                /* entries used in cb */
    int fast;               /* 1 when a packed fast path applies (group 128, 2-bit or 4-bit codes) */
    int cbits;              /* bits per stored code on the fast path: 2 or 4 */
    int8_t cbq[16];         /* int8 image of cb: round(cb / cbscale) */
    float cbscale;          /* max |cb| / 127 */
    /* 16-entry nibble tables for the int8 kernels (signed, and +128 offset for u8 x s8 dots) */
    int8_t tab_s[2][16];
    uint8_t tab_u[2][16];
} nd_cq_t;

/* A prepared activation: one or T vectors, rotated per group (and int8-quantized in int8 mode). */
typedef struct {
    int T, in_pad, groups;
    float *xr;      /* [T, in_pad] rotated groups, natural order (FP32 mode) */
    int8_t *xq;     /* [T, in_pad] int8, nibble-permuted per group, layout for `cbits` */
    float *xs;      /* [T, groups] per-group scale (activation scale x codebook scale) */
    int32_t *xsum;  /* [T, groups] sum of the int8 values of a group (for u8 offset dots) */
    int cbits;      /* permutation the xq were laid out for (2 or 4) */
} nd_act_t;

/* 8-lane vectors (GCC vector extensions) for the per-token work in nd_vec_impl.h */
typedef float nd_v8f __attribute__((vector_size(32)));
typedef int32_t nd_v8i __attribute__((vector_size(32)));

/* The per-token vector operations outside the CQ products, one table per ISA (nd_vec_impl.h). */
typedef struct nd_vops {
    void (*zcn)(const float *x, const float *g, float *y, int n); /* g NULL: rms_unit */
    void (*rope)(float *x, int hd, const float *c, const float *s);
    void (*gate)(float *o, const float *g, int n);            /* o *= sigmoid(g) */
    void (*silu_mul)(float *z, const float *d, int n);        /* z = silu(d * z) */
    void (*mul)(float *z, const float *d, int n);             /* z *= d */
    void (*add_scaled)(float *y, const float *x, float a, const float *v, int n); /* y = x + a v */
    void (*add_mul)(float *y, const float *d, const float *z, int n);           /* y += d z */
    void (*lane_sum)(float *u, const float *X, const float *w, int nl, int d);
    void (*mhc_mix)(float *X, const float *y, const float *u, const float *hpost,
                    const float P[4][4], int nl, int d, float *mean);
    void (*lane_mean)(float *out, const float *X, int nl, int d);
    float (*softmax_exp)(float *s, int n); /* s = exp(s - max s); returns the sum */
    float (*amax)(const float *x, int n);
    int32_t (*quant)(const float *x, int n, float inv, int8_t *q); /* returns sum of q */
    float (*sigm)(float x);
    /* s[i] = dot[i] * (qs * ks[i]) * scale; returns max s (-inf when n == 0) */
    float (*scores_i8)(float *s, const int32_t *dot, const float *ks, float qs, float scale, int n);
    void (*perm_group)(const int8_t *nat, int8_t *q, int cbits); /* 128 bytes, nd_perm_index */
    /* FP32 attention: out[r][:hd] (+)= sum_{i<n} w[r * ldw + i] * v_i for r < rows; init 0
     * adds to out */
    void (*attn_v_f32_acc)(float *out, const void *const *vp, int off, const float *w, int ldw,
                           int rows, int n, int hd, int init);
    /* the softmax of s (max mx) times the V scales vs, as int16 weights q for attn_v_blk
     * (zero-padded to an even count); *esum = the softmax's sum; returns the factor back to
     * the scaled weights' scale (q[i] ~ e[i] vs[i] / factor), 0 when every weight is 0 */
    float (*exp_w16)(float *s, int n, float mx, const float *vs, int16_t *q, float *esum);
} nd_vops_t;

typedef struct nd_isa {
    const char *name;
    void (*fwht)(float *x, int n); /* in place, orthonormal */
    /* y[r] for r in [r0, r1): FP32 exact path over natural-order rotated activations */
    void (*mv_f32)(const nd_cq_t *m, const float *xr, float *y, int r0, int r1);
    /* int8 path: exact int32 dots per (row, group), fixed float combine */
    void (*mv_i8)(const nd_cq_t *m, const nd_act_t *a, float *y, int r0, int r1);
    /* T tokens: Y[t, r] for r in [r0, r1); ldy = row stride of Y */
    void (*mm_f32)(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                   float *scratch);
    void (*mm_i8)(const nd_cq_t *m, const nd_act_t *a, float *y, int ldy, int r0, int r1,
                  uint8_t *scratch);
    /* dot of two FP32 vectors (FP32 attention, probe pooling, the engram gate) */
    float (*dot)(const float *a, const float *b, int n);
    /* int8 peak probe: n iterations of independent int8 multiply-accumulates; returns MACs done */
    double (*peak_i8)(long iters);
    /* attention over the int8 K cache (the blocked layout of nd_k8_at): exact int32 dots
     * out[r * ldo + s] = q_r . k_s for the slots a <= s < b, rows r < rows, q_r = q + r * ldq
     * (nd_hdp(hd) bytes, zero past hd); out is indexed by slot */
    void (*qk_blk)(const int8_t *q, int ldq, int rows, const int8_t *K, int a, int b, int hd,
                   int32_t *out, int ldo);
    /* attention over the int8 V cache (the slot-pair layout of nd_v8_at) with int16 weights:
     * acc[r][:hd] (+)= sum_{a <= s < b} w[r * ldw + s - a] * v_s, exact in int32 (so every ISA
     * gets the same bits); init 0 adds to acc. The caller keeps sum |w| * 127 below 2^31. */
    void (*attn_v_blk)(int32_t *acc, const int8_t *V, int a, int b, const int16_t *w, int ldw,
                       int rows, int hd, int init);
    const nd_vops_t *v;
} nd_isa_t;

/* The int8 K/V cache of one (layer, KV head), by slot. K: the keys of 8 consecutive slots
 * interleaved by 4-byte chunks, so one 32-byte load holds chunk c of 8 keys and a broadcast
 * 4-byte chunk of q gives 8 dots per multiply-accumulate, with no reduction across lanes. V:
 * the rows of 2 consecutive slots interleaved byte by byte, so widening 16 bytes gives the
 * (v_even, v_odd) int16 pairs of 8 dimensions that one pair-dot with the two weights needs.
 * Regions hold a multiple of 8 slots. */
static inline int nd_hdp(int hd) { return (hd + 3) & ~3; }
static inline size_t nd_k8_at(int s, int j, int hd) {
    return (size_t)(s >> 3) * 8 * nd_hdp(hd) + (size_t)(j >> 2) * 32 + (size_t)(s & 7) * 4 + (j & 3);
}
static inline size_t nd_v8_at(int s, int j, int hd) {
    return (size_t)(s >> 1) * 2 * hd + (size_t)j * 2 + (s & 1);
}

/* The int16 weights of slots 2p and 2p + 1 of a V run [a, b) (wr: the run's weights, wr[0] for
 * slot a) as one little-endian int32, the pair-dot's broadcast operand: a pair wholly inside the
 * run is one 32-bit load; in a pair the run starts or ends inside, the outside slot weighs 0. */
static inline int32_t nd_w16_pair(const int16_t *wr, int p, int a) {
    int32_t pr;
    memcpy(&pr, wr + 2 * p - a, sizeof pr);
    return pr;
}
static inline int32_t nd_w16_pair_edge(const int16_t *wr, int p, int a, int b) {
    const int se = 2 * p - a;
    const uint16_t lo = se >= 0 ? (uint16_t)wr[se] : 0;
    const uint16_t hi = 2 * p + 1 < b ? (uint16_t)wr[se + 1] : 0;
    return (int32_t)((uint32_t)lo | (uint32_t)hi << 16);
}

/* The dots of a block that a run of slots [a, b) starts or ends inside: of the n keys from slot
 * s0 (ta, tb: two query rows' dots), only those in the run are stored (yb NULL: one row). */
static inline void nd_store_in_run(int32_t *ya, int32_t *yb, const int32_t *ta, const int32_t *tb,
                                   int s0, int n, int a, int b) {
    for (int i = 0; i < n; i++)
        if (s0 + i >= a && s0 + i < b) {
            ya[s0 + i] = ta[i];
            if (yb) yb[s0 + i] = tb[i];
        }
}

/* scratch sizes for mm kernels */
#define ND_MM_SCRATCH_BYTES (16 * ND_GROUP * 4 * 2 + 256)

/* ---- helpers shared by every ISA (plain C, same arithmetic everywhere) ---- */

static inline float nd_h2f(uint16_t h) {
    /* exact FP16 -> FP32 (subnormals, inf, nan included), independent of F16C/NEON */
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0) {
        if (man == 0) {
            bits = sign;
        } else {
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while (!(man & 0x400u));
            bits = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3FFu) << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | (man << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Position (within a 128-group) where the activation for natural index k goes in the
 * nibble-permuted int8 layout. CQ2: byte b holds codes 4b..4b+3; the low nibble gives codes 4b,
 * 4b+1 (tables A, B), the high nibble 4b+2, 4b+3; stream j = (A lo, B lo, A hi, B hi) of byte b
 * lands at j*32 + b. CQ4: byte b holds codes 2b (lo), 2b+1 (hi); the 64 bytes are two 32-byte
 * halves h, and stream j of half h byte b' lands at h*64 + j*32 + b'. */
static inline int nd_perm_index(int cbits, int k) {
    if (cbits == 2) {
        int b = k >> 2, j = k & 3;
        return j * 32 + b;
    } else {
        int b = k >> 1, j = k & 1;
        int h = b >> 5, bp = b & 31;
        return h * 64 + j * 32 + bp;
    }
}

/* Stored code of element k of a row (any width; LSB-first bitstream). */
static inline int nd_code_at(const uint8_t *row, int bits, int k) {
    int cb = bits == 5 ? 2 : bits;
    long bit = (long)k * cb;
    /* codes never straddle a byte for widths 2 and 4; width 3 can, so read two bytes */
    unsigned lo = row[bit >> 3];
    unsigned hi = ((bit & 7) + cb > 8) ? row[(bit >> 3) + 1] : 0;
    return (int)(((lo | (hi << 8)) >> (bit & 7)) & ((1u << cb) - 1));
}

/* float combine for one (row, group) int8 dot: the one formula every ISA uses */
#define ND_COMBINE(acc, dot, xs, nrm) ((acc) + ((float)(dot) * (xs)) * (nrm))

/* the kernels */
extern const nd_isa_t *nd_isa_select(const char *force);
extern const char *nd_isa_available(void); /* comma-separated names usable on this CPU */
extern void nd_cq_init(nd_cq_t *m, const uint8_t *codes, const uint16_t *norms, int rows,
                       int cols, int bits, int group, const float *codebook);
extern void nd_act_prepare(const nd_isa_t *isa, const nd_cq_t *m, nd_act_t *a, const float *x,
                           int T, int ldx, int int8);
extern void nd_fwht_portable(float *x, int n);
extern uint64_t nd_read_probe(const void *p, size_t n);

#endif
