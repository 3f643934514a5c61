/* Benchmark 2: BPF ring buffer consumer cost.  One BPF_MAP_TYPE_RINGBUF is
 * mapped by libbpf's ring_buffer and twice by ringproof's adapter
 * (rp_bpf_ringbuf_map with a per-record callback, rp_bpf_ringbuf_map_batch
 * with a per-batch callback); all publish the same consumer_pos.  The
 * adapter keeps its own consumer position (it never trusts consumer_pos,
 * which anyone who maps the ring may write), so before its drain the bench
 * sets it to where the previous consumer left consumer_pos.
 * BPF_PROG_TEST_RUN fills it with K records; A/B alternate every round;
 * only the drain is timed.
 * Two passes: "ringbuf", whose callbacks sum every payload byte, and
 * "ringbuf-light", whose callbacks read a payload's first and last byte (an
 * agent that looks at a few fields): with little work per record, what is
 * left is the walk and the delivery. */
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "rp_bpf_ringbuf.h"

#define RB_BYTES (1u << 22)
#define MAX_K 16384

typedef struct consumed {
	uint64_t sum;
	unsigned long n;
} consumed;

static int lb_sample(void *ctx, void *data, size_t size)
{
	consumed *c = ctx;
	c->sum = rpb_sum(data, size, c->sum);
	c->n++;
	return 0;
}

static int rp_sample(void *ctx, const void *data, uint32_t len)
{
	consumed *c = ctx;
	c->sum = rpb_sum(data, len, c->sum);
	c->n++;
	return 0;
}

/* Batch API: one call per batch of (data, len) samples, each contiguous. */
static int rp_batch(void *ctx, const rp_payload *recs, uint32_t n)
{
	consumed *c = ctx;
	uint64_t sum = c->sum;
	for (uint32_t i = 0; i < n; i++)
		sum = rpb_sum(recs[i].data, recs[i].size, sum);
	c->sum = sum;
	c->n += n;
	return 0;
}

/* The same three with a light consumer: the first and last payload byte. */
static int lb_touch(void *ctx, void *data, size_t size)
{
	consumed *c = ctx;
	c->sum = rpb_touch(data, size, c->sum);
	c->n++;
	return 0;
}

static int rp_touch(void *ctx, const void *data, uint32_t len)
{
	consumed *c = ctx;
	c->sum = rpb_touch(data, len, c->sum);
	c->n++;
	return 0;
}

static int rp_batch_touch(void *ctx, const rp_payload *recs, uint32_t n)
{
	consumed *c = ctx;
	uint64_t sum = c->sum;
	for (uint32_t i = 0; i < n; i++)
		sum = rpb_touch(recs[i].data, recs[i].size, sum);
	c->sum = sum;
	c->n += n;
	return 0;
}

/* The consumers, in the order of the CSV; the run order rotates. */
enum { C_ADAPTER, C_BATCH, C_LIBBPF, NCONS };
static const char *const cons_name[NCONS] = { "rp-adapter", "rp-batch", "libbpf" };

typedef struct rb_bench {
	rpb_producer prod;
	struct ring_buffer *lb;
	rp_bpf_ringbuf rb, rbb; /* per-record and batch delivery */
	consumed c; /* every consumer's callbacks write here */
} rb_bench;

/* Drain the ring with consumer `who` into b->c: the ns taken, or a
 * negative value on a drain error. */
static double drain(rb_bench *b, int who)
{
	int got;
	rp_bpf_ringbuf *rp = who == C_ADAPTER ? &b->rb : &b->rbb;
	if (who != C_LIBBPF)
		rp->consumer = rp_bpf_ringbuf_consumer(rp); /* the others moved it since */
	uint64_t t0 = rpb_ns();
	switch (who) {
	case C_ADAPTER:
	case C_BATCH:
		got = rp_bpf_ringbuf_consume(rp, 0);
		break;
	default:
		got = ring_buffer__consume(b->lb);
		break;
	}
	uint64_t t1 = rpb_ns();
	return got < 0 ? -1.0 : (double)(t1 - t0);
}

/* One pass of the three consumers with the given callbacks and checksum:
 * 0, or 1 if a consumer missed a record or a checksum differs. */
typedef struct rb_pass {
	const char *bench; /* the CSV's bench column */
	ring_buffer_sample_fn lb_fn;
	rp_bpf_ringbuf_fn rp_fn;
	rp_bpf_ringbuf_batch_fn batch_fn;
	uint64_t (*check)(const uint8_t *p, size_t n, uint64_t acc);
} rb_pass;

