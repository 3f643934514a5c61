/* Benchmark 1: consumer cost on the same per-CPU perf ring.  libbpf's
 * perf_buffer owns the ring of CPU 0; BPF_PROG_TEST_RUN fills it with K
 * records; it is drained by ringproof's record drain (rp_perf_ring_drain on
 * a second mapping of the same event: same control page, same data pages;
 * each record viewed in the callback, rp_bpf_output_view), by its payload
 * drain (rp_perf_ring_drain_payloads: libbpf's callback, one call per
 * payload in one piece, so that its callbacks are libbpf's line for line),
 * by its sample batch API (rp_perf_ring_drain_samples: one callback per
 * batch of payloads in one piece), by ringproof's core called directly on
 * libbpf's mapping (no adapter callback layer), or by
 * perf_buffer__consume_buffer.  The order rotates every round; only the
 * drain is timed.  The payload drain runs twice: on a mapping as by
 * default, and on one with RP_PERF_PREFETCH.  Two passes, as for the BPF
 * ring buffer: "perf", whose callbacks sum every payload byte, and
 * "perf-light", whose callbacks read a payload's first and last byte (an
 * agent that looks at a few fields). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "rp_abi.h"
#include "rp_perf_ring.h"
#include "rp_ring.h"
#include "rp_views.h"

#define PERF_PAGES 1024 /* 4 MiB data area */
#define MAX_K 16384

typedef struct consumed {
	uint64_t sum;
	unsigned long samples;
	unsigned long wrapped;
	unsigned long lost;
	unsigned payload; /* bytes to checksum per record */
	bool light;       /* rpb_touch_span, not rpb_sum_span (the core consumer) */
} consumed;

/* libbpf: the raw size includes stale padding, so both checksum the payload */
static void lb_sample(void *ctx, int cpu, void *data, __u32 size)
{
	consumed *c = ctx;
	(void)cpu;
	(void)size;
	c->sum = rpb_sum(data, c->payload, c->sum);
	c->samples++;
}

static void lb_touch(void *ctx, int cpu, void *data, __u32 size)
{
	consumed *c = ctx;
	(void)cpu;
	(void)size;
	c->sum = rpb_touch(data, c->payload, c->sum);
	c->samples++;
}

static void lb_lost(void *ctx, int cpu, __u64 cnt)
{
	consumed *c = ctx;
	(void)cpu;
	c->lost += cnt;
}

/* The payload bytes a consumer checksums: c->payload, within the sample. */
static inline uint32_t want_of(const consumed *c, uint32_t raw_size)
{
	return c->payload <= raw_size ? c->payload : raw_size;
}

/* ringproof adapter: each record through the callback, viewed and summed */
static int ad_record(void *ctx, const rp_record *rec)
{
	consumed *c = ctx;
	rp_bpf_output out;
	if (rp_bpf_output_view(rec, &out) != RP_OK)
		return 0;
	c->sum = rpb_sum_span(&out.data, want_of(c, out.raw_size), c->sum);
	c->samples++;
	return 0;
}

static int ad_record_touch(void *ctx, const rp_record *rec)
{
	consumed *c = ctx;
	rp_bpf_output out;
	if (rp_bpf_output_view(rec, &out) != RP_OK)
		return 0;
	c->sum = rpb_touch_span(&out.data, want_of(c, out.raw_size), c->sum);
	c->samples++;
	return 0;
}

/* ringproof payload drain: one call per BPF-output sample from the fused
 * walk, as libbpf's sample callback gets one per record */
static int ad_payload(void *ctx, const void *data, uint32_t size)
{
	consumed *c = ctx;
	(void)size;
	c->sum = rpb_sum(data, c->payload, c->sum);
	c->samples++;
	return 0;
}

static int ad_payload_touch(void *ctx, const void *data, uint32_t size)
{
	consumed *c = ctx;
	(void)size;
	c->sum = rpb_touch(data, c->payload, c->sum);
	c->samples++;
	return 0;
}

/* ringproof sample batch API: one call per batch of payloads, each summed */
static int ad_samples(void *ctx, const rp_payload *s, uint32_t n)
{
	consumed *c = ctx;
	uint64_t sum = c->sum;
	for (uint32_t i = 0; i < n; i++)
		sum = rpb_sum(s[i].data, c->payload, sum);
	c->samples += n;
	c->sum = sum;
	return 0;
}

static int ad_samples_touch(void *ctx, const rp_payload *s, uint32_t n)
{
	consumed *c = ctx;
	uint64_t sum = c->sum;
	for (uint32_t i = 0; i < n; i++)
		sum = rpb_touch(s[i].data, c->payload, sum);
	c->samples += n;
	c->sum = sum;
	return 0;
}

/* The records between sample batches: LOST fails the run, as for rp-core. */
static int ad_other(void *ctx, const rp_record *rec)
{
	consumed *c = ctx;
	if (rec->type == RP_RECORD_LOST)
		c->lost++;
	return 0;
}

