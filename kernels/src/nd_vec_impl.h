/* The per-token vector work outside the CQ products (norms, RoPE, softmax, SiLU, gates, lane
 * mixing, int8 quantisation of activations), written once with GCC vector extensions over 8 float
 * lanes and instantiated per ISA by nd_kernels.c (no include guard on purpose):
 *
 *   VPFX(name)  prefix for this instantiation's symbols
 *   VATTR       its target attribute (empty: baseline, i.e. SSE2 on x86-64, NEON on aarch64;
 *               target("avx2,fma") for the AVX2 table)
 *
 * Every instantiation does the same operations in the same order (8 lanes, fixed reduction tree,
 * no fused multiply-add: the build uses -ffp-contract=off), so all ISAs give the same bits.
 * exp is a Cephes-style range reduction and degree-6 polynomial (about 1 ulp over the clamped
 * range), not libm: the same bits on every machine. */

VATTR static inline nd_v8f VPFX(ld)(const float *p) {
    nd_v8f v;
    memcpy(&v, p, sizeof(v));
    return v;
}

VATTR static inline void VPFX(st)(float *p, nd_v8f v) { memcpy(p, &v, sizeof(v)); }

VATTR static inline nd_v8f VPFX(splat)(float a) {
    nd_v8f v = {a, a, a, a, a, a, a, a};
    return v;
}

/* ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)): the order of avx2_hsum */
/* lane select without the C++-only vector ?: (a bitwise blend; the compiler emits max/min) */
VATTR static inline nd_v8f VPFX(vmax)(nd_v8f a, nd_v8f b) {
    nd_v8i m = a > b, ai, bi, r;
    memcpy(&ai, &a, 32);
    memcpy(&bi, &b, 32);
    r = (ai & m) | (bi & ~m);
    memcpy(&a, &r, 32);
    return a;
}
VATTR static inline nd_v8f VPFX(vmin)(nd_v8f a, nd_v8f b) {
    nd_v8i m = a < b, ai, bi, r;
    memcpy(&ai, &a, 32);
    memcpy(&bi, &b, 32);
    r = (ai & m) | (bi & ~m);
    memcpy(&a, &r, 32);
    return a;
}
VATTR static inline nd_v8f VPFX(vabs)(nd_v8f a) {
    nd_v8i ai;
    memcpy(&ai, &a, 32);
    ai = ai & 0x7FFFFFFF;
    memcpy(&a, &ai, 32);
    return a;
}

VATTR static inline float VPFX(hsum)(nd_v8f v) {
    float a = v[0] + v[4], b = v[1] + v[5], c = v[2] + v[6], d = v[3] + v[7];
    return (a + c) + (b + d);
}

VATTR static inline float VPFX(hmax)(nd_v8f v) {
    float m = v[0];
    for (int i = 1; i < 8; i++) m = v[i] > m ? v[i] : m;
    return m;
}

VATTR static inline nd_v8f VPFX(exp8)(nd_v8f x) {
    const nd_v8f hi = VPFX(splat)(88.3762626647949f), lo = VPFX(splat)(-87.3365447504f);
    x = VPFX(vmin)(x, hi);
    x = VPFX(vmax)(x, lo);
    /* k = round(x / ln2) by the 1.5 * 2^23 trick (round to nearest even) */
    const nd_v8f magic = VPFX(splat)(12582912.f);
    nd_v8f k = (x * VPFX(splat)(1.44269504088896341f) + magic) - magic;
    nd_v8f r = x - k * VPFX(splat)(0.693359375f);
    r = r - k * VPFX(splat)(-2.12194440e-4f);
    nd_v8f p = VPFX(splat)(1.9875691500e-4f);
    p = p * r + VPFX(splat)(1.3981999507e-3f);
    p = p * r + VPFX(splat)(8.3334519073e-3f);
    p = p * r + VPFX(splat)(4.1665795894e-2f);
    p = p * r + VPFX(splat)(1.6666665459e-1f);
    p = p * r + VPFX(splat)(5.0000001201e-1f);
    p = p * (r * r) + r + VPFX(splat)(1.f);
    nd_v8i ki = __builtin_convertvector(k, nd_v8i);
    nd_v8i bits = (ki + 127) << 23;
    nd_v8f sc;
    memcpy(&sc, &bits, sizeof(sc));
    return p * sc;
}

