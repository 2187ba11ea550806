/* The Needle 2 forward pass over packed CQ weights: one call per token or per prefill chunk. */
#ifndef ND_ENGINE_H
#define ND_ENGINE_H
#include "nd_common.h"

typedef struct {
    nd_cq_t q, k, v, g, o;
    const float *norm_in, *q_norm, *k_norm, *post_norm, *pre_hada, *d1, *d2, *d3;
    float attn_gate; /* raw; sigmoid applied by the engine */
} nd_layer_w;

typedef struct {
    nd_cq_t tables, key, value;
    const float *taps; /* [conv_taps, d] */
    /* file offsets of the tables' codes and norms: with a model fd the engine reads the few rows
     * a token gathers with pread, so the tables' pages never enter the process's resident set */
    long long tab_codes_off, tab_norms_off;
} nd_engram_w;

typedef struct {
    int vocab, d, H, KV, L, hd, hada_n, lanes;
    int slots, sub_dim, ntables, conv_taps, dil, norders, orders[4], nsites, sites[4];
    float rope_theta;
    nd_cq_t emb, phi_pre, phi_post, phi_res;
    const float *a_pre, *a_post, *a_res, *b_pre, *b_post, *b_res, *final_norm;
    nd_layer_w *layers;
    nd_engram_w eng[4];
    int fd; /* the model file opened for reading, or -1 (tables read from the mapping) */
    /* file offsets of the embedding's codes and norms: with fd set, the rows of the input
     * tokens and of small candidate sets are read with pread too, so the 2 MB embedding does
     * not become resident row by row (each touched row maps its whole fault-around block) */
    long long emb_codes_off, emb_norms_off;
} nd_model_t;

typedef struct nd_engine nd_engine_t;

/* Online attention pooling of a probe head over every cell the engine produces (x0 and the lane
 * mean after each layer, for every token fed): per probe p, the running max m[p], denominator
 * den[p] and weighted sum acc[p][:d] of softmax(scale * probes[p] . cell). The arrays belong to
 * the caller, which snapshots and restores them with the rest of its state. */
typedef struct {
    int P, d;
    const float *probes; /* [P][d] */
    float scale;
    double *m, *den, *acc;
} nd_pool_t;

enum { ND_LOGITS_NONE = 0, ND_LOGITS_LAST = 1, ND_LOGITS_ALL = 2 };
enum {
    ND_OK = 0,
    ND_ERR_FULL = -1,
    ND_ERR_ARG = -2,
    ND_ERR_STATE = -3,
    ND_ERR_NOMEM = -4,  /* an allocation failed */
    ND_ERR_BUDGET = -5, /* the buffers would exceed the caller's byte budget */
};

/* The most positions a cache may hold (window + sinks, or capacity): far beyond any model's
 * context, and small enough that no size the engine computes from it overflows. */
#define ND_MAX_POSITIONS (1 << 24)

/* window <= 0: no window, `capacity` positions of KV (all attended). With a window the cache
 * holds max_sinks pinned slots then the ring of `window`; `sinks` (<= max_sinks) of them are used
 * until nd_engine_set_sinks changes it (which takes effect from position 0: call it with reset).
 * `budget`: the most bytes the engine's buffers may take (0: no limit). NULL on failure, with
 * *err saying why: ND_ERR_ARG (a geometry or setting the engine cannot run, or no such ISA),
 * ND_ERR_BUDGET (the buffers would take *need bytes, over the budget; nothing was left
 * allocated) or ND_ERR_NOMEM (an allocation of the *need bytes failed). */
nd_engine_t *nd_engine_new(const nd_model_t *m, const char *isa, int int8, int window, int sinks,
                           int max_sinks, int capacity, int tmax, int threads, size_t budget,
                           int *err, size_t *need);
int nd_engine_set_sinks(nd_engine_t *e, int sinks);
/* pool every cell of the tokens fed from now on into *pool (NULL: none); the struct is copied,
 * the arrays it points to must outlive the engine's use of them */
void nd_engine_set_pool(nd_engine_t *e, const nd_pool_t *pool);
int nd_engine_sinks(const nd_engine_t *e);
int nd_engine_max_sinks(const nd_engine_t *e);
void nd_sinkhorn(float A[4][4], int n, int force_log);
/* with m->fd set: unmap the engram tables' pages this process may have touched (they stay in
 * the page cache; the engine reads table rows with pread) */
void nd_model_drop_tables(const nd_model_t *m);
void nd_engine_free(nd_engine_t *e);
void nd_engine_reset(nd_engine_t *e);
const char *nd_engine_isa(const nd_engine_t *e);
int nd_engine_pos(const nd_engine_t *e);
size_t nd_engine_bytes(const nd_engine_t *e);
/* n tokens at the current position. logits: [rows] (LAST) or [n, rows] (ALL), rows = ncand or
 * vocab. cells (optional): [n, L + 1, d] = x0 and the lane mean after every layer. */
int nd_engine_forward(nd_engine_t *e, const int32_t *ids, int n, float *logits, int mode,
                      const int32_t *cand, int ncand, float *cells);
size_t nd_state_size(const nd_engine_t *e);
size_t nd_state_size_ex(const nd_engine_t *e, int keep_sinks);
size_t nd_state_save_ex(const nd_engine_t *e, void *buf, size_t cap, int keep_sinks);
size_t nd_state_save(const nd_engine_t *e, void *buf, size_t cap);
int nd_state_load(nd_engine_t *e, const void *buf, size_t n);
/* the step's stage timers (ns), for profiling: see nd_engine.c for the stage list */
void nd_engine_timers(const nd_engine_t *e, double *out, int n);

#endif
