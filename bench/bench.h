/* Shared helpers of the benchmarks (bench/).  Timings are reported, never
 * asserted; correctness (record counts, checksums) is checked and fails the
 * run. */
#ifndef RPB_BENCH_H
#define RPB_BENCH_H

#include <bpf/libbpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rp_prim.h" /* rp_span */

#define RPB_ROUNDS 15
#define RPB_NPAYLOADS 5
/* Records a core consumer decodes per rp_ring_drain call before reading
 * their payloads: small enough that the batch's headers stay in L1. */
#ifndef RPB_CORE_BATCH
#define RPB_CORE_BATCH 16
#endif
extern const unsigned rpb_payloads[RPB_NPAYLOADS]; /* 8, 64, 256, 512, 4000 */
/* False for a size other than $RPB_PAYLOAD, when that is set (one size
 * only: e.g. instructions per record of one size under callgrind). */
bool rpb_payload_wanted(unsigned size);

typedef struct rpb_producer {
	struct bpf_object *obj;
	int prog_fd;
	int map_fd;   /* bench_events (PERF_EVENT_ARRAY) or bench_rb (RINGBUF) */
} rpb_producer;

/* Open and load a producer object (bench_perf.bpf.o / bench_ringbuf.bpf.o);
 * rb_bytes > 0 sets the ring buffer size.  The payload is a fixed
 * pseudo-random pattern.  0 or -errno. */
int rpb_producer_open(rpb_producer *p, const char *obj_path, const char *map_name, uint32_t rb_bytes);
void rpb_producer_close(rpb_producer *p);
/* Emit n records of size bytes on `cpu` (BPF_PROG_TEST_RUN).  Returns how
 * many were written (< n when the ring is full / no buffer) or -errno. */
long rpb_fill(rpb_producer *p, int cpu, unsigned long n, unsigned size);

int rpb_pin_cpu(int cpu);
uint64_t rpb_ns(void);
/* The median of v[0 .. n - 1] (n <= RPB_ROUNDS; v is left as it was). */
double rpb_median(const double *v, int n);
/* The median over rounds of a[r] / b[r], two consumers' times in the same
 * rounds.  Each round runs every consumer once, back to back, so a slow
 * phase of a shared host that spans a round cancels out of that round's
 * ratio; the ratio of the two medians does not pair the rounds. */
double rpb_paired_ratio(const double *a, const double *b, int n);
/* Each round's time of one consumer as CSV rows (not printed): bench
 * "BENCH-rounds", the round's index in the rounds column, so that a run's
 * spread and any slow phase can be seen, not only its median. */
void rpb_put_rounds(FILE *csv, const char *bench, unsigned payload, const char *impl,
                    const double *t, unsigned long records);
/* One paired ratio as a CSV row: bench "BENCH-paired", impl "IMPL/REF",
 * unit "ratio" (bench/run.sh puts it in the table's ratio column). */
void rpb_put_paired(FILE *csv, const char *bench, unsigned payload, const char *impl,
                    const char *ref, const double *t_impl, const double *t_ref, unsigned long records);
/* The payload every producer copies from (filled by rpb_producer_open). */
extern uint8_t rpb_pattern[4096];

/* The checksum both consumers compute over every payload byte: a plain byte
 * sum (vectorisable, so it costs both sides the same and little). */
static inline uint64_t rpb_sum(const uint8_t *p, size_t n, uint64_t acc)
{
	for (size_t i = 0; i < n; i++)
		acc += p[i];
	return acc;
}

/* The same over the first `want` bytes of a payload in two slices (want <=
 * n0 + n1): one sum when they lie in the first slice, as the plain loop's
 * one sum for a record that does not wrap (the common case), two when the
 * payload wraps the ring end. */
static inline uint64_t rpb_sum_span(const rp_span *s, uint32_t want, uint64_t acc)
{
	if (want <= s->n0)
		return rpb_sum(s->p0, want, acc);
	acc = rpb_sum(s->p0, s->n0, acc);
	return rpb_sum(s->p1, want - s->n0, acc);
}

/* The light consumers' checksum: a payload's first and last byte (an agent
 * that looks at a few fields of each record).  n >= 1: every payload here
 * has 8 bytes or more. */
static inline uint64_t rpb_touch(const uint8_t *p, size_t n, uint64_t acc)
{
	return acc + p[0] + p[n - 1];
}

/* The same over the first `want` bytes (1 <= want <= n0 + n1) of a payload
 * in two slices. */
static inline uint64_t rpb_touch_span(const rp_span *s, uint32_t want, uint64_t acc)
{
	if (want <= s->n0)
		return rpb_touch(s->p0, want, acc);
	return acc + (s->n0 ? s->p0[0] : s->p1[0]) + s->p1[want - s->n0 - 1];
}

/* One result: a CSV row (bench,payload,impl,value,unit,records,rounds,extra)
 * and a progress line on stdout.  bench/run.sh turns the CSV into the one
 * table, the chart and the ratios. */
void rpb_put(FILE *csv, const char *bench, unsigned payload, const char *impl, double value,
             const char *unit, unsigned long records, int rounds, const char *extra);

int rpb_perf(const char *obj_dir, FILE *csv);
int rpb_ringbuf(const char *obj_dir, FILE *csv);
int rpb_floor(FILE *csv);
int rpb_e2e(const char *obj_dir, FILE *csv);

/* The floor walks, run once each without timing (for callgrind):
 * 0, or 1 if a walk missed a record or a checksum differs. */
int rpb_floor_walks(unsigned payload, unsigned long *records);
struct rp_ring;
uint64_t rpb_walk_plain(const uint8_t *data, uint64_t head, uint64_t tail, unsigned payload,
                        unsigned long *n);
uint64_t rpb_walk_iter(const struct rp_ring *ring, uint64_t head, uint64_t tail, unsigned payload,
                       unsigned long *n, int *err);
uint64_t rpb_walk_iter_decode(const struct rp_ring *ring, uint64_t head, uint64_t tail,
                              unsigned long *n, int *err);
uint64_t rpb_walk_plain_decode(const uint8_t *data, uint64_t head, uint64_t tail, unsigned long *n);
uint64_t rpb_walk_iter_view_decode(const struct rp_ring *ring, uint64_t head, uint64_t tail,
                                   unsigned long *n, int *err);

#endif