VATTR static inline nd_v8f VPFX(sigm8)(nd_v8f x) {
    return VPFX(splat)(1.f) / (VPFX(splat)(1.f) + VPFX(exp8)(-x));
}

/* exp of one float with the vector formula (scalar callers that must match vector ones) */
VATTR static float VPFX(expf1)(float x) { return VPFX(exp8)(VPFX(splat)(x))[0]; }
VATTR static float VPFX(sigm1)(float x) { return VPFX(sigm8)(VPFX(splat)(x))[0]; }

VATTR static float VPFX(sumsq)(const float *x, int n) {
    nd_v8f acc = VPFX(splat)(0.f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f v = VPFX(ld)(x + i);
        acc = acc + v * v;
    }
    float s = VPFX(hsum)(acc);
    for (; i < n; i++) s += x[i] * x[i];
    return s;
}

/* y = (1 + g) * x * r with r = 1 / sqrt(mean(x^2) + 1e-6); g == NULL: rms_unit. y may be x. */
VATTR static void VPFX(zcn)(const float *x, const float *g, float *y, int n) {
    const float r = 1.f / sqrtf(VPFX(sumsq)(x, n) / n + 1e-6f);
    const nd_v8f rv = VPFX(splat)(r), one = VPFX(splat)(1.f);
    int i = 0;
    if (g) {
        for (; i + 8 <= n; i += 8) VPFX(st)(y + i, (one + VPFX(ld)(g + i)) * VPFX(ld)(x + i) * rv);
        for (; i < n; i++) y[i] = (1.f + g[i]) * x[i] * r;
    } else {
        for (; i + 8 <= n; i += 8) VPFX(st)(y + i, VPFX(ld)(x + i) * rv);
        for (; i < n; i++) y[i] = x[i] * r;
    }
}

/* Half-split RoPE: (x[i], x[i + half]) rotated by angle i. */
VATTR static void VPFX(rope)(float *x, int hd, const float *c, const float *s) {
    const int half = hd / 2;
    int i = 0;
    for (; i + 8 <= half; i += 8) {
        nd_v8f a = VPFX(ld)(x + i), b = VPFX(ld)(x + i + half);
        nd_v8f cv = VPFX(ld)(c + i), sv = VPFX(ld)(s + i);
        VPFX(st)(x + i, a * cv - b * sv);
        VPFX(st)(x + i + half, b * cv + a * sv);
    }
    for (; i < half; i++) {
        float a = x[i], b = x[i + half];
        x[i] = a * c[i] - b * s[i];
        x[i + half] = b * c[i] + a * s[i];
    }
}

/* o *= sigmoid(g) */
VATTR static void VPFX(gate)(float *o, const float *g, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) VPFX(st)(o + i, VPFX(ld)(o + i) * VPFX(sigm8)(VPFX(ld)(g + i)));
    for (; i < n; i++) o[i] *= VPFX(sigm1)(g[i]);
}

/* z = silu(d * z) */
VATTR static void VPFX(silu_mul)(float *z, const float *d, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f v = VPFX(ld)(d + i) * VPFX(ld)(z + i);
        VPFX(st)(z + i, v * VPFX(sigm8)(v));
    }
    for (; i < n; i++) {
        float v = d[i] * z[i];
        z[i] = v * VPFX(sigm1)(v);
    }
}

/* y = a * x + b * y (elementwise vectors a, b may be NULL meaning 1) -- small helpers */
VATTR static void VPFX(mul)(float *z, const float *d, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) VPFX(st)(z + i, VPFX(ld)(z + i) * VPFX(ld)(d + i));
    for (; i < n; i++) z[i] *= d[i];
}

/* y = x + a * v */
VATTR static void VPFX(add_scaled)(float *y, const float *x, float a, const float *v, int n) {
    const nd_v8f av = VPFX(splat)(a);
    int i = 0;
    for (; i + 8 <= n; i += 8) VPFX(st)(y + i, VPFX(ld)(x + i) + av * VPFX(ld)(v + i));
    for (; i < n; i++) y[i] = x[i] + a * v[i];
}

