/* Benchmark 3: the floor.  The core's decode alone over an in-memory ring
 * laid out like the kernel's: the BPF-output walk one sample at a time
 * (rp_ring_iter, each payload summed as it is decoded, "rp-iter") and, for
 * the before/after, rp_ring_drain + rp_bpf_output_view per record
 * ("rp-core-dv"), against a plain loop that walks the same
 * headers with no checks (and the same checksum).  No kernel involved.  The
 * walks rotate their order round by round over the same ring contents.
 *
 * rpb_floor_walks runs each walk once, untimed, for callgrind: bench/run.sh
 * counts the instructions of the rpb_walk_* functions (noinline, so that
 * --toggle-collect can name them) and divides by the records. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rp_abi.h"
#include "rp_ring.h"
#include "rp_views.h"

#define FLOOR_RING (1u << 22)
#define FLOOR_K 16384

static uint8_t *mem;

static uint64_t build(uint64_t pos, unsigned long k, unsigned payload)
{
	unsigned raw = ((payload + 4 + 7) / 8) * 8 - 4;
	uint16_t size = (uint16_t)(12 + raw);
	uint8_t rec[4200];
	uint32_t type = RP_RECORD_SAMPLE;
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &type, 4);
	memcpy(rec + 6, &size, 2);
	memcpy(rec + 8, &raw, 4);
	memcpy(rec + 12, rpb_pattern, payload);
	for (unsigned long i = 0; i < k; i++, pos += size) {
		uint64_t off = pos & (FLOOR_RING - 1);
		if (off + size <= FLOOR_RING) {
			memcpy(mem + off, rec, size);
		} else {
			memcpy(mem + off, rec, FLOOR_RING - off);
			memcpy(mem, rec + (FLOOR_RING - off), size - (FLOOR_RING - off));
		}
	}
	return pos;
}

/* The core one sample at a time: rp_ring_iter_next_bpf's common path inlined
 * into this loop, each payload summed as it is decoded (as the plain loop
 * does).  A record of another kind (none here) is stepped over. */
__attribute__((noinline)) uint64_t rpb_walk_iter(const struct rp_ring *ring, uint64_t head,
                                                 uint64_t tail, unsigned payload,
                                                 unsigned long *n, int *err)
{
	rp_ring_iter it;
	rp_bpf_sample s;
	uint64_t sum = 0;
	unsigned long got = 0;
	rp_status st;
	rp_ring_iter_init(&it, ring, head, tail);
	for (;;) {
		while ((st = rp_ring_iter_next_bpf(&it, &s)) == RP_OK) {
			sum = rpb_sum_span(&s.data, payload, sum);
			got++;
		}
		if (st != RP_OTHER)
			break;
		rp_record rec;
		if (rp_ring_iter_next(&it, &rec) != RP_OK) {
			st = RP_E_TYPE;
			break;
		}
	}
	*n = got;
	*err = st < 0 ? st : 0;
	return sum;
}

/* The core before the iterator: rp_ring_drain, rp_bpf_output_view per
 * record, checksum. */
__attribute__((noinline)) uint64_t rpb_walk_core_dv(const struct rp_ring *ring, uint64_t head,
                                                 uint64_t tail, unsigned payload,
                                                 unsigned long *n, int *err)
{
	rp_record recs[RPB_CORE_BATCH];
	uint64_t sum = 0;
	unsigned long got_all = 0;
	rp_status st;
	do {
		uint32_t got = 0;
		st = rp_ring_drain(ring, head, &tail, recs, RPB_CORE_BATCH, &got);
		for (uint32_t i = 0; i < got; i++) {
			rp_bpf_output out;
			if (rp_bpf_output_view(&recs[i], &out) != RP_OK)
				continue;
			sum = rpb_sum_span(&out.data, payload, sum);
			got_all++;
		}
	} while (st == RP_MORE);
	*n = got_all;
	*err = st < 0 ? st : 0;
	return sum;
}

/* No checks at all: trusts every header, like a naive reader. */
__attribute__((noinline)) uint64_t rpb_walk_plain(const uint8_t *data, uint64_t head,
                                                  uint64_t tail, unsigned payload,
                                                  unsigned long *n)
{
	uint64_t sum = 0;
	unsigned long got_all = 0;
	while (tail != head) {
		uint64_t off = tail & (FLOOR_RING - 1), hdr;
		memcpy(&hdr, data + off, 8);
		uint64_t p = (off + 12) & (FLOOR_RING - 1);
		if (p + payload <= FLOOR_RING) {
			sum = rpb_sum(data + p, payload, sum);
		} else {
			sum = rpb_sum(data + p, FLOOR_RING - p, sum);
			sum = rpb_sum(data, payload - (FLOOR_RING - p), sum);
		}
		tail += hdr >> 48;
		got_all++;
	}
	*n = got_all;
	return sum;
}

