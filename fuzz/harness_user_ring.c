/* user_ring: the user ring buffer producer (core/rp_user_ring.h).
 *
 * Input:
 *   [0..2)   ring size = 8 * (1 + v % 512)  (8 .. 4096 bytes, any multiple of 8);
 *            model mode: 8 << (v % 10), a power of two as the kernel's
 *   [2]      mode: bit 0 model mode (positions kept consistent, a kernel-side
 *            reader consumes); otherwise raw mode (arbitrary positions and
 *            ring bytes)
 *   [3..11)  consumer, u64 LE (model mode: rounded down to 8)
 *   [11..19) producer, u64 LE (model mode: ignored, = consumer)
 *   [19..)   raw mode: the first min(size, rest) bytes fill the ring; then
 *            (both modes) operations of 4 bytes each: op, a0, a1, a2
 *              op % 4 == 0, 1: reserve; len = a0 | a1 << 8 | a2 << 16, or,
 *                         with op bit 2, len = that << 6 | op >> 3 (up to
 *                         2^30: past RP_UR_LEN_MAX), or with op bit 3 a
 *                         small len a0 % 64; the payload is written
 *              op % 4 == 2: commit (op bit 2: discard) pending reservation
 *                         a0 % npending (model mode; with op bit 3 a
 *                         committed record's header or an offset that is
 *                         no header slot), or offset a0 | a1 << 8 | a2 << 16
 *                         (raw mode; op bit 3: 2^64 - 1 minus that)
 *              op % 4 == 3: model mode: the kernel drains up to a0 % 8 + 1
 *                         records; raw mode: producer += a0 * 8 + a1 % 8
 *
 * Oracle, every call: the expected status computed here from the kernel's
 * rules with own arithmetic (len > 2^24 - 1, round_up(len + 8, 8) > size,
 * producer - consumer > size, alignment, free room, in that order); on an
 * error the ring (allocated with exactly size bytes, so ASan sees any write
 * outside), the producer and the reservation are unchanged; on success only
 * the 8 header bytes at producer mod size changed, they hold len | BUSY and
 * 0, the producer moved by exactly round_up(len + 8, 8), the payload
 * slices lie in the ring after the header and never reach back into it.
 * Commit: expected status from the offset and the flag byte; only the flag
 * byte changes, to 0x00 or 0x40.
 * Model mode adds a reader written from __bpf_user_ringbuf_peek: every
 * header it meets is valid (not past producer, len <= 2^24 - 1, fits the
 * ring), BUSY exactly for the uncommitted reservations, DISCARD exactly for
 * the discarded ones; records come back in reservation order with their
 * lengths and payload bytes. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fz_util.h"
#include "rp_user_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXREC 512

typedef struct mrec {
	uint64_t pos;
	uint64_t off;
	uint32_t len;
	uint8_t state; /* 0 pending, 1 submitted, 2 discarded */
	uint8_t seed;
} mrec;

static uint64_t round_total(uint32_t len)
{
	return ((uint64_t)len + 15u) & ~(uint64_t)7u;
}

static uint32_t word_at(const uint8_t *r, uint64_t off)
{
	return fz_le32(r + off);
}

static void check_slices(const rp_ur_rsv *v, const uint8_t *ring, uint64_t rsize)
{
	const rp_span s = v->payload;
	const uint64_t body = v->off + 8 == rsize ? 0 : v->off + 8;
	FZ_CHECK(s.n0 + (uint64_t)s.n1 == v->len, "slices hold %u + %u bytes, want %u", s.n0, s.n1,
	         v->len);
	FZ_CHECK(s.p0 == ring + body, "slice 0 does not start right after the header");
	FZ_CHECK(body + s.n0 <= rsize, "slice 0 leaves the ring");
	FZ_CHECK(s.p1 == ring, "slice 1 not at the ring start");
	FZ_CHECK(s.n1 == 0 || body + s.n0 == rsize, "slice 1 used before slice 0 reached the end");
	/* neither slice overlaps the header [off, off + 8) */
	FZ_CHECK(body + s.n0 <= v->off || body >= v->off + 8, "slice 0 overlaps the header");
	FZ_CHECK(s.n1 <= v->off, "slice 1 reaches into the header");
}