/* y += d * z (elementwise) */
VATTR static void VPFX(add_mul)(float *y, const float *d, const float *z, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) VPFX(st)(y + i, VPFX(ld)(y + i) + VPFX(ld)(d + i) * VPFX(ld)(z + i));
    for (; i < n; i++) y[i] += d[i] * z[i];
}

/* u = sum_i w[i] * X[i] over nl lanes of d floats */
VATTR static void VPFX(lane_sum)(float *u, const float *X, const float *w, int nl, int d) {
    int k = 0;
    for (; k + 8 <= d; k += 8) {
        nd_v8f acc = VPFX(splat)(0.f);
        for (int i = 0; i < nl; i++) acc = acc + VPFX(splat)(w[i]) * VPFX(ld)(X + (size_t)i * d + k);
        VPFX(st)(u + k, acc);
    }
    for (; k < d; k++) {
        float acc = 0.f;
        for (int i = 0; i < nl; i++) acc += w[i] * X[(size_t)i * d + k];
        u[k] = acc;
    }
}

/* mHC update: Xn[i] = hpost[i] * (y - u) + sum_j P[i][j] * X[j]; then X = Xn (in place, by
 * columns of 8), and optionally the lane mean into `mean`. */
VATTR static void VPFX(mhc_mix)(float *X, const float *y, const float *u, const float *hpost,
                                const float P[4][4], int nl, int d, float *mean) {
    const float inv = 1.f / nl;
    int k = 0;
    for (; k + 8 <= d; k += 8) {
        nd_v8f xj[4], dl = VPFX(ld)(y + k) - VPFX(ld)(u + k);
        for (int j = 0; j < nl; j++) xj[j] = VPFX(ld)(X + (size_t)j * d + k);
        nd_v8f msum = VPFX(splat)(0.f);
        for (int i = 0; i < nl; i++) {
            nd_v8f o = VPFX(splat)(hpost[i]) * dl;
            for (int j = 0; j < nl; j++) o = o + VPFX(splat)(P[i][j]) * xj[j];
            VPFX(st)(X + (size_t)i * d + k, o);
            msum = msum + o;
        }
        if (mean) VPFX(st)(mean + k, msum / VPFX(splat)((float)nl));
    }
    for (; k < d; k++) {
        float xj[4], dl = y[k] - u[k], msum = 0.f;
        for (int j = 0; j < nl; j++) xj[j] = X[(size_t)j * d + k];
        for (int i = 0; i < nl; i++) {
            float o = hpost[i] * dl;
            for (int j = 0; j < nl; j++) o = o + P[i][j] * xj[j];
            X[(size_t)i * d + k] = o;
            msum = msum + o;
        }
        if (mean) mean[k] = msum / (float)nl;
    }
    (void)inv;
}

/* mean over nl lanes */
VATTR static void VPFX(lane_mean)(float *out, const float *X, int nl, int d) {
    int k = 0;
    for (; k + 8 <= d; k += 8) {
        nd_v8f acc = VPFX(splat)(0.f);
        for (int i = 0; i < nl; i++) acc = acc + VPFX(ld)(X + (size_t)i * d + k);
        VPFX(st)(out + k, acc / VPFX(splat)((float)nl));
    }
    for (; k < d; k++) {
        float acc = 0.f;
        for (int i = 0; i < nl; i++) acc += X[(size_t)i * d + k];
        out[k] = acc / (float)nl;
    }
}

/* s[i] = exp(s[i] - max); returns the sum (8-lane partial sums, fixed tree, then the tail). */
VATTR static float VPFX(softmax_exp)(float *s, int n) {
    nd_v8f mv = VPFX(splat)(-INFINITY);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f v = VPFX(ld)(s + i);
        mv = VPFX(vmax)(v, mv);
    }
    float mx = VPFX(hmax)(mv);
    for (; i < n; i++) mx = s[i] > mx ? s[i] : mx;
    const nd_v8f m8 = VPFX(splat)(mx);
    nd_v8f acc = VPFX(splat)(0.f);
    i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f e = VPFX(exp8)(VPFX(ld)(s + i) - m8);
        VPFX(st)(s + i, e);
        acc = acc + e;
    }
    float sum = VPFX(hsum)(acc);
    for (; i < n; i++) {
        s[i] = VPFX(expf1)(s[i] - mx);
        sum += s[i];
    }
    return sum;
}

