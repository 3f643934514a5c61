/* ringbuf: the BPF ring buffer walk (core/rp_ringbuf.h).
 *
 * Input:
 *   [0..2)   ring size = 8 * (1 + v % 512)  (8 .. 4096 bytes, any multiple of 8);
 *            generator mode: 8 << (v % 10), a power of two as the kernel's (positions
 *            are continuous across the u64 wrap only then)
 *   [2]      mode: bit 0 generator, bit 1 producer relative, bit 2 last record BUSY;
 *            bits 3..7 batch selector
 *   [3..11)  consumer, u64 LE (generator mode: rounded down to 8)
 *   [11..19) producer, u64 LE (relative: consumer + v % (size + 24))
 *   [19..)   raw mode: ring bytes from offset 0; generator mode: 2 bytes per
 *            record (length byte, flags byte: bit 0 DISCARD, bits 1..7 length
 *            high bits)
 *
 * Raw mode oracle: a reference walk written here from the kernel ABI (docs/abi.md; own
 * arithmetic, byte by byte) must agree with the iterator, in batches as the
 * adapter's batch walk takes them (iter_batch), on every delivered record,
 * the discarded count, the stop status and the final consumer; every span
 * lies in the ring; the consumer never passes the producer; a DISCARD
 * record is never delivered.
 * Generator mode: a valid ring of records with known payloads is written at
 * the consumer (wrapping, u64 wrap included); the batches must return
 * exactly the non-discarded records, byte for byte, then RP_EMPTY (or
 * RP_BUSY at a trailing BUSY record).
 * Both modes: the hinted iterator against the plain one from the same
 * state, whatever the hint (the same records, discarded ones too, the same
 * stop status at the same consumer position); rp_ringbuf_next, step by
 * step, against the iterator. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fz_util.h"
#include "rp_ringbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RB_MAX_BATCH 16u

static uint8_t span_byte(rp_span s, uint32_t i)
{
	return i < s.n0 ? s.p0[i] : s.p1[i - s.n0];
}

static void check_span_in_ring(rp_span s, const uint8_t *ring, uint64_t size)
{
	FZ_CHECK(s.n0 == 0 || (s.p0 >= ring && s.p0 + s.n0 <= ring + size), "slice 0 outside the ring");
	FZ_CHECK(s.n1 == 0 || (s.p1 == ring && s.n1 <= size), "slice 1 outside the ring");
}

typedef struct ref_rec {
	uint64_t pos;
	uint32_t len;
	uint64_t off; /* payload offset */
} ref_rec;

/* Reference walk: at most cap delivered records.  Returns the status and
 * fills *cons_out, *ndisc. */
static int ref_walk(const uint8_t *ring, uint64_t size, uint64_t prod, uint64_t cons,
                    ref_rec *out, uint32_t cap, uint32_t *n, uint64_t *ndisc, uint64_t *cons_out)
{
	*n = 0;
	*ndisc = 0;
	for (;;) {
		*cons_out = cons;
		const uint64_t avail = prod - cons; /* u64 wrap is the circle distance */
		if (avail > size)
			return RP_E_RB_OVERRUN;
		if (cons % 8 || prod % 8)
			return RP_E_RB_ALIGN;
		if (avail == 0)
			return RP_EMPTY;
		if (*n == cap)
			return RP_MORE;
		const uint64_t off = cons % size;
		const uint32_t w = fz_le32(ring + off);
		if (w & 0x80000000u)
			return RP_BUSY;
		const uint32_t len = w & 0x3fffffffu;
		const uint64_t rec = ((uint64_t)len + 8 + 7) & ~(uint64_t)7;
		if (rec > avail)
			return RP_E_RB_LEN;
		if (w & 0x40000000u) {
			(*ndisc)++;
		} else {
			out[*n].pos = cons;
			out[*n].len = len;
			out[*n].off = (off + 8) % size;
			(*n)++;
		}
		cons += rec;
	}
}