/* Decode-only walks, for the instruction counts: each reads the first
 * payload byte and the payload length instead of checksumming every byte
 * (a short vectorised checksum costs ~40 instructions per record itself and
 * would hide the decode in both). */
__attribute__((noinline)) uint64_t rpb_walk_iter_decode(const struct rp_ring *ring, uint64_t head,
                                                        uint64_t tail, unsigned long *n, int *err)
{
	rp_ring_iter it;
	rp_bpf_sample s;
	uint64_t sum = 0;
	unsigned long got = 0;
	rp_status st;
	rp_ring_iter_init(&it, ring, head, tail);
	for (;;) {
		while ((st = rp_ring_iter_next_bpf(&it, &s)) == RP_OK) {
			sum += (s.data.n0 ? s.data.p0[0] : s.data.p1[0]) + s.raw_size;
			got++;
		}
		if (st != RP_OTHER)
			break;
		rp_record rec;
		if (rp_ring_iter_next(&it, &rec) != RP_OK) {
			st = RP_E_TYPE;
			break;
		}
	}
	*n = got;
	*err = st < 0 ? st : 0;
	return sum;
}

/* The record iterator and the BPF-output view, record by record: the
 * shape of the perf adapter's record drain (rp_perf_ring_drain) with a
 * callback that views each record, the callback itself left out. */
__attribute__((noinline)) uint64_t rpb_walk_iter_view_decode(const struct rp_ring *ring,
                                                             uint64_t head, uint64_t tail,
                                                             unsigned long *n, int *err)
{
	rp_ring_iter it;
	rp_record rec;
	uint64_t sum = 0;
	unsigned long got = 0;
	rp_status st;
	rp_ring_iter_init(&it, ring, head, tail);
	while ((st = rp_ring_iter_next(&it, &rec)) == RP_OK) {
		rp_bpf_output out;
		if (rp_bpf_output_view(&rec, &out) != RP_OK) {
			st = RP_E_TYPE;
			break;
		}
		sum += (out.data.n0 ? out.data.p0[0] : out.data.p1[0]) + out.raw_size;
		got++;
	}
	*n = got;
	*err = st < 0 ? st : 0;
	return sum;
}

__attribute__((noinline)) uint64_t rpb_walk_core_dv_decode(const struct rp_ring *ring, uint64_t head,
                                                           uint64_t tail, unsigned long *n, int *err)
{
	rp_record recs[RPB_CORE_BATCH];
	uint64_t sum = 0;
	unsigned long got_all = 0;
	rp_status st;
	do {
		uint32_t got = 0;
		st = rp_ring_drain(ring, head, &tail, recs, RPB_CORE_BATCH, &got);
		for (uint32_t i = 0; i < got; i++) {
			rp_bpf_output out;
			if (rp_bpf_output_view(&recs[i], &out) != RP_OK)
				continue;
			sum += (out.data.n0 ? out.data.p0[0] : out.data.p1[0]) + out.raw_size;
			got_all++;
		}
	} while (st == RP_MORE);
	*n = got_all;
	*err = st < 0 ? st : 0;
	return sum;
}

__attribute__((noinline)) uint64_t rpb_walk_plain_decode(const uint8_t *data, uint64_t head,
                                                         uint64_t tail, unsigned long *n)
{
	uint64_t sum = 0;
	unsigned long got_all = 0;
	while (tail != head) {
		uint64_t off = tail & (FLOOR_RING - 1), hdr;
		uint32_t raw;
		memcpy(&hdr, data + off, 8);
		memcpy(&raw, data + ((off + 8) & (FLOOR_RING - 1)), 4);
		sum += data[(off + 12) & (FLOOR_RING - 1)] + raw;
		tail += hdr >> 48;
		got_all++;
	}
	*n = got_all;
	return sum;
}

static void make_pattern(void)
{
	uint32_t x = 0x12345678u;
	for (size_t i = 0; i < sizeof(rpb_pattern); i++) { /* same pattern as the producers */
		x = x * 1103515245u + 12345u;
		rpb_pattern[i] = (uint8_t)(x >> 24);
	}
}

static unsigned long floor_records(unsigned size)
{
	unsigned rec = 8 + ((size + 4 + 7) / 8) * 8;
	unsigned long k = (FLOOR_RING * 9ul / 10) / rec;
	return k > FLOOR_K ? FLOOR_K : k;
}

/* Both walks over the ring [tail, head): 0, or 1 with a message when a
 * walk misses a record or its checksum differs from the pattern's. */
static int check(unsigned size, unsigned long k, unsigned long n1, int err, uint64_t s1,
                 unsigned long n2, uint64_t s2)
{
	uint64_t want = rpb_sum(rpb_pattern, size, 0) * k;
	if (!err && n1 == k && n2 == k && s1 == want && s2 == want)
		return 0;
	fprintf(stderr, "bench floor: payload %u: core %lu/%lu records (err %d), plain %lu, checksums %s/%s\n",
	        size, n1, k, err, n2, s1 == want ? "ok" : "WRONG", s2 == want ? "ok" : "WRONG");
	return 1;
}

