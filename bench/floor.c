/* Benchmark 3: the floor.  The core's decode alone (rp_ring_drain +
 * rp_bpf_output_view + checksum) over an in-memory ring laid out like the
 * kernel's, against a plain loop that walks the same headers with no checks
 * (and the same checksum).  No kernel involved. */
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

static uint64_t core_walk(const rp_ring *ring, uint64_t head, uint64_t tail, unsigned payload,
                          unsigned long *n, int *err)
{
	rp_record recs[256];
	uint64_t sum = 0;
	rp_status st;
	do {
		uint32_t got = 0;
		st = rp_ring_drain(ring, head, &tail, recs, 256, &got);
		for (uint32_t i = 0; i < got; i++) {
			rp_bpf_output out;
			if (rp_bpf_output_view(&recs[i], &out) != RP_OK)
				continue;
			uint32_t a = payload <= out.data.n0 ? payload : out.data.n0;
			sum = rpb_sum(out.data.p0, a, sum);
			sum = rpb_sum(out.data.p1, payload - a, sum);
			(*n)++;
		}
	} while (st == RP_MORE);
	*err = st < 0 ? st : 0;
	return sum;
}

/* No checks at all: trusts every header, like a naive reader. */
static uint64_t plain_walk(const uint8_t *data, uint64_t head, uint64_t tail, unsigned payload,
                           unsigned long *n)
{
	uint64_t sum = 0;
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
		(*n)++;
	}
	return sum;
}

int rpb_floor(FILE *csv)
{
	mem = aligned_alloc(4096, FLOOR_RING);
	if (!mem)
		return 1;
	rp_ring ring = { .data = mem, .size = FLOOR_RING };
	uint32_t x = 0x12345678u;
	for (size_t i = 0; i < sizeof(rpb_pattern); i++) { /* same pattern as the producers */
		x = x * 1103515245u + 12345u;
		rpb_pattern[i] = (uint8_t)(x >> 24);
	}
	printf("\n3. floor: decode only, in-memory %u KiB ring, %d rounds\n", FLOOR_RING / 1024, RPB_ROUNDS);
	printf("%8s %8s %14s %14s %8s\n", "payload", "records", "core ns", "plain ns", "ratio");
	uint64_t pos = 7ull * FLOOR_RING - 4096; /* free-running, starts near a wrap */
	int rc = 0;
	for (int pi = 0; pi < 4 && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		unsigned rec = 8 + ((size + 4 + 7) / 8) * 8;
		unsigned long k = (FLOOR_RING * 9ul / 10) / rec;
		if (k > FLOOR_K)
			k = FLOOR_K;
		uint64_t want = rpb_sum(rpb_pattern, size, 0) * k;
		double tc[RPB_ROUNDS], tp[RPB_ROUNDS];
		for (int r = -1; r < RPB_ROUNDS; r++) {
			uint64_t tail = pos;
			uint64_t head = build(pos, k, size);
			unsigned long n1 = 0, n2 = 0;
			int err;
			uint64_t t0 = rpb_ns();
			uint64_t s1 = core_walk(&ring, head, tail, size, &n1, &err);
			uint64_t t1 = rpb_ns();
			uint64_t s2 = plain_walk(mem, head, tail, size, &n2);
			uint64_t t2 = rpb_ns();
			if (err || n1 != k || n2 != k || s1 != want || s2 != want) {
				fprintf(stderr, "bench floor: payload %u: core %lu records (err %d), plain %lu, checksums %s/%s\n",
				        size, n1, err, n2, s1 == want ? "ok" : "WRONG", s2 == want ? "ok" : "WRONG");
				rc = 1;
				break;
			}
			if (r >= 0) {
				tc[r] = (double)(t1 - t0) / (double)k;
				tp[r] = (double)(t2 - t1) / (double)k;
			}
			pos = head;
		}
		if (rc)
			break;
		double mc = rpb_median(tc, RPB_ROUNDS), mp = rpb_median(tp, RPB_ROUNDS);
		printf("%8u %8lu %14.1f %14.1f %8.2f\n", size, k, mc, mp, mc / mp);
		rpb_csv(csv, "floor", size, "ringproof-core", mc, k, RPB_ROUNDS, "");
		rpb_csv(csv, "floor", size, "plain-loop", mp, k, RPB_ROUNDS, "");
	}
	free(mem);
	return rc;
}