/* Every field of two records equal. */
static bool rec_eq(const rp_rb_record *a, const rp_rb_record *b)
{
	return a->pos == b->pos && a->len == b->len && a->size == b->size &&
	       a->discarded == b->discarded && a->data.p0 == b->data.p0 &&
	       a->data.n0 == b->data.n0 && a->data.p1 == b->data.p1 && a->data.n1 == b->data.n1;
}

/* The hinted step against the plain one, from the same iterator state:
 * the same status, iterator and record whatever the hint. */
static void check_hint(rp_rb_iter *ith, uint32_t hint, const rp_rb_iter *it, rp_status ist,
                       const rp_rb_record *got)
{
	rp_rb_record h;
	const rp_status hst = rp_rb_iter_next_hint(ith, &h, hint);

	FZ_CHECK(hst == ist && ith->base == it->base && ith->off == it->off &&
	         ith->limit == it->limit && (ist != RP_OK || rec_eq(&h, got)),
	         "hinted iterator (hint %#x): %d, the plain one %d", hint, (int)hst, (int)ist);
}

/* rp_ringbuf_next against the plain iterator's step: the same status and
 * record (DISCARD ones too, flagged), the same consumer after it; a stop
 * moves neither. */
static void check_next(const rp_ring *r, uint64_t prod, uint64_t *nc, const rp_rb_iter *it,
                       rp_status ist, const rp_rb_record *got)
{
	rp_rb_record one;
	const uint64_t before = *nc;
	const rp_status nst = rp_ringbuf_next(r, prod, nc, &one);

	FZ_CHECK(nst == ist && *nc == rp_rb_iter_consumer(it) &&
	         (ist == RP_OK ? rec_eq(&one, got) && *nc == before + one.size : *nc == before),
	         "rp_ringbuf_next at %" PRIu64 ": %d, the iterator %d", before, (int)nst, (int)ist);
}

/* The plain iterator from cons, and beside it the hinted one: its first
 * hint is the word at offset 8 * sel of the ring; with sel odd, each
 * record's word is the next hint (as the adapter's batch walk).
 * rp_ringbuf_next walks beside them. */
static void check_iter(const rp_ring *r, uint64_t prod, uint64_t cons, uint8_t sel)
{
	rp_rb_iter it, ith;
	uint64_t nc = cons;
	uint32_t hint = fz_le32(r->data + (uint64_t)sel * 8u % r->size);

	rp_rb_iter_init(&it, r, prod, cons);
	rp_rb_iter_init(&ith, r, prod, cons);
	for (uint32_t k = 0; k < 1u << 20; k++) {
		rp_rb_record got;
		const rp_status ist = rp_rb_iter_next(&it, &got);
		check_hint(&ith, hint, &it, ist, &got);
		check_next(r, prod, &nc, &it, ist, &got);
		if (ist != RP_OK)
			return;
		if (sel % 2u)
			hint = got.len | (got.discarded ? 0x40000000u : 0);
	}
}

/* Up to max delivered records from *cons into recs, on a fresh iterator
 * hinted with the last len word, as the adapter's batch walk takes them:
 * discarded records consumed and counted in *disc; RP_EMPTY at the
 * producer, RP_MORE when recs is full and bytes remain, else the step's
 * stop; *cons after the last record consumed. */
static rp_status iter_batch(const rp_ring *r, uint64_t prod, uint64_t *cons, rp_rb_record *recs,
                            uint32_t max, uint32_t *count, uint64_t *disc)
{
	rp_rb_iter it;
	rp_rb_record rec;
	rp_status st = RP_OK;
	uint32_t hint = 0;

	*count = 0;
	*disc = 0;
	rp_rb_iter_init(&it, r, prod, *cons);
	while (*count < max && (st = rp_rb_iter_next_hint(&it, &rec, hint)) == RP_OK) {
		hint = rec.len | (rec.discarded ? 0x40000000u : 0);
		if (rec.discarded)
			(*disc)++;
		else
			recs[(*count)++] = rec;
	}
	*cons = rp_rb_iter_consumer(&it);
	if (st == RP_OK)
		return *cons == prod ? RP_EMPTY : RP_MORE;
	return st;
}

