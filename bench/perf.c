/* Benchmark 1: consumer cost on the same per-CPU perf ring.  libbpf's
 * perf_buffer owns the ring of CPU 0; BPF_PROG_TEST_RUN fills it with K
 * records; it is drained by ringproof's adapter (rp_perf_ring_drain on a
 * second mapping of the same event: same control page, same data pages;
 * each record viewed in the callback), by its payload drain
 * (rp_perf_ring_drain_payloads: one call per sample from the fused walk), by
 * its sample batch API (rp_perf_ring_drain_samples: one callback per batch
 * of BPF-output payloads, decoded by the core's fused walk), by ringproof's core called directly on libbpf's mapping (no
 * adapter callback layer), or by perf_buffer__consume_buffer.  The order
 * rotates every round; only the drain is timed. */
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
} consumed;

static void lb_sample(void *ctx, int cpu, void *data, __u32 size)
{
	consumed *c = ctx;
	(void)cpu;
	(void)size; /* raw size includes stale padding: checksum the payload */
	c->sum = rpb_sum(data, c->payload, c->sum);
	c->samples++;
}

static void lb_lost(void *ctx, int cpu, __u64 cnt)
{
	consumed *c = ctx;
	(void)cpu;
	c->lost += cnt;
}

/* ringproof adapter: each record through the callback, viewed and summed */
static int ad_record(void *ctx, const rp_record *rec)
{
	consumed *c = ctx;
	rp_bpf_output out;
	if (rp_bpf_output_view(rec, &out) != RP_OK)
		return 0;
	uint32_t want = c->payload <= out.raw_size ? c->payload : out.raw_size;
	c->sum = rpb_sum_span(&out.data, want, c->sum);
	c->samples++;
	return 0;
}

/* ringproof payload drain: one call per BPF-output sample from the fused
 * walk, as libbpf's sample callback gets one per record */
static int ad_payload(void *ctx, const rp_bpf_sample *s)
{
	consumed *c = ctx;
	uint32_t want = c->payload <= s->raw_size ? c->payload : s->raw_size;
	c->sum = rpb_sum_span(&s->data, want, c->sum);
	c->samples++;
	return 0;
}

/* ringproof sample batch API: one call per batch of payloads, each summed */
static int ad_samples(void *ctx, const rp_bpf_sample *s, uint32_t n)
{
	consumed *c = ctx;
	uint64_t sum = c->sum;
	uint32_t want_max = c->payload;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = want_max <= s[i].raw_size ? want_max : s[i].raw_size;
		sum = rpb_sum_span(&s[i].data, want, sum);
	}
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
			uint32_t want = c->payload <= out.raw_size ? c->payload : out.raw_size;
			c->sum = rpb_sum_span(&out.data, want, c->sum);
			c->wrapped += recs[i].body.n1 != 0;
			c->samples++;
		}
	} while (st == RP_MORE);
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return st < 0 ? st : 0;
}

/* The consumers, in the order of the CSV; the run order rotates. */
enum { C_ADAPTER, C_PAYLOAD, C_BATCH, C_CORE, C_LIBBPF, NCONS };
static const char *const cons_name[NCONS] = { "rp-adapter", "rp-payload", "rp-batch", "rp-core",
	                                      "libbpf" };

typedef struct perf_bench {
	rpb_producer prod;
	struct perf_buffer *pb;
	consumed lbc; /* libbpf's callbacks write here */
	struct perf_event_mmap_page *pg;
	rp_ring ring; /* libbpf's mapping of the CPU 0 ring */
	rp_perf_ring ad;
} perf_bench;

/* Drain CPU 0's ring with consumer `who` into *c; returns the ns taken,
 * or a negative value on a drain error. */