static void write_payload(const rp_ur_rsv *v, uint8_t seed)
{
	uint8_t *p0 = (uint8_t *)(uintptr_t)v->payload.p0;
	uint8_t *p1 = (uint8_t *)(uintptr_t)v->payload.p1;
	for (uint32_t i = 0; i < v->payload.n0; i++)
		p0[i] = (uint8_t)(seed + i);
	for (uint32_t i = 0; i < v->payload.n1; i++)
		p1[i] = (uint8_t)(seed + v->payload.n0 + i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 19)
		return 0;
	const bool model = data[2] & 1;
	const uint16_t sv = fz_le16(data);
	const uint64_t rsize = model ? (uint64_t)8 << (sv % 10) : 8u * (1u + sv % 512u);
	uint64_t cons = fz_le64(data + 3);
	uint64_t prod = fz_le64(data + 11);
	const uint8_t *ops = data + 19;
	size_t nops = size - 19;

	uint8_t *ring = malloc(rsize);
	uint8_t *before = malloc(rsize);
	mrec *recs = malloc(sizeof *recs * MAXREC);
	if (!ring || !before || !recs)
		abort();
	memset(ring, 0, rsize);
	if (model) {
		cons &= ~(uint64_t)7u;
		prod = cons;
	} else {
		const size_t fill = nops < rsize ? nops : (size_t)rsize;
		memcpy(ring, ops, fill);
		ops += fill;
		nops -= fill;
	}
	uint32_t head = 0, nrec = 0; /* model: recs[head .. nrec) between consumer and producer */
	uint8_t seed = 1;

	for (size_t k = 0; k + 4 <= nops && k < 4 * 256; k += 4) {
		const uint8_t op = ops[k], a0 = ops[k + 1], a1 = ops[k + 2], a2 = ops[k + 3];
		switch (op % 4) {
		case 0:
		case 1: {
			uint32_t len = (uint32_t)a0 | (uint32_t)a1 << 8 | (uint32_t)a2 << 16;
			if (op & 4)
				len = len << 6 | (uint32_t)(op >> 3);
			else if (op & 8)
				len = a0 % 64u;
			const uint64_t total = round_total(len);
			const uint64_t used = prod - cons; /* u64 circle, own arithmetic */
			rp_status want;
			if (len > 0xffffffu)
				want = RP_E_UR_LEN;
			else if (total > rsize)
				want = RP_E_UR_TOO_BIG;
			else if (used > rsize)
				want = RP_E_UR_OVERRUN;
			else if (cons % 8 || prod % 8)
				want = RP_E_UR_ALIGN;
			else if (total > rsize - used)
				want = RP_E_UR_FULL;
			else
				want = RP_OK;
			if (model && want == RP_OK && nrec == MAXREC)
				break; /* the model is full; the ring may not be */
			memcpy(before, ring, rsize);
			rp_ur_rsv v, canary;
			memset(&v, 0x5c, sizeof v);
			memcpy(&canary, &v, sizeof v);
			uint64_t p = prod;
			const rp_status st = rp_user_ring_reserve(ring, rsize, cons, &p, len, &v);
			FZ_CHECK(st == want, "reserve(len %u, size %llu, cons %llu, prod %llu) = %d, want %d",
			         len, (unsigned long long)rsize, (unsigned long long)cons,
			         (unsigned long long)prod, st, want);
			if (st != RP_OK) {
				FZ_CHECK(p == prod, "a failed reserve moved the producer");
				FZ_CHECK(memcmp(&v, &canary, sizeof v) == 0, "a failed reserve wrote rsv");
				FZ_CHECK(memcmp(ring, before, rsize) == 0, "a failed reserve wrote the ring");
				if (model)
					FZ_CHECK(st == RP_E_UR_FULL || st == RP_E_UR_LEN || st == RP_E_UR_TOO_BIG,
					         "model ring reported corrupt: %d", st);
				break;
			}
			const uint64_t off = prod % rsize;
			FZ_CHECK(v.pos == prod && v.off == off && v.len == len && v.size == total,
			         "rsv fields");
			FZ_CHECK(p == prod + total, "producer moved by %llu, want %llu",
			         (unsigned long long)(p - prod), (unsigned long long)total);
			FZ_CHECK(p - cons <= rsize, "producer passed consumer + size");
			FZ_CHECK(word_at(ring, off) == (len | 0x80000000u), "header word %#x, want %#x",
			         word_at(ring, off), len | 0x80000000u);
			FZ_CHECK(word_at(ring, off + 4) == 0, "second header word not 0");
			for (uint64_t i = 0; i < rsize; i++)
				FZ_CHECK((i >= off && i < off + 8) || ring[i] == before[i],
				         "reserve wrote byte %llu outside the header at %llu",
				         (unsigned long long)i, (unsigned long long)off);
			check_slices(&v, ring, rsize);
			write_payload(&v, seed);
			if (model)
				recs[nrec++] = (mrec){ prod, off, len, 0, seed };
			seed = (uint8_t)(seed * 5 + 3);
			prod = p;
			break;
		}
		case 2: {
			const bool discard = op & 4;
			uint64_t off;
			if (model) {
				uint32_t npend = 0, pick = 0, done = nrec;
				for (uint32_t i = head; i < nrec; i++) {
					npend += recs[i].state == 0;
					if (recs[i].state != 0)
						done = i;
				}
				if (op & 8 || npend == 0) {
					/* never a byte of a live record's payload (0x80 there
					 * would look pending): a committed header, or an
					 * offset that is no header slot */
					if (done != nrec && (a1 & 1))
						off = recs[done].off;
					else
						off = (a1 & 2) ? rsize + a0 : (uint64_t)a0 * 8 + 1 + a2 % 7;
				} else {
					uint32_t want_i = a0 % npend;
					for (pick = head; pick < nrec; pick++)
						if (recs[pick].state == 0 && want_i-- == 0)
							break;
					off = recs[pick].off;
				}
			} else {
				off = (uint64_t)a0 | (uint64_t)a1 << 8 | (uint64_t)a2 << 16;
				if (op & 8)
					off = UINT64_MAX - off;
			}
			rp_status want;
			if (off % 8 || off >= rsize)
				want = RP_E_UR_OFF;
			else if (ring[off + 3] != 0x80)
				want = RP_E_UR_NOT_RESERVED;
			else
				want = RP_OK;
			memcpy(before, ring, rsize);
			const rp_status st = rp_user_ring_commit(ring, rsize, off, discard);
			FZ_CHECK(st == want, "commit(off %llu) = %d, want %d", (unsigned long long)off, st,
			         want);
			for (uint64_t i = 0; i < rsize; i++)
				FZ_CHECK(i == off + 3 || ring[i] == before[i], "commit wrote byte %llu",
				         (unsigned long long)i);
			if (st == RP_OK)
				FZ_CHECK(ring[off + 3] == (discard ? 0x40 : 0x00), "flag byte %#x",
				         ring[off + 3]);
			else
				FZ_CHECK(memcmp(ring, before, rsize) == 0, "a failed commit wrote");
			if (model && st == RP_OK) {
				/* the header slot belongs to exactly one pending record of the model */
				uint32_t hits = 0;
				for (uint32_t i = head; i < nrec; i++)
					if (recs[i].off == off && recs[i].state == 0) {
						recs[i].state = discard ? 2 : 1;
						hits++;
					}
				FZ_CHECK(hits == 1, "committed a slot %u pending records have", hits);
			}
			break;
		}
		case 3:
			if (!model) {
				prod += (uint64_t)a0 * 8 + a1 % 8;
				break;
			}
			/* the kernel drains: __bpf_user_ringbuf_peek's rules */
			for (uint32_t n = 0; n < (uint32_t)(a0 % 8) + 1u && cons != prod; n++) {
				FZ_CHECK(prod % 8 == 0 && prod - cons <= rsize, "positions");
				const uint64_t off = cons % rsize;
				const uint32_t w = word_at(ring, off);
				const uint32_t l = w & 0x3fffffffu;
				const uint64_t tot = round_total(l);
				FZ_CHECK(tot <= prod - cons, "record at %llu reaches past producer",
				         (unsigned long long)cons);
				FZ_CHECK(tot <= rsize && l <= 0xffffffu, "record the kernel rejects (E2BIG)");
				FZ_CHECK(head < nrec && recs[head].pos == cons && recs[head].len == l,
				         "header at %llu: len %u is not the next reservation",
				         (unsigned long long)cons, l);
				const mrec *m = &recs[head];
				FZ_CHECK(((w & 0x80000000u) != 0) == (m->state == 0), "BUSY bit vs state %u",
				         m->state);
				FZ_CHECK(((w & 0x40000000u) != 0) == (m->state == 2), "DISCARD bit vs state %u",
				         m->state);
				if (w & 0x80000000u)
					break; /* the kernel stops at a pending record */
				if (m->state == 1)
					for (uint32_t i = 0; i < l; i++)
						FZ_CHECK(ring[(off + 8 + i) % rsize] == (uint8_t)(m->seed + i),
						         "payload byte %u", i);
				cons += tot;
				head++;
			}
			break;
		}
	}
	free(recs);
	free(before);
	free(ring);
	return 0;
}
