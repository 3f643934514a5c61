/* backward: the write_backward (overwrite) perf ring walk (core/rp_backward.h).
 *
 * Input:
 *   [0..2)   ring size: raw mode 8 * (1 + v % 512); generator mode 16 << (v % 9)
 *   [2]      mode: bit 0 generator, bit 1 raw (unaligned) head;
 *            bits 2..7 batch/scratch selector
 *   [3..11)  head, u64 LE (rounded down to 8 unless raw head)
 *   [11..)   raw mode: ring bytes from offset 0;
 *            generator mode: one byte per record, record size = 8 * (1 + b % 64)
 *
 * Raw mode oracle: a reference walk written here from the kernel ABI (docs/abi.md) must agree
 * with rp_backward_drain (records, stop status, bytes walked) across
 * batches of varying size and scratch capacity; every body is a copy of the
 * ring bytes after its header (wrapping), lies inside scratch, never aliases
 * the ring; walked never exceeds the ring size and records <= walked / 8.
 * Generator mode: records written newest first from head (the rest of the
 * ring zero, or a last record cut off by head + size) must come back
 * exactly, ending with RP_BW_END_ZERO, RP_EMPTY or RP_BW_END_OVERWRITTEN. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fz_util.h"
#include "rp_backward.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BW_MAX_BATCH 8u
#define BW_SCRATCH 70000u

typedef struct ref_rec {
	uint64_t walked; /* bytes from head to its header */
	uint32_t type;
	uint16_t misc, size;
} ref_rec;

static int ref_walk(const uint8_t *ring, uint64_t rsize, uint64_t head, ref_rec *out,
                    uint32_t *n, uint64_t *walked_out)
{
	uint64_t w = 0;
	*n = 0;
	for (;;) {
		*walked_out = w;
		if (head % 8)
			return RP_E_BW_POS_ALIGN;
		if (w == rsize)
			return RP_EMPTY;
		const uint64_t off = (head % rsize + w) % rsize;
		const uint16_t sz = fz_le16(ring + off + 6);
		if (sz == 0)
			return RP_BW_END_ZERO;
		if (sz < 8)
			return RP_E_BW_HDR_SHORT;
		if (sz % 8)
			return RP_E_BW_HDR_ALIGN;
		if (w + sz > rsize)
			return RP_BW_END_OVERWRITTEN;
		out[*n].walked = w;
		out[*n].type = fz_le32(ring + off);
		out[*n].misc = fz_le16(ring + off + 4);
		out[*n].size = sz;
		(*n)++;
		w += sz;
	}
}

