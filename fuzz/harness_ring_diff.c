/* ring_diff: the core against fuzz/ref_decoder.c on the same ring image
 * (fuzz/fz_util.h format): same stop status at the same tail, and the same
 * records (pos, type, misc, size, every body byte), and the same results of
 * the BPF-output and LOST views on every record.  Then the iterator
 * (rp_ring_iter) on the same image: its sample step against rp_ring_drain +
 * rp_bpf_output_view (the same samples, the same stop status at the same
 * tail, RP_OTHER where the view rejects a well-framed record, after which
 * the walk steps over it with rp_ring_next as a caller does), its record
 * step against rp_ring_drain. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "fz_oracle.h"
#include "fz_util.h"
#include "ref_decoder.h"
#include "rp_ring.h"
#include "rp_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ref_record want;

static uint8_t span_at(const rp_span *s, uint32_t i)
{
	return i < s->n0 ? s->p0[i] : s->p1[i - s->n0];
}

/* The span accessors on a record body against the reference's copy of it,
 * at offsets around the edges (and u32 wrap-around ones). */
static void check_span_api(const rp_span *b, const uint8_t *w, uint32_t len, uint32_t seed)
{
	const uint32_t offs[] = { 0, 1, 4, seed % (len + 9u), len - 1u, len - 2u, len - 4u, len - 8u,
	                          len, b->n0, b->n0 - 1u, b->n0 + 3u, UINT32_MAX - 1u };
	for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
		const uint32_t off = offs[k];
		const uint64_t room = off <= len ? (uint64_t)len - off : 0;
		const bool inside = off <= len;
		uint16_t v16 = 0x5a5a;
		uint32_t v32 = 0x5a5a5a5a;
		uint64_t v64 = 0x5a5a5a5a5a5a5a5aull;
		bool ok = rp_span_get_u16(*b, off, &v16);
		FZ_CHECK(ok == (inside && room >= 2) && (!ok || v16 == fz_le16(w + off)), "get_u16 at %u of %u", off, len);
		ok = rp_span_get_u32(*b, off, &v32);
		FZ_CHECK(ok == (inside && room >= 4) && (!ok || v32 == fz_le32(w + off)), "get_u32 at %u of %u", off, len);
		ok = rp_span_get_u64(*b, off, &v64);
		FZ_CHECK(ok == (inside && room >= 8) && (!ok || v64 == fz_le64(w + off)), "get_u64 at %u of %u", off, len);
		const uint32_t lens[] = { 0, 1, (seed >> 3) % (len + 2u), len - off, len - off + 1u, UINT32_MAX };
		for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++) {
			rp_span sub;
			memset(&sub, 0, sizeof sub);
			ok = rp_span_sub(*b, off, lens[j], &sub);
			FZ_CHECK(ok == (inside && lens[j] <= room), "sub(%u, %u) of %u", off, lens[j], len);
			if (!ok)
				continue;
			FZ_CHECK((uint64_t)sub.n0 + sub.n1 == lens[j], "sub length");
			/* the first 48 and the last 16 bytes (whole bodies are compared above) */
			for (uint32_t i = 0; i < lens[j]; i = (i == 47u && lens[j] > 64u) ? lens[j] - 16u : i + 1u)
				FZ_CHECK(span_at(&sub, i) == w[off + i] && rp_span_byte(sub, i) == w[off + i],
				         "sub(%u, %u) byte %u", off, lens[j], i);
			uint8_t copy[96];
			const uint32_t cap = (seed + (uint32_t)j) % sizeof copy;
			const uint32_t n = rp_span_copy(sub, copy, cap);
			FZ_CHECK(n == (lens[j] < cap ? lens[j] : cap), "copy returned %u", n);
			FZ_CHECK(memcmp(copy, w + off, n) == 0, "copy bytes");
		}
	}
}

static void compare_views(const rp_record *got)
{
	rp_bpf_output bo;
	uint32_t raw = 0;
	const uint8_t *payload = NULL;
	int ws = ref_bpf_output(&want, &raw, &payload);
	int gs = rp_bpf_output_view(got, &bo);
	FZ_CHECK(gs == ws, "pos %" PRIu64 ": bpf_output view %d, reference %d", got->pos, gs, ws);
	if (gs == RP_OK) {
		FZ_CHECK(bo.raw_size == raw, "raw_size %u, reference %u", bo.raw_size, raw);
		FZ_CHECK((uint64_t)bo.data.n0 + bo.data.n1 == raw, "payload span %u+%u", bo.data.n0, bo.data.n1);
		for (uint32_t i = 0; i < raw; i++)
			FZ_CHECK(span_at(&bo.data, i) == payload[i], "payload byte %u differs", i);
	}
	rp_lost lo;
	uint64_t id = 0, lost = 0;
	ws = ref_lost(&want, &id, &lost);
	gs = rp_lost_view(got, &lo);
	FZ_CHECK(gs == ws, "pos %" PRIu64 ": lost view %d, reference %d", got->pos, gs, ws);
	if (gs == RP_OK)
		FZ_CHECK(lo.id == id && lo.lost == lost, "lost view %" PRIu64 "/%" PRIu64 ", reference %" PRIu64
		         "/%" PRIu64, lo.id, lo.lost, id, lost);
}

/* The iterator against the drain and the view, over the whole image: the
 * same samples, the same stop status at the same tail. */
