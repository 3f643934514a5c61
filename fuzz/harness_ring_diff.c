/* ring_diff: the core against fuzz/ref_decoder.c on the same ring image
 * (fuzz/fz_util.h format): same stop status at the same tail, and the same
 * records (pos, type, misc, size, every body byte), and the same results of
 * the BPF-output and LOST views on every record. */
#include <inttypes.h>
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
	fz_image_free(&img);
	return 0;
}