static void raw_mode(const uint8_t *ring, uint64_t size, uint64_t prod, uint64_t cons0, uint8_t sel)
{
	static ref_rec ref[4096];
	rp_rb_record recs[RB_MAX_BATCH];
	const rp_ring r = { ring, size };
	uint64_t cons = cons0;
	uint32_t k = 0; /* index into ref */
	uint32_t nref;
	uint64_t ref_disc, ref_cons;
	const int ref_st = ref_walk(ring, size, prod, cons0, ref, 4096, &nref, &ref_disc, &ref_cons);
	uint64_t disc_total = 0;

	check_iter(&r, prod, cons0, sel);
	rp_status st;

	for (uint32_t call = 0;; call++) {
		const uint32_t max = 1u + (uint32_t)((sel + call * 7u) % RB_MAX_BATCH);
		uint32_t count = 0;
		uint64_t disc = 0;
		const uint64_t before = cons;
		st = iter_batch(&r, prod, &cons, recs, max, &count, &disc);
		FZ_CHECK(count <= max, "count %u > max %u", count, max);
		FZ_CHECK(prod - cons <= prod - before || st < 0, "consumer moved past the producer");
		if (st < 0 || st == RP_BUSY)
			FZ_CHECK(count + disc > 0 || cons == before, "stop moved the consumer without records");
		for (uint32_t i = 0; i < count; i++, k++) {
			const rp_rb_record *x = &recs[i];
			FZ_CHECK(k < nref, "more records than the reference walk");
			FZ_CHECK(!x->discarded, "a DISCARD record was delivered");
			FZ_CHECK(x->pos == ref[k].pos && x->len == ref[k].len, "record %u: pos/len differ from reference", k);
			FZ_CHECK(x->size == ((x->len + 15u) & ~7u), "record size %u for len %u", x->size, x->len);
			FZ_CHECK(x->data.n0 + (uint64_t)x->data.n1 == x->len, "span length");
			check_span_in_ring(x->data, ring, size);
			for (uint32_t j = 0; j < x->len; j++)
				FZ_CHECK(span_byte(x->data, j) == ring[(ref[k].off + j) % size], "payload byte %u", j);
		}
		disc_total += disc;
		if (st != RP_MORE)
			break;
		FZ_CHECK(count == max, "RP_MORE with a partial batch");
	}
	FZ_CHECK(k == nref, "delivered %u records, reference %u", k, nref);
	FZ_CHECK(disc_total == ref_disc, "discarded %" PRIu64 ", reference %" PRIu64, disc_total, ref_disc);
	FZ_CHECK((int)st == ref_st, "status %d, reference %d", (int)st, ref_st);
	FZ_CHECK(cons == ref_cons, "final consumer differs from reference");
	/* an error or BUSY stop leaves the consumer where rp_ringbuf_next stops again */
	if (st < 0 || st == RP_BUSY) {
		rp_rb_record one, poison;
		uint64_t c = cons;
		memset(&one, 0x5A, sizeof one);
		memcpy(&poison, &one, sizeof one);
		FZ_CHECK(rp_ringbuf_next(&r, prod, &c, &one) == st, "next disagrees with the iterator");
		FZ_CHECK(c == cons && memcmp(&one, &poison, sizeof one) == 0, "a stop wrote the record");
	}
}