static void check_iter(const rp_ring *ring, const fz_image *img)
{
	rp_ring_iter it;
	uint64_t ref = img->tail;

	rp_ring_iter_init(&it, ring, img->head, img->tail);
	for (uint32_t k = 0; k < 1u << 20; k++) {
		rp_bpf_sample s;
		rp_record rec;
		rp_bpf_output bo;
		uint32_t c = 0;
		uint64_t t = ref;
		memset(&s, 0x5a, sizeof s);
		const rp_status st = rp_ring_iter_next_bpf(&it, &s);
		rp_status want = rp_ring_drain(ring, img->head, &t, &rec, 1, &c);
		if (c == 1 && rp_bpf_output_view(&rec, &bo) != RP_OK)
			want = RP_OTHER;
		else if (c == 1)
			want = RP_OK;
		FZ_CHECK(st == want, "iterator: status %d at %" PRIu64 ", drain + view %d", (int)st,
		         ref, (int)want);
		if (st == RP_OK) {
			FZ_CHECK(s.pos == rec.pos && s.size == rec.size && s.raw_size == bo.raw_size &&
			         s.data.p0 == bo.data.p0 && s.data.p1 == bo.data.p1 &&
			         s.data.n0 == bo.data.n0 && s.data.n1 == bo.data.n1,
			         "iterator: sample at %" PRIu64 " differs from drain + view", rec.pos);
			ref = t;
			FZ_CHECK(it.tail == ref, "iterator: tail %" PRIu64 " after the sample, drain %" PRIu64,
			         it.tail, ref);
			continue;
		}
		FZ_CHECK(it.tail == ref, "iterator: stopped at %" PRIu64 ", drain at %" PRIu64, it.tail, ref);
		if (st != RP_OTHER)
			break;
		FZ_CHECK(rp_ring_next(ring, img->head, &it.tail, &rec) == RP_OK,
		         "iterator: RP_OTHER at a record rp_ring_next rejects");
		ref = it.tail;
		rp_ring_iter_init(&it, ring, img->head, it.tail);
	}
}

/* The iterator's record step against rp_ring_drain, record by record. */
static void check_iter_records(const rp_ring *ring, const fz_image *img)
{
	rp_ring_iter it;
	uint64_t t = img->tail;

	rp_ring_iter_init(&it, ring, img->head, img->tail);
	for (uint32_t k = 0; k < 1u << 20; k++) {
		rp_record want, got;
		uint32_t c = 0;
		const rp_status ws = rp_ring_drain(ring, img->head, &t, &want, 1, &c);
		const rp_status gs = rp_ring_iter_next(&it, &got);
		if (c == 0) {
			FZ_CHECK(gs == ws && it.tail == t, "iterator records: stop %d at %" PRIu64
			         ", drain %d at %" PRIu64, (int)gs, it.tail, (int)ws, t);
			break;
		}
		FZ_CHECK(gs == RP_OK && got.pos == want.pos && got.type == want.type &&
		         got.misc == want.misc && got.size == want.size &&
		         got.body.p0 == want.body.p0 && got.body.p1 == want.body.p1 &&
		         got.body.n0 == want.body.n0 && got.body.n1 == want.body.n1 && it.tail == t,
		         "iterator records: record at %" PRIu64 " differs from the drain's", want.pos);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_image img;
	if (!fz_image_parse(data, size, &img))
		return 0;
	const rp_ring ring = { img.page, img.size };
	rp_record recs[FZ_MAX_BATCH];
	uint64_t tail = img.tail;    /* the core's */
	uint64_t ref_tail = img.tail; /* the reference's */
	int ref_st = RP_OK;
	rp_status st;

	for (uint32_t call = 0;; call++) {
		const uint32_t max = fz_batch_max(img.max_sel, call);
		uint32_t count = 0;
		const uint64_t before = tail;
		st = rp_ring_drain(&ring, img.head, &tail, recs, max, &count);
		fz_check_drain(&ring, img.head, before, tail, recs, max, count, st, NULL, NULL);
		for (uint32_t k = 0; k < count; k++) {
			uint64_t next = 0;
			ref_st = ref_next(img.page, img.size, img.head, ref_tail, &want, &next);
			FZ_CHECK(ref_st == RP_OK, "core decoded a record at %" PRIu64 ", reference says %d",
			         recs[k].pos, ref_st);
			const rp_record *g = &recs[k];
			FZ_CHECK(g->pos == want.pos && g->type == want.type && g->misc == want.misc &&
			         g->size == want.size, "record at %" PRIu64 ": core %" PRIu64 "/%u/%u/%u, "
			         "reference %" PRIu64 "/%u/%u/%u", ref_tail, g->pos, g->type, g->misc, g->size,
			         want.pos, want.type, want.misc, want.size);
			for (uint32_t i = 0; i + 8u < g->size; i++)
				FZ_CHECK(span_at(&g->body, i) == want.body[i], "pos %" PRIu64 " body byte %u", g->pos, i);
			compare_views(g);
			/* the span API on the first records of a batch and on wrapped bodies */
			if (k < 2 || g->body.n1 > 0)
				check_span_api(&g->body, want.body, g->size - 8u, (uint32_t)(g->pos / 8u) ^ img.max_sel);
			ref_tail = next;
		}
		FZ_CHECK(tail == ref_tail, "core tail %" PRIu64 ", reference %" PRIu64, tail, ref_tail);
		if (st != RP_MORE)
			break;
	}
	uint64_t next = 0;
	ref_st = ref_next(img.page, img.size, img.head, ref_tail, &want, &next);
	FZ_CHECK(ref_st == (int)st, "core stopped with %d at %" PRIu64 ", reference says %d",
	         (int)st, tail, ref_st);
	check_iter(&ring, &img);
	check_iter_records(&ring, &img);
	fz_image_free(&img);
	return 0;
}