static uint64_t sum_all(const uint8_t *p, size_t n, uint64_t acc)
{
	return rpb_sum(p, n, acc);
}

static uint64_t sum_touch(const uint8_t *p, size_t n, uint64_t acc)
{
	return rpb_touch(p, n, acc);
}

static int run_pass(rb_bench *b, const rb_pass *pass, FILE *csv)
{
	b->lb = ring_buffer__new(b->prod.map_fd, pass->lb_fn, &b->c, NULL);
	int rerr = rp_bpf_ringbuf_map(&b->rb, b->prod.map_fd, pass->rp_fn, &b->c, 0);
	if (!rerr)
		rerr = rp_bpf_ringbuf_map_batch(&b->rbb, b->prod.map_fd, pass->batch_fn, &b->c, 0);
	if (!b->lb || rerr) {
		fprintf(stderr, "bench %s: mapping: libbpf %s, ringproof %d\n", pass->bench,
		        b->lb ? "ok" : strerror(errno), rerr);
		ring_buffer__free(b->lb);
		rp_bpf_ringbuf_unmap(&b->rb);
		rp_bpf_ringbuf_unmap(&b->rbb);
		return 1;
	}
	printf("BPF ring buffer (%s): %u KiB ring, %d rounds + 1 warm-up, consumers rotate\n", pass->bench,
	       RB_BYTES / 1024, RPB_ROUNDS);
	int rc = 0;
	for (int pi = 0; pi < RPB_NPAYLOADS && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		if (!rpb_payload_wanted(size))
			continue;
		unsigned rec = ((size + 8 + 7) / 8) * 8;
		unsigned long k = (RB_BYTES * 9ul / 10) / rec;
		if (k > MAX_K)
			k = MAX_K;
		uint64_t want = pass->check(rpb_pattern, size, 0) * k;
		double t[NCONS][RPB_ROUNDS];
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) { /* round -1 warms up */
			for (int j = 0; j < NCONS; j++) {
				int who = (j + (r < 0 ? 0 : r)) % NCONS; /* rotate the order */
				if (rpb_fill(&b->prod, 0, k, size) != (long)k) {
					fprintf(stderr, "bench %s: the ring did not take %lu records of %u bytes\n",
					        pass->bench, k, size);
					rc = 1;
					break;
				}
				memset(&b->c, 0, sizeof(b->c));
				double ns = drain(b, who);
				if (ns < 0 || b->c.n != k || b->c.sum != want) {
					fprintf(stderr, "bench %s: %s drained %lu/%lu records, checksum %s%s\n",
					        pass->bench, cons_name[who], b->c.n, k, b->c.sum == want ? "ok" : "WRONG",
					        ns < 0 ? ", drain error" : "");
					rc = 1;
					break;
				}
				if (r >= 0)
					t[who][r] = ns / (double)k;
			}
		}
		if (rc)
			break;
		for (int j = 0; j < NCONS; j++)
			rpb_put(csv, pass->bench, size, cons_name[j], rpb_median(t[j], RPB_ROUNDS), "ns/record", k,
			        RPB_ROUNDS, "");
		for (int j = 0; j < NCONS; j++)
			rpb_put_rounds(csv, pass->bench, size, cons_name[j], t[j], k);
		for (int j = 0; j < NCONS; j++)
			if (j != C_LIBBPF)
				rpb_put_paired(csv, pass->bench, size, cons_name[j], cons_name[C_LIBBPF], t[j],
				               t[C_LIBBPF], k);
	}
	rp_bpf_ringbuf_unmap(&b->rb);
	rp_bpf_ringbuf_unmap(&b->rbb);
	ring_buffer__free(b->lb);
	b->lb = NULL;
	return rc;
}

int rpb_ringbuf(const char *obj_dir, FILE *csv)
{
	static const rb_pass passes[] = {
		{ "ringbuf", lb_sample, rp_sample, rp_batch, sum_all },
		{ "ringbuf-light", lb_touch, rp_touch, rp_batch_touch, sum_touch },
	};
	char path[4096];
	static rb_bench b;
	snprintf(path, sizeof(path), "%s/bench_ringbuf.bpf.o", obj_dir);
	int err = rpb_producer_open(&b.prod, path, "bench_rb", RB_BYTES);
	if (err) {
		fprintf(stderr, "bench ringbuf: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]) && rc == 0; i++)
		rc = run_pass(&b, &passes[i], csv);
	rpb_producer_close(&b.prod);
	return rc;
}