int rpb_floor_walks(unsigned size, unsigned long *records)
{
	mem = aligned_alloc(4096, FLOOR_RING);
	if (!mem)
		return 1;
	make_pattern();
	rp_ring ring = { .data = mem, .size = FLOOR_RING };
	uint64_t tail = 7ull * FLOOR_RING - 4096;
	unsigned long k = floor_records(size), n1 = 0, n2 = 0;
	uint64_t head = build(tail, k, size);
	int err;
	uint64_t s1 = rpb_walk_core_dv(&ring, head, tail, size, &n1, &err);
	uint64_t s2 = rpb_walk_plain(mem, head, tail, size, &n2);
	int rc = check(size, k, n1, err, s1, n2, s2);
	s1 = rpb_walk_iter(&ring, head, tail, size, &n1, &err);
	rc |= check(size, k, n1, err, s1, n2, s2);
	s2 = rpb_walk_plain_decode(mem, head, tail, &n2);
	s1 = rpb_walk_core_dv_decode(&ring, head, tail, &n1, &err);
	if (err || n1 != k || n2 != k || s1 != s2) {
		fprintf(stderr, "bench walks: decode-only drain+view walk disagrees: %lu/%lu (err %d), sums %s\n",
		        n1, k, err, s1 == s2 ? "equal" : "DIFFER");
		rc = 1;
	}
	s1 = rpb_walk_iter_decode(&ring, head, tail, &n1, &err);
	if (err || n1 != k || s1 != s2) {
		fprintf(stderr, "bench walks: decode-only iterator walk disagrees: %lu/%lu (err %d), sums %s\n",
		        n1, k, err, s1 == s2 ? "equal" : "DIFFER");
		rc = 1;
	}
	s1 = rpb_walk_iter_view_decode(&ring, head, tail, &n1, &err);
	if (err || n1 != k || s1 != s2) {
		fprintf(stderr, "bench walks: decode-only record iterator + view walk disagrees: %lu/%lu (err %d), sums %s\n",
		        n1, k, err, s1 == s2 ? "equal" : "DIFFER");
		rc = 1;
	}
	*records = k;
	free(mem);
	return rc;
}

int rpb_floor(FILE *csv)
{
	mem = aligned_alloc(4096, FLOOR_RING);
	if (!mem)
		return 1;
	rp_ring ring = { .data = mem, .size = FLOOR_RING };
	make_pattern();
	uint64_t pos = 7ull * FLOOR_RING - 4096; /* free-running, starts near a wrap */
	int rc = 0;
	for (int pi = 0; pi < RPB_NPAYLOADS && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		if (!rpb_payload_wanted(size))
			continue;
		unsigned long k = floor_records(size);
		double t[3][RPB_ROUNDS];
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) { /* round -1 warms up */
			uint64_t tail = pos;
			uint64_t head = build(pos, k, size);
			unsigned long n[3] = { 0, 0, 0 };
			int err[3] = { 0, 0, 0 };
			uint64_t sum[3] = { 0, 0, 0 }, t0, t1;
			for (int j = 0; j < 3; j++) { /* the order rotates round by round */
				const int w = (j + (r < 0 ? 0 : r)) % 3;
				t0 = rpb_ns();
				if (w == 0)
					sum[0] = rpb_walk_core_dv(&ring, head, tail, size, &n[0], &err[0]);
				else if (w == 1)
					sum[1] = rpb_walk_iter(&ring, head, tail, size, &n[1], &err[1]);
				else
					sum[2] = rpb_walk_plain(mem, head, tail, size, &n[2]);
				t1 = rpb_ns();
				if (r >= 0)
					t[w][r] = (double)(t1 - t0) / (double)k;
			}
			for (int w = 0; w < 2; w++)
				rc |= check(size, k, n[w], err[w], sum[w], n[2], sum[2]);
			pos = head;
		}
		if (rc)
			break;
		rpb_put(csv, "floor", size, "rp-core-dv", rpb_median(t[0], RPB_ROUNDS), "ns/record", k, RPB_ROUNDS, "");
		rpb_put(csv, "floor", size, "rp-iter", rpb_median(t[1], RPB_ROUNDS), "ns/record", k, RPB_ROUNDS, "");
		rpb_put(csv, "floor", size, "plain-floor", rpb_median(t[2], RPB_ROUNDS), "ns/record", k, RPB_ROUNDS, "");
		rpb_put_rounds(csv, "floor", size, "rp-core-dv", t[0], k);
		rpb_put_rounds(csv, "floor", size, "rp-iter", t[1], k);
		rpb_put_rounds(csv, "floor", size, "plain-floor", t[2], k);
		rpb_put_paired(csv, "floor", size, "rp-core-dv", "plain-floor", t[0], t[2], k);
		rpb_put_paired(csv, "floor", size, "rp-iter", "plain-floor", t[1], t[2], k);
	}
	free(mem);
	return rc;
}
