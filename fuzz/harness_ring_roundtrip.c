/* ring_roundtrip (structure-aware): the input drives a generator that writes
 * a valid sequence of BPF-output SAMPLE and LOST records into a ring from an
 * arbitrary 8-aligned tail (so records wrap anywhere, u64 wrap included);
 * the decoder must return exactly those records, byte for byte.  Optionally
 * one corruption is injected at a chosen record; the decoder must then stop
 * with that error class at that record's position after delivering every
 * record before it.
 * Input:
 *   [0] ring size selector (8 KiB << (b & 3))   [1] batch-size selector
 *   [2] corruption class (b % 8, see enum)       [3] corruption parameter
 *   [4..12) tail (u64 LE, aligned down to 8)     [12] stale fill byte
 *   then records: kind (bit0: LOST, bit1: long payload), misc u16, len u16,
 *   then payload (SAMPLE: n bytes, n = len % 1024 or len if long) or
 *   id u64 + lost u64 (LOST).  Generation stops at the end of the input or
 *   when the next record does not fit in the ring. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fz_oracle.h"
#include "fz_util.h"
#include "rp_ring.h"
#include "rp_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* C_RAW_LONG: a SAMPLE whose raw size reaches past its record; the drain goes
 * on, only that record's BPF-output view must fail. */
enum corruption { C_NONE, C_SIZE0, C_SIZE_SHORT, C_SIZE_ALIGN, C_SIZE_LONG, C_TAIL_ALIGN, C_OVERRUN, C_RAW_LONG, C_COUNT };

#define MAX_RECS 8192u /* 64 KiB / 8 */
#define MAX_PAYLOAD 65516u

typedef struct want_rec {
	uint64_t pos;
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint32_t n;            /* SAMPLE: payload bytes written */
	const uint8_t *payload; /* SAMPLE: into the input */
	uint64_t id, lost;     /* LOST */
	int raw_bad;           /* SAMPLE: raw size corrupted */
} want_rec;

static want_rec want[MAX_RECS];

static uint8_t span_at(const rp_span *s, uint32_t i)
{
	return i < s->n0 ? s->p0[i] : s->p1[i - s->n0];
}

static void put(uint8_t *page, uint64_t size, uint64_t pos, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		page[(pos + i) % size] = src[i];
}