/* ringproof core: acquire head, rp_ring_drain in batches, view each BPF-output
 * sample, checksum both slices, release-store tail once. */
static int rp_consume(struct perf_event_mmap_page *pg, const rp_ring *ring, consumed *c)
{
	rp_record recs[RPB_CORE_BATCH];
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = __atomic_load_n(&pg->data_tail, __ATOMIC_RELAXED);
	rp_status st;

	do {
		uint32_t n = 0;
		st = rp_ring_drain(ring, head, &tail, recs, RPB_CORE_BATCH, &n);
		for (uint32_t i = 0; i < n; i++) {
			rp_bpf_output out;
			if (rp_bpf_output_view(&recs[i], &out) != RP_OK) {
				if (recs[i].type == RP_RECORD_LOST)
					c->lost++;
				continue;
			}
			const uint32_t want = want_of(c, out.raw_size);
			c->sum = c->light ? rpb_touch_span(&out.data, want, c->sum)
			                  : rpb_sum_span(&out.data, want, c->sum);
			c->wrapped += recs[i].body.n1 != 0;
			c->samples++;
		}
	} while (st == RP_MORE);
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return st < 0 ? st : 0;
}

/* One pass: the callbacks every consumer uses, and the checksum they add up. */
typedef struct perf_pass {
	const char *bench; /* the CSV's bench column */
	perf_buffer_sample_fn lb_fn;
	rp_perf_ring_fn record_fn;
	rp_perf_payload_fn payload_fn;
	rp_perf_samples_fn samples_fn;
	bool light;
} perf_pass;

/* The consumers, in the order of the CSV; the run order rotates.
 * rp-payload-pf: the payload drain on a ring mapped with RP_PERF_PREFETCH. */
enum { C_ADAPTER, C_PAYLOAD, C_PAYLOAD_PF, C_BATCH, C_CORE, C_LIBBPF, NCONS };
static const char *const cons_name[NCONS] = { "rp-adapter", "rp-payload", "rp-payload-pf",
	                                      "rp-batch",   "rp-core",    "libbpf" };

typedef struct perf_bench {
	rpb_producer prod;
	struct perf_buffer *pb;
	consumed lbc; /* libbpf's callbacks write here */
	struct perf_event_mmap_page *pg;
	rp_ring ring; /* libbpf's mapping of the CPU 0 ring */
	rp_perf_ring ad;   /* ringproof's mapping of the same event */
	rp_perf_ring ad_pf; /* and one with RP_PERF_PREFETCH */
} perf_bench;

/* Drain CPU 0's ring with consumer `who` into *c; returns the ns taken,
 * or a negative value on a drain error. */
static double drain(perf_bench *b, const perf_pass *pass, int who, consumed *c)
{
	int err = 0;
	uint64_t t0 = 0, t1 = 0;
	rp_perf_ring *ad = who == C_PAYLOAD_PF ? &b->ad_pf : &b->ad;

	ad->tail = rp_perf_ring_tail(ad); /* the others moved it since */
	switch (who) {
	case C_ADAPTER:
		t0 = rpb_ns();
		err = rp_perf_ring_drain(ad, pass->record_fn, c, 0);
		t1 = rpb_ns();
		break;
	case C_PAYLOAD:
	case C_PAYLOAD_PF:
		t0 = rpb_ns();
		err = rp_perf_ring_drain_payloads(ad, pass->payload_fn, ad_other, c, 0);
		t1 = rpb_ns();
		break;
	case C_BATCH:
		t0 = rpb_ns();
		err = rp_perf_ring_drain_samples(ad, pass->samples_fn, ad_other, c, 0);
		t1 = rpb_ns();
		break;
	case C_CORE:
		t0 = rpb_ns();
		err = rp_consume(b->pg, &b->ring, c);
		t1 = rpb_ns();
		break;
	default:
		b->lbc = *c;
		t0 = rpb_ns();
		err = perf_buffer__consume_buffer(b->pb, 0);
		t1 = rpb_ns();
		*c = b->lbc;
		break;
	}
	return err < 0 ? -1.0 : (double)(t1 - t0);
}

/* Map CPU 0's ring: libbpf's perf_buffer with the pass's callback, and
 * ringproof's two mappings of the same event.  0, or 1 (said why). */
