/* Stress test of the engine's spin-then-sleep thread pool (kernels/src/nd_engine.c), built with
 * the engine itself so the pool under test is the one that ships: many short jobs back to back
 * (the workers stay spinning), then jobs after pauses longer than the spin budget (the workers
 * fall asleep and must be woken), with every part's result checked each time. A lost wake-up
 * hangs (the test's timeout catches it); a torn job shows up as a wrong sum.
 * usage: pool_harness THREADS JOBS; prints "ok <jobs>" or the first failure. */
#include "../../kernels/src/nd_engine.c"

#include <stdio.h>

typedef struct {
    long job;
    long sums[16];
    int parts_seen[16];
} stress_ctx;

static void stress_part(void *ctx, int part, int nparts) {
    stress_ctx *c = ctx;
    long s = 0;
    for (long i = 0; i < 200 + part * 37; i++) s += (c->job * 31 + i) % 97;
    c->sums[part] = s;
    c->parts_seen[part] = nparts;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2;
    long jobs = argc > 2 ? atol(argv[2]) : 100000;
    pool_t *p = pool_new(n);
    if (!p) {
        fprintf(stderr, "no pool\n");
        return 2;
    }
    stress_ctx c;
    for (long j = 0; j < jobs; j++) {
        memset(&c, 0, sizeof c);
        c.job = j;
        if (j % 5000 == 4999) { /* past the spin budget: the workers go to sleep */
            struct timespec ts = {0, 3 * ND_SPIN_NS};
            nanosleep(&ts, NULL);
        }
        pool_run(p, stress_part, &c, n);
        for (int part = 0; part < p->n; part++) {
            long want = 0;
            for (long i = 0; i < 200 + part * 37; i++) want += (j * 31 + i) % 97;
            if (c.sums[part] != want || c.parts_seen[part] != p->n) {
                printf("job %ld part %d: sum %ld want %ld, nparts %d\n", j, part, c.sums[part],
                       want, c.parts_seen[part]);
                return 1;
            }
        }
    }
    pool_free(p);
    printf("ok %ld\n", jobs);
    return 0;
}
