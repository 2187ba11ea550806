/* Runs the CQ kernels of every ISA path this CPU offers on inputs from a file and writes the
 * results, so the same inputs can be compared across machines (x86-64 native, aarch64 under
 * qemu as Cortex-A76 with dot product and Cortex-A72 without).
 *
 * input:  int32 rows, cols, bits, group, T; float32 codebook[16]; uint8 codes[rows*row_bytes];
 *         uint16 norms[rows*groups]; float32 x[T*cols]
 * output: for each path, one file OUTDIR/<path>.bin: float32 fp32 products [T*rows],
 *         int8 single-token products [T*rows], int8 blocked products [T*rows], fwht(x) [T*in_pad],
 *         then the per-token vector ops on x: zcn(x_t, g = x_{t+1}) [T*cols], softmax_exp(x_t)
 *         [T*cols] and its sums [T], x_t * sigmoid(x_{t+1}) [T*cols], silu(x_t * x_{t+1})
 *         [T*cols], and int32 q.k of the int8 activations as 64-wide heads: q = the first head,
 *         keys = every head [T*in_pad/64], then the int32 attention V product (attn_v_blk) of 3
 *         rows of int16 weights (w[r][i] = 1000 * (r + 1) - 37 * i) over the same rows as
 *         values, summed in two calls (init 1 over the first 5 keys, then init 0) [3*64], then
 *         those int8 rows themselves [T*in_pad bytes]
 * stdout: the paths, comma-separated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nd_common.h"

static void *slurp(FILE *f, size_t n) {
    void *p = calloc(1, n + 64);
    if (n && fread(p, 1, n, f) != n) {
        fprintf(stderr, "short input\n");
        exit(2);
    }
    return p;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s INPUT OUTDIR\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    int32_t hdr[5];
    if (fread(hdr, 4, 5, f) != 5) return 2;
    int rows = hdr[0], cols = hdr[1], bits = hdr[2], group = hdr[3], T = hdr[4];
    float cb[16];
    if (fread(cb, 4, 16, f) != 16) return 2;
    nd_cq_t m;
    nd_cq_init(&m, NULL, NULL, rows, cols, bits, group, cb);
    uint8_t *codes = slurp(f, (size_t)rows * m.row_bytes);
    uint16_t *norms = slurp(f, (size_t)rows * m.groups * 2);
    float *x = slurp(f, (size_t)T * cols * 4);
    fclose(f);
    nd_cq_init(&m, codes, norms, rows, cols, bits, group, cb);
    const char *avail = nd_isa_available();
    printf("%s\n", avail);
    char names[128];
    strncpy(names, avail, sizeof(names) - 1);
    names[sizeof(names) - 1] = 0;
    for (char *name = strtok(names, ","); name; name = strtok(NULL, ",")) {
        const nd_isa_t *isa = nd_isa_select(name);
        nd_act_t a;
        a.xr = calloc((size_t)T * m.in_pad, 4);
        a.xq = calloc((size_t)T * m.in_pad, 1);
        a.xs = calloc((size_t)T * m.groups, 4);
        a.xsum = calloc((size_t)T * m.groups, 4);
        float *yf = calloc((size_t)T * rows, 4), *y1 = calloc((size_t)T * rows, 4),
              *ym = calloc((size_t)T * rows, 4);
        nd_act_prepare(isa, &m, &a, x, T, cols, 0);
        isa->mm_f32(&m, &a, yf, rows, 0, rows, NULL);
        float *fw = malloc((size_t)T * m.in_pad * 4);
        memcpy(fw, a.xr, (size_t)T * m.in_pad * 4);
        nd_act_prepare(isa, &m, &a, x, T, cols, 1);
        isa->mm_i8(&m, &a, ym, rows, 0, rows, NULL);
        nd_act_t one = a;
        one.T = 1;
        for (int t = 0; t < T; t++) {
            one.xq = a.xq + (size_t)t * m.in_pad;
            one.xs = a.xs + (size_t)t * m.groups;
            one.xsum = a.xsum + (size_t)t * m.groups;
            isa->mv_i8(&m, &one, y1 + (size_t)t * rows, 0, rows);
        }
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.bin", argv[2], name);
        FILE *o = fopen(path, "wb");
        if (!o) return 3;
        fwrite(yf, 4, (size_t)T * rows, o);
        fwrite(y1, 4, (size_t)T * rows, o);
        fwrite(ym, 4, (size_t)T * rows, o);
        fwrite(fw, 4, (size_t)T * m.in_pad, o);
        /* the vector ops (nd_vec_impl.h): the same bits on every ISA */
        const size_t tc = (size_t)T * cols;
        float *vz = calloc(tc, 4), *vs = malloc(tc * 4), *sums = calloc(T, 4), *vg = malloc(tc * 4),
              *vl = malloc(tc * 4);
        memcpy(vs, x, tc * 4);
        for (int t = 0; t < T; t++) {
            const float *xt = x + (size_t)t * cols, *xn = x + (size_t)((t + 1) % T) * cols;
            isa->v->zcn(xt, xn, vz + (size_t)t * cols, cols);
            sums[t] = isa->v->softmax_exp(vs + (size_t)t * cols, cols);
            memcpy(vg + (size_t)t * cols, xt, cols * 4);
            isa->v->gate(vg + (size_t)t * cols, xn, cols);
            memcpy(vl + (size_t)t * cols, xt, cols * 4);
            isa->v->silu_mul(vl + (size_t)t * cols, xn, cols);
        }
        /* the int8 heads as the cache holds them (blocked K, slot-pair V), each kernel called
         * for two runs that meet inside a block and a pair */
        const int nk = T * m.in_pad / 64, nkr = (nk + 7) & ~7;
        int8_t *kb = calloc((size_t)nkr * 64, 1), *vb = calloc((size_t)nkr * 64, 1);
        for (int s = 0; s < nk; s++)
            for (int j = 0; j < 64; j++) {
                kb[nd_k8_at(s, j, 64)] = a.xq[(size_t)s * 64 + j];
                vb[nd_v8_at(s, j, 64)] = a.xq[(size_t)s * 64 + j];
            }
        int32_t *qk = calloc(nk, 4);
        isa->qk_blk(a.xq, 64, 1, kb, 0, 5, 64, qk, nk);
        isa->qk_blk(a.xq, 64, 1, kb, 5, nk, 64, qk, nk);
        int16_t *w16 = calloc((size_t)3 * nk + 2, 2);
        for (int r = 0; r < 3; r++)
            for (int i = 0; i < nk; i++) w16[(size_t)r * nk + i] = (int16_t)(1000 * (r + 1) - 37 * i);
        int32_t av[3 * 64];
        isa->attn_v_blk(av, vb, 0, 5, w16, nk, 3, 64, 1);
        isa->attn_v_blk(av, vb, 5, nk, w16 + 5, nk, 3, 64, 0);
        fwrite(vz, 4, tc, o);
        fwrite(vs, 4, tc, o);
        fwrite(sums, 4, T, o);
        fwrite(vg, 4, tc, o);
        fwrite(vl, 4, tc, o);
        fwrite(qk, 4, nk, o);
        fwrite(av, 4, 3 * 64, o);
        fwrite(a.xq, 1, (size_t)nk * 64, o);
        fclose(o);
    }
    return 0;
}