static void check_record(const rp_record *g, const want_rec *w, uint8_t fill)
{
	FZ_CHECK(g->pos == w->pos && g->type == w->type && g->misc == w->misc && g->size == w->size,
	         "decoded %" PRIu64 "/%u/%u/%u, written %" PRIu64 "/%u/%u/%u", g->pos, g->type, g->misc,
	         g->size, w->pos, w->type, w->misc, w->size);
	rp_bpf_output bo;
	rp_lost lo;
	const rp_status bs = rp_bpf_output_view(g, &bo);
	const rp_status ls = rp_lost_view(g, &lo);
	if (w->raw_bad) {
		FZ_CHECK(bs == RP_E_BODY_SHORT && ls == RP_E_TYPE, "sample at %" PRIu64 " with raw size past its end:"
		         " views %d %d", g->pos, (int)bs, (int)ls);
	} else if (w->type == RP_RECORD_SAMPLE) {
		FZ_CHECK(bs == RP_OK && ls == RP_E_TYPE, "sample at %" PRIu64 ": views %d %d", g->pos, (int)bs, (int)ls);
		const uint32_t raw = ((w->n + 4u + 7u) & ~7u) - 4u;
		FZ_CHECK(bo.raw_size == raw && (uint64_t)bo.data.n0 + bo.data.n1 == raw, "raw size %u, want %u",
		         bo.raw_size, raw);
		for (uint32_t i = 0; i < raw; i++)
			FZ_CHECK(span_at(&bo.data, i) == (i < w->n ? w->payload[i] : fill),
			         "sample at %" PRIu64 ": payload byte %u of %u", g->pos, i, raw);
	} else {
		FZ_CHECK(ls == RP_OK && bs == RP_E_TYPE, "lost at %" PRIu64 ": views %d %d", g->pos, (int)bs, (int)ls);
		FZ_CHECK(lo.id == w->id && lo.lost == w->lost, "lost %" PRIu64 "/%" PRIu64 ", written %" PRIu64
		         "/%" PRIu64, lo.id, lo.lost, w->id, w->lost);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 13)
		return 0;
	const uint64_t rsize = 8192u << (data[0] & 3u);
	const uint8_t max_sel = data[1];
	const unsigned corr = data[2] % C_COUNT;
	const uint8_t param = data[3];
	const uint64_t tail0 = fz_le64(data + 4) & ~(uint64_t)7;
	const uint8_t fill = data[12];
	uint8_t *page = aligned_alloc(8, rsize);
	FZ_CHECK(page != NULL, "out of memory");
	memset(page, fill, rsize);

	/* generate */
	size_t in = 13;
	uint64_t used = 0;
	uint32_t nrec = 0;
	while (in + 5 <= size && nrec < MAX_RECS) {
		want_rec *w = &want[nrec];
		const uint8_t kind = data[in];
		const uint16_t misc = fz_le16(data + in + 1);
		const uint16_t len = fz_le16(data + in + 3);
		uint8_t hdr[8];
		in += 5;
		memset(w, 0, sizeof *w);
		w->pos = tail0 + used;
		w->misc = misc;
		if (kind & 1u) {
			if (in + 16 > size)
				break;
			w->type = RP_RECORD_LOST;
			w->size = 24;
			w->id = fz_le64(data + in);
			w->lost = fz_le64(data + in + 8);
		} else {
			uint32_t n = (kind & 2u) ? len : len % 1024u;
			if (n > MAX_PAYLOAD)
				n = MAX_PAYLOAD;
			if (in + n > size)
				n = (uint32_t)(size - in);
			w->type = RP_RECORD_SAMPLE;
			w->size = (uint16_t)(8u + ((n + 4u + 7u) & ~7u));
			w->n = n;
			w->payload = data + in;
		}
		if (used + w->size > rsize)
			break;
		fz_put_le32(hdr, w->type);
		fz_put_le16(hdr + 4, w->misc);
		fz_put_le16(hdr + 6, w->size);
		put(page, rsize, w->pos, hdr, 8);
		if (w->type == RP_RECORD_LOST) {
			uint8_t body[16];
			fz_put_le64(body, w->id);
			fz_put_le64(body + 8, w->lost);
			put(page, rsize, w->pos + 8u, body, 16);
			in += 16;
		} else {
			uint8_t rawsz[4];
			fz_put_le32(rawsz, w->size - 12u);
			put(page, rsize, w->pos + 8u, rawsz, 4);
			put(page, rsize, w->pos + 12u, w->payload, w->n);
			in += w->n;
		}
		used += w->size;
		nrec++;
	}

	/* corrupt */
	uint64_t head = tail0 + used;
	uint64_t tail = tail0;
	uint32_t good = nrec;     /* records expected before the stop */
	int want_st = RP_EMPTY;
	uint64_t stop = head;     /* tail expected at the stop */
	if (corr == C_RAW_LONG && nrec > 0) {
		const uint32_t k = param % nrec;
		if (want[k].type == RP_RECORD_SAMPLE) {
			/* raw + 4 > size - 8: anything from one byte too long to u32 max */
			uint8_t rawsz[4];
			const uint32_t raw = (param & 0x80u) ? UINT32_MAX - (param & 0x7fu)
			                                     : want[k].size - 12u + 1u + (param & 0x7fu);
			fz_put_le32(rawsz, raw);
			put(page, rsize, want[k].pos + 8u, rawsz, 4);
			want[k].raw_bad = 1;
		}
	} else if (corr != C_NONE && nrec > 0) {
		const uint32_t k = param % nrec;
		const uint64_t o = want[k].pos % rsize;
		uint8_t sz[2];
		good = k;
		stop = want[k].pos;
		switch (corr) {
		case C_SIZE0:
			fz_put_le16(sz, 0);
			want_st = RP_E_HDR_SHORT;
			break;
		case C_SIZE_SHORT:
			fz_put_le16(sz, (uint16_t)(1u + param % 7u));
			want_st = RP_E_HDR_SHORT;
			break;
		case C_SIZE_ALIGN:
			fz_put_le16(sz, (uint16_t)(want[k].size + 1u + param % 7u));
			want_st = RP_E_HDR_ALIGN;
			break;
		case C_SIZE_LONG:
			want_st = RP_E_TRUNCATED;
			if (head - stop + 8u <= 65528u && !(param & 0x80u)) {
				fz_put_le16(sz, (uint16_t)(head - stop + 8u));
			} else {
				/* cut head inside the record (or its header) instead */
				head = stop + want[k].size - 4u;
				fz_put_le16(sz, want[k].size);
			}
			break;
		case C_TAIL_ALIGN:
			fz_put_le16(sz, want[k].size);
			good = 0;
			tail = stop = tail0 + 1u + param % 7u;
			want_st = RP_E_TAIL_ALIGN;
			break;
		default: /* C_OVERRUN */
			fz_put_le16(sz, want[k].size);
			good = 0;
			stop = tail0;
			head = tail0 + rsize + 8u * (1u + param % 8u);
			want_st = RP_E_OVERRUN;
			break;
		}
		put(page, rsize, o + 6u, sz, 2);
	}

	/* decode and compare */
	const rp_ring ring = { page, rsize };
	rp_record recs[FZ_MAX_BATCH];
	uint32_t got = 0;
	rp_status st;
	for (uint32_t call = 0;; call++) {
		const uint32_t max = fz_batch_max(max_sel, call);
		uint32_t count = 0;
		const uint64_t before = tail;
		st = rp_ring_drain(&ring, head, &tail, recs, max, &count);
		fz_check_drain(&ring, head, before, tail, recs, max, count, st, NULL, NULL);
		for (uint32_t i = 0; i < count; i++, got++) {
			FZ_CHECK(got < good, "decoded record %u at %" PRIu64 ", only %u written before the stop",
			         got, recs[i].pos, good);
			check_record(&recs[i], &want[got], fill);
		}
		if (st != RP_MORE)
			break;
	}
	FZ_CHECK(got == good, "decoded %u records, want %u", got, good);
	FZ_CHECK((int)st == want_st && tail == stop, "stopped with %d at %" PRIu64 ", want %d at %" PRIu64
	         " (corruption %u)", (int)st, tail, want_st, stop, corr);
	free(page);
	return 0;
}