/* attention scores over the int8 cache: s[i] = (float)dot[i] * (qs * ks[i]) * scale; returns
 * their max (-inf when n == 0; a max is exact, so the softmax need not take another pass) */
VATTR static float VPFX(scores_i8)(float *s, const int32_t *dot, const float *ks, float qs,
                                   float scale, int n) {
    const nd_v8f q = VPFX(splat)(qs), sc = VPFX(splat)(scale);
    nd_v8f mv = VPFX(splat)(-INFINITY);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8i d;
        memcpy(&d, dot + i, 32);
        const nd_v8f x = __builtin_convertvector(d, nd_v8f) * (q * VPFX(ld)(ks + i)) * sc;
        VPFX(st)(s + i, x);
        mv = VPFX(vmax)(x, mv);
    }
    float mx = VPFX(hmax)(mv);
    for (; i < n; i++) {
        s[i] = (float)dot[i] * (qs * ks[i]) * scale;
        mx = s[i] > mx ? s[i] : mx;
    }
    return mx;
}

/* max |x| */
VATTR static float VPFX(amax)(const float *x, int n) {
    nd_v8f mv = VPFX(splat)(0.f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f v = VPFX(ld)(x + i);
        mv = VPFX(vmax)(VPFX(vabs)(v), mv);
    }
    float m = VPFX(hmax)(mv);
    for (; i < n; i++) {
        float a = fabsf(x[i]);
        m = a > m ? a : m;
    }
    return m;
}

/* q[i] = clamp(rint(x[i] * inv), -127, 127) (round to nearest even), natural order; returns the
 * sum of the q. */
VATTR static int32_t VPFX(quant)(const float *x, int n, float inv, int8_t *q) {
    const nd_v8f iv = VPFX(splat)(inv), magic = VPFX(splat)(12582912.f);
    const nd_v8f hi = VPFX(splat)(127.f), lo = VPFX(splat)(-127.f);
    nd_v8i acc = {0, 0, 0, 0, 0, 0, 0, 0};
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        nd_v8f r = (VPFX(ld)(x + i) * iv + magic) - magic;
        r = VPFX(vmin)(r, hi);
        r = VPFX(vmax)(r, lo);
        nd_v8i ri = __builtin_convertvector(r, nd_v8i);
        acc = acc + ri;
#ifdef ND_PACK8
        ND_PACK8(q + i, ri);
#else
        for (int j = 0; j < 8; j++) q[i + j] = (int8_t)ri[j];
#endif
    }
    int32_t s = 0;
    for (int j = 0; j < 8; j++) s += acc[j];
    for (; i < n; i++) {
        float r = (x[i] * inv + 12582912.f) - 12582912.f;
        r = r > 127.f ? 127.f : r < -127.f ? -127.f : r;
        q[i] = (int8_t)(int)r;
        s += q[i];
    }
    return s;
}

/* Attention values for `rep` query heads sharing one KV head: out[r][:hd] = sum_i w[r][i] v_i
 * over n keys in order (w rows of stride n; key i at vp[i] + off). int8: v_i is int8 (its scale folded into w). Each key
 * is loaded and converted once for all rep heads. hd % 32 == 0 on the vector path. */
typedef int8_t nd_v8b __attribute__((vector_size(8)));

/* nr (1..4) rows at a time (row r's weights at w[r * ldw]); constant nr after inlining keeps the
 * accumulators in registers. init 0 continues sums already in out: a key range split into blocks
 * gives the same bits as one pass, because each accumulator sees the same sequence of FMAs. */