static void walk_and_compare(const uint8_t *ring, uint64_t rsize, uint64_t head, uint8_t sel,
                             const ref_rec *ref, uint32_t nref, int ref_st, uint64_t ref_walked)
{
	static uint8_t scratch[BW_SCRATCH + 64];
	rp_record recs[BW_MAX_BATCH + 1];
	const rp_ring r = { ring, rsize };
	uint64_t walked = 0;
	uint32_t k = 0;
	rp_status st;

	for (uint32_t call = 0;; call++) {
		const uint32_t max = 1u + (uint32_t)((sel + call) % BW_MAX_BATCH);
		/* scratch capacity varies: sometimes too small for the next body */
		const uint32_t cap = ((sel + call * 13u) % 4u == 0) ? (uint32_t)((sel * 37u + call * 61u) % 600u)
		                                                   : BW_SCRATCH;
		uint32_t count = 0;
		const uint64_t before = walked;
		memset(recs, 0xA5, sizeof recs);
		memset(scratch + cap, 0xC3, 64);
		st = rp_backward_drain(&r, head, &walked, scratch, cap, recs, max, &count);
		for (uint32_t i = 0; i < 64; i++)
			FZ_CHECK(scratch[cap + i] == 0xC3, "write past scratch capacity");
		const uint8_t *guard = (const uint8_t *)&recs[max];
		for (size_t i = 0; i < sizeof recs - max * sizeof recs[0]; i++)
			FZ_CHECK(guard[i] == 0xA5, "drain wrote past recs[max]");
		FZ_CHECK(count <= max, "count > max");
		FZ_CHECK(walked >= before && walked <= rsize, "walked %" PRIu64 " outside [%" PRIu64 ", size]",
		         walked, before);
		FZ_CHECK(8u * count <= walked - before, "%u records in %" PRIu64 " bytes", count, walked - before);
		uint64_t at = before;
		for (uint32_t i = 0; i < count; i++, k++) {
			const rp_record *x = &recs[i];
			FZ_CHECK(k < nref, "more records than the reference");
			FZ_CHECK(ref[k].walked == at, "record %u at walked %" PRIu64, k, at);
			FZ_CHECK(x->size == ref[k].size && x->type == ref[k].type && x->misc == ref[k].misc,
			         "record %u header differs", k);
			FZ_CHECK(x->pos == head + at, "record %u pos", k);
			FZ_CHECK(x->body.n1 == 0 && x->body.n0 == x->size - 8u, "record %u body length", k);
			FZ_CHECK(x->body.n0 == 0 || (x->body.p0 >= scratch && x->body.p0 + x->body.n0 <= scratch + cap),
			         "record %u body outside scratch", k);
			const uint64_t off = (head % rsize + at) % rsize;
			for (uint32_t j = 0; j < x->body.n0; j++)
				FZ_CHECK(x->body.p0[j] == ring[(off + 8 + j) % rsize], "record %u body byte %u", k, j);
			at += x->size;
		}
		FZ_CHECK(at == walked, "walked does not match the record sizes");
		if (st == RP_MORE) {
			FZ_CHECK(count > 0, "RP_MORE without records");
			continue;
		}
		if (st == RP_E_BW_SCRATCH && cap < BW_SCRATCH) {
			FZ_CHECK(count == 0, "scratch stop after records should be RP_MORE");
			continue; /* the next call gets a larger scratch */
		}
		break;
	}
	FZ_CHECK(k == nref, "walked %u records, reference %u", k, nref);
	FZ_CHECK((int)st == ref_st, "status %d, reference %d", (int)st, ref_st);
	FZ_CHECK(walked == ref_walked, "walked %" PRIu64 ", reference %" PRIu64, walked, ref_walked);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ref_rec ref[4096];
	if (size < 11)
		return 0;
	const uint8_t mode = data[2];
	const uint64_t rsize = (mode & 1) ? (UINT64_C(16) << (fz_le16(data) % 9u))
	                                  : 8u * (1u + (fz_le16(data) % 512u));
	uint64_t head = fz_le64(data + 3);
	if (!(mode & 2))
		head &= ~(uint64_t)7;
	uint8_t *ring = calloc(1, rsize);
	if (!ring)
		return 0;
	const uint8_t *rest = data + 11;
	const size_t nrest = size - 11;
	uint32_t nref = 0;
	uint64_t ref_walked = 0;
	int ref_st;

	if (mode & 1) {
		head &= ~(uint64_t)7;
		/* generator: records newest first from head */
		uint64_t w = 0;
		ref_st = RP_BW_END_ZERO;
		for (size_t i = 0; i < nrest; i++) {
			const uint16_t rs = (uint16_t)(8u * (1u + rest[i] % 64u));
			const uint64_t off = (head % rsize + w) % rsize;
			const uint32_t type = 9u + (uint32_t)i;
			for (int b = 0; b < 4; b++)
				ring[off + b] = (uint8_t)(type >> (8 * b));
			ring[off + 4] = (uint8_t)i;
			ring[off + 5] = 0;
			ring[off + 6] = (uint8_t)rs;
			ring[off + 7] = (uint8_t)(rs >> 8);
			if (w + rs > rsize) {
				/* cut off: only the bytes up to head + size are this record's */
				for (uint64_t j = 8; j < rsize - w; j++)
					ring[(off + j) % rsize] = (uint8_t)(i + j);
				ref_st = RP_BW_END_OVERWRITTEN;
				break;
			}
			for (uint64_t j = 8; j < rs; j++)
				ring[(off + j) % rsize] = (uint8_t)(i + j);
			ref[nref].walked = w;
			ref[nref].type = type;
			ref[nref].misc = (uint8_t)i;
			ref[nref].size = rs;
			nref++;
			w += rs;
			if (w == rsize) {
				ref_st = RP_EMPTY;
				break;
			}
		}
		ref_walked = w;
		/* the reference walk must agree with what was generated */
		uint32_t n2;
		uint64_t w2;
		static ref_rec ref2[4096];
		const int st2 = ref_walk(ring, rsize, head, ref2, &n2, &w2);
		FZ_CHECK(st2 == ref_st && n2 == nref && w2 == ref_walked, "generator and reference disagree");
	} else {
		memcpy(ring, rest, nrest < rsize ? nrest : rsize);
		ref_st = ref_walk(ring, rsize, head, ref, &nref, &ref_walked);
	}
	walk_and_compare(ring, rsize, head, (uint8_t)(mode >> 2), ref, nref, ref_st, ref_walked);
	free(ring);
	return 0;
}