static void gen_mode(uint8_t *ring, uint64_t size, uint64_t cons0, uint8_t mode,
                     const uint8_t *ops, size_t nops)
{
	static ref_rec exp[4096];
	rp_rb_record recs[RB_MAX_BATCH];
	const rp_ring r = { ring, size };
	uint64_t pos = cons0 & ~(uint64_t)7;
	const uint64_t start = pos;
	uint32_t nexp = 0;
	uint64_t ndisc = 0;
	uint64_t busy_pos = 0;
	bool busy = false;

	memset(ring, 0, size);
	for (size_t i = 0; i + 1 < nops; i += 2) {
		const uint32_t len = ops[i] | (uint32_t)((ops[i + 1] >> 1) & 3u) << 8;
		const uint64_t rec = ((uint64_t)len + 15) & ~(uint64_t)7;
		if ((pos - start) + rec > size)
			break;
		uint32_t w = len;
		const bool last = i + 3 >= nops || (pos - start) + rec + 8 > size;
		if (ops[i + 1] & 1)
			w |= 0x40000000u;
		if (last && (mode & 4)) {
			w |= 0x80000000u;
			busy = true;
			busy_pos = pos;
		}
		for (int b = 0; b < 4; b++)
			ring[(pos + b) % size] = (uint8_t)(w >> (8 * b));
		for (int b = 4; b < 8; b++)
			ring[(pos + b) % size] = 0xEE; /* pg_off: never read */
		for (uint32_t j = 0; j < len; j++)
			ring[(pos + 8 + j) % size] = (uint8_t)(nexp * 31u + j);
		if (!busy) {
			if (w & 0x40000000u) {
				ndisc++;
			} else {
				exp[nexp].pos = pos;
				exp[nexp].len = len;
				nexp++;
			}
		}
		pos += rec;
		if (busy)
			break;
	}
	const uint64_t prod = pos;
	uint64_t cons = start;
	check_iter(&r, prod, start, (uint8_t)nops); /* either hint policy */
	uint32_t k = 0;
	uint64_t disc = 0;
	rp_status st;
	for (;;) {
		uint32_t count = 0;
		uint64_t d = 0;
		st = iter_batch(&r, prod, &cons, recs, RB_MAX_BATCH, &count, &d);
		disc += d;
		for (uint32_t i = 0; i < count; i++, k++) {
			FZ_CHECK(k < nexp, "extra record");
			FZ_CHECK(recs[i].pos == exp[k].pos && recs[i].len == exp[k].len, "record %u differs", k);
			for (uint32_t j = 0; j < recs[i].len; j++)
				FZ_CHECK(span_byte(recs[i].data, j) == (uint8_t)(k * 31u + j), "record %u byte %u", k, j);
		}
		if (st != RP_MORE)
			break;
	}
	FZ_CHECK(k == nexp, "round trip: %u of %u records", k, nexp);
	FZ_CHECK(disc == ndisc, "round trip: discarded %" PRIu64 " of %" PRIu64, disc, ndisc);
	if (busy)
		FZ_CHECK(st == RP_BUSY && cons == busy_pos, "round trip: no BUSY stop at the busy record");
	else
		FZ_CHECK(st == RP_EMPTY && cons == prod, "round trip: status %d", (int)st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 19)
		return 0;
	const uint8_t mode = data[2];
	const uint64_t rsize = (mode & 1) ? (UINT64_C(8) << (fz_le16(data) % 10u))
	                                  : 8u * (1u + (fz_le16(data) % 512u));
	const uint64_t cons = fz_le64(data + 3);
	uint64_t prod = fz_le64(data + 11);
	if (mode & 2)
		prod = cons + prod % (rsize + 24);
	uint8_t *ring = malloc(rsize);
	if (!ring)
		return 0;
	const uint8_t *rest = data + 19;
	const size_t nrest = size - 19;
	if (mode & 1) {
		gen_mode(ring, rsize, cons, mode, rest, nrest);
	} else {
		memset(ring, 0, rsize);
		memcpy(ring, rest, nrest < rsize ? nrest : rsize);
		raw_mode(ring, rsize, prod, cons, (uint8_t)(mode >> 3));
	}
	free(ring);
	return 0;
}
