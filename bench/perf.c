/* Benchmark 1: consumer cost on the same per-CPU perf ring.  libbpf's
 * perf_buffer owns the ring of CPU 0; BPF_PROG_TEST_RUN fills it with K
 * records; it is drained by ringproof's adapter (rp_perf_ring_drain on a
 * second mapping of the same event: same control page, same data pages), by
 * ringproof's core called directly on libbpf's mapping (no adapter
 * callback layer), or by perf_buffer__consume_buffer.  The order rotates
 * every round; only the drain is timed. */
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
/* Records decoded per rp_ring_drain call before their payloads are read: a
 * small batch keeps the headers in L1 for the payload pass. */
#ifndef RPB_CORE_BATCH
#define RPB_CORE_BATCH 16
#endif

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
	uint32_t a = want <= out.data.n0 ? want : out.data.n0;
	c->sum = rpb_sum(out.data.p0, a, c->sum);
	c->sum = rpb_sum(out.data.p1, want - a, c->sum);
	c->samples++;
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
			uint32_t a = want <= out.data.n0 ? want : out.data.n0;
			c->sum = rpb_sum(out.data.p0, a, c->sum);
			c->sum = rpb_sum(out.data.p1, want - a, c->sum);
			c->wrapped += recs[i].body.n1 != 0;
			c->samples++;
		}
	} while (st == RP_MORE);
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return st < 0 ? st : 0;
}

int rpb_perf(const char *obj_dir, FILE *csv)
{
	char path[4096];
	rpb_producer prod;
	snprintf(path, sizeof(path), "%s/bench_perf.bpf.o", obj_dir);
	int err = rpb_producer_open(&prod, path, "bench_events", 0);
	if (err) {
		fprintf(stderr, "bench perf: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	consumed lbc;
	struct perf_buffer *pb = perf_buffer__new(prod.map_fd, PERF_PAGES, lb_sample, lb_lost, &lbc, NULL);
	if (!pb) {
		fprintf(stderr, "bench perf: perf_buffer__new: %s\n", strerror(errno));
		rpb_producer_close(&prod);
		return 1;
	}
	void *base;
	size_t map_size;
	if (perf_buffer__buffer(pb, 0, &base, &map_size) < 0) {
		fprintf(stderr, "bench perf: perf_buffer__buffer: %s\n", strerror(errno));
		return 1;
	}
	struct perf_event_mmap_page *pg = base;
	rp_ring ring = { .data = (const uint8_t *)base + pg->data_offset, .size = pg->data_size };
	rp_perf_ring ad;
	err = rp_perf_ring_map(&ad, perf_buffer__buffer_fd(pb, 0), PERF_PAGES, 0);
	if (err) {
		fprintf(stderr, "bench perf: rp_perf_ring_map: %d\n", err);
		return 1;
	}

	printf("\n1. perf ring consumer cost (CPU 0 ring of %llu KiB, %d rounds, A/B alternating)\n",
	       (unsigned long long)pg->data_size / 1024, RPB_ROUNDS);
	printf("%8s %8s %8s %14s %14s %14s %8s\n", "payload", "records", "wrapped", "ringproof ns",
	       "rp core ns", "libbpf ns", "ratio");
	int rc = 0;
	for (int pi = 0; pi < 4 && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		unsigned rec_size = 8 + ((size + 4 + 7) / 8) * 8;
		unsigned long k = (unsigned long)(pg->data_size * 9 / 10) / rec_size;
		if (k > MAX_K)
			k = MAX_K;
		uint64_t want = rpb_sum(rpb_pattern, size, 0) * k;
		double t[3][RPB_ROUNDS];
		const char *names[3] = { "ringproof", "ringproof-core", "libbpf" };
		unsigned long wrapped = 0;
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) { /* round -1 warms up */
			for (int j = 0; j < 3; j++) {
				int side = (j + (r < 0 ? 0 : r)) % 3; /* rotate the order */
				if (rpb_fill(&prod, 0, k, size) != (long)k) {
					fprintf(stderr, "bench perf: the ring did not take %lu records of %u bytes\n", k, size);
					rc = 1;
					break;
				}
				consumed c = { .payload = size };
				uint64_t t0 = 0, t1 = 0;
				if (side == 0) {
					ad.tail = rp_perf_ring_tail(&ad); /* libbpf moved it since */
					t0 = rpb_ns();
					err = rp_perf_ring_drain(&ad, ad_record, &c, 0);
					t1 = rpb_ns();
				} else if (side == 1) {
					t0 = rpb_ns();
					err = rp_consume(pg, &ring, &c);
					t1 = rpb_ns();
				} else {
					lbc = c;
					t0 = rpb_ns();
					err = perf_buffer__consume_buffer(pb, 0);
					t1 = rpb_ns();
					c = lbc;
				}
				if (err < 0 || c.samples != k || c.sum != want || c.lost) {
					fprintf(stderr, "bench perf: %s drained %lu/%lu records, checksum %s, lost %lu (err %d)\n",
					        names[side], c.samples, k, c.sum == want ? "ok" : "WRONG", c.lost, err);
					rc = 1;
					break;
				}
				if (r >= 0) {
					t[side][r] = (double)(t1 - t0) / (double)k;
					wrapped += c.wrapped;
				}
			}
		}
		if (rc)
			break;
		double m[3];
		for (int j = 0; j < 3; j++)
			m[j] = rpb_median(t[j], RPB_ROUNDS);
		printf("%8u %8lu %8lu %14.1f %14.1f %14.1f %8.2f\n", size, k, wrapped, m[0], m[1], m[2], m[0] / m[2]);
		char extra[64];
		snprintf(extra, sizeof(extra), "wrapped=%lu", wrapped);
		for (int j = 0; j < 3; j++)
			rpb_csv(csv, "perf", size, names[j], m[j], k, RPB_ROUNDS, j == 1 ? extra : "");
	}
	rp_perf_ring_unmap(&ad);
	perf_buffer__free(pb);
	rpb_producer_close(&prod);
	return rc;
}