static double drain(perf_bench *b, int who, consumed *c)
{
	int err = 0;
	uint64_t t0 = 0, t1 = 0;
	switch (who) {
	case C_ADAPTER:
		b->ad.tail = rp_perf_ring_tail(&b->ad); /* the others moved it since */
		t0 = rpb_ns();
		err = rp_perf_ring_drain(&b->ad, ad_record, c, 0);
		t1 = rpb_ns();
		break;
	case C_PAYLOAD:
		b->ad.tail = rp_perf_ring_tail(&b->ad);
		t0 = rpb_ns();
		err = rp_perf_ring_drain_payloads(&b->ad, ad_payload, ad_other, c, 0);
		t1 = rpb_ns();
		break;
	case C_BATCH:
		b->ad.tail = rp_perf_ring_tail(&b->ad);
		t0 = rpb_ns();
		err = rp_perf_ring_drain_samples(&b->ad, ad_samples, ad_other, c, 0);
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

int rpb_perf(const char *obj_dir, FILE *csv)
{
	char path[4096];
	static perf_bench b;
	snprintf(path, sizeof(path), "%s/bench_perf.bpf.o", obj_dir);
	int err = rpb_producer_open(&b.prod, path, "bench_events", 0);
	if (err) {
		fprintf(stderr, "bench perf: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	b.pb = perf_buffer__new(b.prod.map_fd, PERF_PAGES, lb_sample, lb_lost, &b.lbc, NULL);
	if (!b.pb) {
		fprintf(stderr, "bench perf: perf_buffer__new: %s\n", strerror(errno));
		rpb_producer_close(&b.prod);
		return 1;
	}
	void *base;
	size_t map_size;
	int rc = 0;
	if (perf_buffer__buffer(b.pb, 0, &base, &map_size) < 0) {
		fprintf(stderr, "bench perf: perf_buffer__buffer: %s\n", strerror(errno));
		rc = 1;
		goto out;
	}
	b.pg = base;
	b.ring = (rp_ring){ .data = (const uint8_t *)base + b.pg->data_offset, .size = b.pg->data_size };
	err = rp_perf_ring_map(&b.ad, perf_buffer__buffer_fd(b.pb, 0), PERF_PAGES, 0);
	if (err) {
		fprintf(stderr, "bench perf: rp_perf_ring_map: %d\n", err);
		rc = 1;
		goto out;
	}

	printf("perf ring: CPU 0 ring of %llu KiB, %d rounds + 1 warm-up, consumers rotate\n",
	       (unsigned long long)b.pg->data_size / 1024, RPB_ROUNDS);
	for (int pi = 0; pi < RPB_NPAYLOADS && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		if (!rpb_payload_wanted(size))
			continue;
		unsigned rec_size = 8 + ((size + 4 + 7) / 8) * 8;
		unsigned long k = (unsigned long)(b.pg->data_size * 9 / 10) / rec_size;
		if (k > MAX_K)
			k = MAX_K;
		uint64_t want = rpb_sum(rpb_pattern, size, 0) * k;
		double t[NCONS][RPB_ROUNDS];
		unsigned long wrapped = 0;
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) { /* round -1 warms up */
			for (int j = 0; j < NCONS; j++) {
				int who = (j + (r < 0 ? 0 : r)) % NCONS; /* rotate the order */
				if (rpb_fill(&b.prod, 0, k, size) != (long)k) {
					fprintf(stderr, "bench perf: the ring did not take %lu records of %u bytes\n", k, size);
					rc = 1;
					break;
				}
				consumed c = { .payload = size };
				double ns = drain(&b, who, &c);
				if (ns < 0 || c.samples != k || c.sum != want || c.lost) {
					fprintf(stderr, "bench perf: %s drained %lu/%lu records, checksum %s, lost %lu%s\n",
					        cons_name[who], c.samples, k, c.sum == want ? "ok" : "WRONG", c.lost,
					        ns < 0 ? ", drain error" : "");
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
			rpb_put(csv, "perf", size, cons_name[j], rpb_median(t[j], RPB_ROUNDS), "ns/record", k,
			        RPB_ROUNDS, j == C_CORE ? extra : "");
		for (int j = 0; j < NCONS; j++)
			rpb_put_rounds(csv, "perf", size, cons_name[j], t[j], k);
		for (int j = 0; j < NCONS; j++)
			if (j != C_LIBBPF)
				rpb_put_paired(csv, "perf", size, cons_name[j], cons_name[C_LIBBPF], t[j],
				               t[C_LIBBPF], k);
	}
	rp_perf_ring_unmap(&b.ad);
out:
	perf_buffer__free(b.pb);
	rpb_producer_close(&b.prod);
	return rc;
}