#define ND_ATTN_V(NAME_NR, NAME_ACC, VT, LOADV)                                              \
    VATTR static inline __attribute__((always_inline)) void NAME_NR(                              \
        float *out, const void *const *vp, int off, const float *w, int ldw, int nr, int n,      \
        int hd, int init) {                                                                      \
        int k0 = 0;                                                                              \
        for (; k0 + 32 <= hd; k0 += 32) {                                                        \
            nd_v8f acc[4][4];                                                                    \
            for (int r = 0; r < nr; r++)                                                         \
                for (int j = 0; j < 4; j++)                                                      \
                    acc[r][j] = init ? VPFX(splat)(0.f)                                          \
                                     : VPFX(ld)(out + (size_t)r * hd + k0 + 8 * j);              \
            for (int i = 0; i < n; i++) {                                                        \
                const VT *v = (const VT *)vp[i] + off + k0;                                      \
                nd_v8f x0 = LOADV(v), x1 = LOADV(v + 8), x2 = LOADV(v + 16), x3 = LOADV(v + 24);  \
                for (int r = 0; r < nr; r++) {                                                   \
                    const nd_v8f wv = VPFX(splat)(w[(size_t)r * ldw + i]);                       \
                    acc[r][0] = VPFX(fma)(wv, x0, acc[r][0]);                                    \
                    acc[r][1] = VPFX(fma)(wv, x1, acc[r][1]);                                    \
                    acc[r][2] = VPFX(fma)(wv, x2, acc[r][2]);                                    \
                    acc[r][3] = VPFX(fma)(wv, x3, acc[r][3]);                                    \
                }                                                                                \
            }                                                                                    \
            for (int r = 0; r < nr; r++)                                                         \
                for (int j = 0; j < 4; j++) VPFX(st)(out + (size_t)r * hd + k0 + 8 * j, acc[r][j]); \
        }                                                                                        \
        for (; k0 < hd; k0++)                                                                    \
            for (int r = 0; r < nr; r++) {                                                       \
                float a = init ? 0.f : out[(size_t)r * hd + k0];                                 \
                for (int i = 0; i < n; i++)                                                      \
                    a = a + w[(size_t)r * ldw + i] * (float)((const VT *)vp[i])[off + k0];       \
                out[(size_t)r * hd + k0] = a;                                                    \
            }                                                                                    \
    }                                                                                            \
    VATTR static void NAME_ACC(float *out, const void *const *vp, int off, const float *w,       \
                               int ldw, int rows, int n, int hd, int init) {                     \
        for (int r0 = 0; r0 < rows;) {                                                           \
            const int left = rows - r0;                                                          \
            float *o = out + (size_t)r0 * hd;                                                    \
            const float *wr = w + (size_t)r0 * ldw;                                              \
            if (left >= 4) {                                                                     \
                NAME_NR(o, vp, off, wr, ldw, 4, n, hd, init);                                    \
                r0 += 4;                                                                         \
            } else if (left >= 2) {                                                              \
                NAME_NR(o, vp, off, wr, ldw, 2, n, hd, init);                                    \
                r0 += 2;                                                                         \
            } else {                                                                             \
                NAME_NR(o, vp, off, wr, ldw, 1, n, hd, init);                                    \
                r0 += 1;                                                                         \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \

/* a * b + c, fused where the ISA has it (ND_FMA8): attention only, where the ISAs need not agree
 * bit for bit (the rest of this file keeps separate multiply and add) */
VATTR static inline nd_v8f VPFX(fma)(nd_v8f a, nd_v8f b, nd_v8f c) {
#ifdef ND_FMA8
    return ND_FMA8(a, b, c);
#else
    return a * b + c;
#endif
}

ND_ATTN_V(VPFX(attn_v_f32_nr), VPFX(attn_v_f32_acc), float, VPFX(ld))
#undef ND_ATTN_V

/* The kernels' int8 activation layout of one 128-group (nd_perm_index) from natural order:
 * CQ2 de-interleaves bytes by 4 (stream j = bytes 4b + j), CQ4 by 2 within each 64-byte half. */
typedef int8_t nd_v16b __attribute__((vector_size(16)));
VATTR static void VPFX(perm_group)(const int8_t *nat, int8_t *q, int cbits) {
    if (cbits == 2) {
        const nd_v16b mk = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
        for (int i = 0; i < 8; i++) {
            nd_v16b v;
            memcpy(&v, nat + 16 * i, 16);
            v = __builtin_shuffle(v, mk);
            for (int j = 0; j < 4; j++) memcpy(q + j * 32 + 4 * i, (const int8_t *)&v + 4 * j, 4);
        }
    } else {
        const nd_v16b mk = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
        for (int h = 0; h < 2; h++)
            for (int i = 0; i < 4; i++) {
                nd_v16b v;
                memcpy(&v, nat + 64 * h + 16 * i, 16);
                v = __builtin_shuffle(v, mk);
                memcpy(q + h * 64 + 8 * i, &v, 8);
                memcpy(q + h * 64 + 32 + 8 * i, (const int8_t *)&v + 8, 8);
            }
    }
}

/* The softmax of the scores s (their max mx given) and the int16 weights of the integer V
 * product in one pass: e = exp(s - mx), summed as softmax_exp sums (8-lane partial sums, fixed
 * tree, then the tail), then x = e * vs (the V scales) into s, and
 * q[i] = rint(x[i] * k), k = min(32767 / max x, 16e6 / sum x). The second bound keeps
 * sum |q| * 127 (the largest |sum q v|) below 2^31, so the int32 sums never overflow; either
 * way a weight keeps at least ~14 bits relative to the row's total. *esum = the sum of e;
 * returns 1 / k (q[i] ~ x[i] / (1 / k)), 0 when every x is 0. q is zero-padded to an even
 * count. The same bits as softmax_exp, then scaling and quantising in separate passes. */
typedef int16_t nd_v8s __attribute__((vector_size(16)));
VATTR static float VPFX(exp_w16)(float *s, int n, float mx, const float *vs, int16_t *q,
                                 float *esum) {
    const nd_v8f m8 = VPFX(splat)(mx);
    nd_v8f acc = VPFX(splat)(0.f), mv = VPFX(splat)(0.f), sv = VPFX(splat)(0.f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const nd_v8f e = VPFX(exp8)(VPFX(ld)(s + i) - m8);
        acc = acc + e;
        const nd_v8f x = e * VPFX(ld)(vs + i);
        VPFX(st)(s + i, x);
        mv = VPFX(vmax)(x, mv);
        sv = sv + x;
    }
    float sum = VPFX(hsum)(acc), xmax = VPFX(hmax)(mv), xsum = VPFX(hsum)(sv);
    for (; i < n; i++) {
        const float e = VPFX(expf1)(s[i] - mx);
        sum += e;
        s[i] = e * vs[i];
        xmax = s[i] > xmax ? s[i] : xmax;
        xsum += s[i];
    }
    *esum = sum;
    const int np = (n + 1) & ~1;
    if (!(xmax > 0.f)) {
        memset(q, 0, (size_t)np * sizeof(int16_t));
        return 0.f;
    }
    float k = 32767.f / xmax;
    const float k2 = 16000000.f / xsum;
    if (k2 < k) k = k2;
    const nd_v8f kv = VPFX(splat)(k), magic = VPFX(splat)(12582912.f);
    for (i = 0; i + 8 <= n; i += 8) {
        const nd_v8f r = (VPFX(ld)(s + i) * kv + magic) - magic;
        const nd_v8s r16 = __builtin_convertvector(__builtin_convertvector(r, nd_v8i), nd_v8s);
        memcpy(q + i, &r16, sizeof(r16));
    }
    for (; i < n; i++) q[i] = (int16_t)((s[i] * k + 12582912.f) - 12582912.f);
    if (n < np) q[n] = 0;
    return 1.f / k;
}

static const nd_vops_t VPFX(vops) = {
    .zcn = VPFX(zcn),
    .rope = VPFX(rope),
    .gate = VPFX(gate),
    .silu_mul = VPFX(silu_mul),
    .mul = VPFX(mul),
    .add_scaled = VPFX(add_scaled),
    .add_mul = VPFX(add_mul),
    .lane_sum = VPFX(lane_sum),
    .mhc_mix = VPFX(mhc_mix),
    .lane_mean = VPFX(lane_mean),
    .softmax_exp = VPFX(softmax_exp),
    .amax = VPFX(amax),
    .quant = VPFX(quant),
    .sigm = VPFX(sigm1),
    .scores_i8 = VPFX(scores_i8),
    .perm_group = VPFX(perm_group),
    .attn_v_f32_acc = VPFX(attn_v_f32_acc),
    .exp_w16 = VPFX(exp_w16),
};