static int bench_map(perf_bench *b, const perf_pass *pass)
{
	void *base;
	size_t map_size;

	b->pb = perf_buffer__new(b->prod.map_fd, PERF_PAGES, pass->lb_fn, lb_lost, &b->lbc, NULL);
	if (!b->pb) {
		fprintf(stderr, "bench %s: perf_buffer__new: %s\n", pass->bench, strerror(errno));
		return 1;
	}
	if (perf_buffer__buffer(b->pb, 0, &base, &map_size) < 0) {
		fprintf(stderr, "bench %s: perf_buffer__buffer: %s\n", pass->bench, strerror(errno));
		return 1;
	}
	b->pg = base;
	b->ring = (rp_ring){ .data = (const uint8_t *)base + b->pg->data_offset,
		             .size = b->pg->data_size };
	int fd = perf_buffer__buffer_fd(b->pb, 0);
	int err = rp_perf_ring_map(&b->ad, fd, PERF_PAGES, 0);
	if (!err)
		err = rp_perf_ring_map(&b->ad_pf, fd, PERF_PAGES, RP_PERF_PREFETCH);
	if (err) {
		fprintf(stderr, "bench %s: rp_perf_ring_map: %d\n", pass->bench, err);
		return 1;
	}
	return 0;
}

static void bench_unmap(perf_bench *b)
{
	rp_perf_ring_unmap(&b->ad);
	rp_perf_ring_unmap(&b->ad_pf);
	perf_buffer__free(b->pb);
	b->pb = NULL;
}

/* One pass at every payload size: 0, or 1 if a consumer missed a record or
 * a checksum differs. */
static int run_pass(perf_bench *b, const perf_pass *pass, FILE *csv)
{
	int rc = bench_map(b, pass);

	if (rc) {
		bench_unmap(b);
		return rc;
	}
	printf("perf ring (%s): CPU 0 ring of %llu KiB, %d rounds + 1 warm-up, consumers rotate\n",
	       pass->bench, (unsigned long long)b->pg->data_size / 1024, RPB_ROUNDS);
	for (int pi = 0; pi < RPB_NPAYLOADS && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		if (!rpb_payload_wanted(size))
			continue;
		unsigned rec_size = 8 + ((size + 4 + 7) / 8) * 8;
		unsigned long k = (unsigned long)(b->pg->data_size * 9 / 10) / rec_size;
		if (k > MAX_K)
			k = MAX_K;
		uint64_t want = (pass->light ? rpb_touch(rpb_pattern, size, 0)
		                             : rpb_sum(rpb_pattern, size, 0)) * k;
		double t[NCONS][RPB_ROUNDS];
		unsigned long wrapped = 0;
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) { /* round -1 warms up */
			for (int j = 0; j < NCONS; j++) {
				int who = (j + (r < 0 ? 0 : r)) % NCONS; /* rotate the order */
				if (rpb_fill(&b->prod, 0, k, size) != (long)k) {
					fprintf(stderr, "bench %s: the ring did not take %lu records of %u bytes\n",
					        pass->bench, k, size);
					rc = 1;
					break;
				}
				consumed c = { .payload = size, .light = pass->light };
				double ns = drain(b, pass, who, &c);
				if (ns < 0 || c.samples != k || c.sum != want || c.lost) {
					fprintf(stderr, "bench %s: %s drained %lu/%lu records, checksum %s, lost %lu%s\n",
					        pass->bench, cons_name[who], c.samples, k,
					        c.sum == want ? "ok" : "WRONG", c.lost, ns < 0 ? ", drain error" : "");
					rc = 1;
					break;
				}
				if (r >= 0) {
					t[who][r] = ns / (double)k;
					wrapped += c.wrapped;
				}
			}
		}
		if (rc)
			break;
		char extra[64];
		snprintf(extra, sizeof(extra), "wrapped=%lu", wrapped);
		for (int j = 0; j < NCONS; j++)
			rpb_put(csv, pass->bench, size, cons_name[j], rpb_median(t[j], RPB_ROUNDS), "ns/record",
			        k, RPB_ROUNDS, j == C_CORE ? extra : "");
		for (int j = 0; j < NCONS; j++)
			rpb_put_rounds(csv, pass->bench, size, cons_name[j], t[j], k);
		for (int j = 0; j < NCONS; j++)
			if (j != C_LIBBPF)
				rpb_put_paired(csv, pass->bench, size, cons_name[j], cons_name[C_LIBBPF], t[j],
				               t[C_LIBBPF], k);
	}
	bench_unmap(b);
	return rc;
}

int rpb_perf(const char *obj_dir, FILE *csv)
{
	static const perf_pass passes[] = {
		{ "perf", lb_sample, ad_record, ad_payload, ad_samples, false },
		{ "perf-light", lb_touch, ad_record_touch, ad_payload_touch, ad_samples_touch, true },
	};
	char path[4096];
	static perf_bench b;
	snprintf(path, sizeof(path), "%s/bench_perf.bpf.o", obj_dir);
	int err = rpb_producer_open(&b.prod, path, "bench_events", 0);
	if (err) {
		fprintf(stderr, "bench perf: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]) && rc == 0; i++)
		rc = run_pass(&b, &passes[i], csv);
	rpb_producer_close(&b.prod);
	return rc;
}
