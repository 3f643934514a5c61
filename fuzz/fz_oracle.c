#include "fz_oracle.h"

#include <inttypes.h>

#include "fz_util.h"

void fz_check_body(const rp_ring *ring, const rp_record *r)
{
	const uint64_t off = r->pos % ring->size;
	const uint64_t body_off = (off + 8u) % ring->size;
	const rp_span *b = &r->body;

	FZ_CHECK(b->p0 == ring->data + body_off, "pos %" PRIu64 ": body starts at page+%td, want +%" PRIu64,
	         r->pos, b->p0 - ring->data, body_off);
	FZ_CHECK(b->n0 <= ring->size - body_off, "pos %" PRIu64 ": first slice %u bytes leaves the page",
	         r->pos, b->n0);
	FZ_CHECK((uint64_t)b->n0 + b->n1 == (uint64_t)r->size - 8u,
	         "pos %" PRIu64 ": slices %u+%u != size %u - 8", r->pos, b->n0, b->n1, r->size);
	if (b->n1 > 0) {
		FZ_CHECK(b->p1 == ring->data, "pos %" PRIu64 ": second slice not at page start", r->pos);
		FZ_CHECK(b->n0 == ring->size - body_off, "pos %" PRIu64 ": wrapped before the page end", r->pos);
		FZ_CHECK(b->n1 <= off, "pos %" PRIu64 ": second slice (%u) reaches its own header at %" PRIu64,
		         r->pos, b->n1, off);
	}
}

uint64_t fz_check_drain(const rp_ring *ring, uint64_t head, uint64_t tail_before,
                        uint64_t tail_after, const rp_record *recs, uint32_t max,
                        uint32_t count, rp_status st, fz_hdr_fn hdr, void *ctx)
{
	const uint64_t avail = fz_dist(head, tail_before);
	uint64_t p = tail_before;
	uint64_t sum = 0;

	FZ_CHECK(count <= max, "count %u > max %u", count, max);
	FZ_CHECK(st == RP_EMPTY || st == RP_MORE || (st <= RP_E_OVERRUN && st >= RP_E_TRUNCATED),
	         "unexpected drain status %d", (int)st);
	FZ_CHECK(rp_status_text(st) != NULL, "status %d has no text", (int)st);
	/* the contract's first two checks, before any record is read */
	if (avail > ring->size)
		FZ_CHECK(count == 0 && st == RP_E_OVERRUN, "head - tail = %" PRIu64 " > size %" PRIu64
		         " but %u records, status %d", avail, ring->size, count, (int)st);
	else if (tail_before % 8u != 0)
		FZ_CHECK(count == 0 && st == RP_E_TAIL_ALIGN, "tail %" PRIu64 " unaligned but %u records, status %d",
		         tail_before, count, (int)st);
	FZ_CHECK(count <= avail / 8u, "%u records from %" PRIu64 " bytes", count, avail);
	for (uint32_t k = 0; k < count; k++) {
		const rp_record *r = &recs[k];
		FZ_CHECK(r->pos == p, "record %u at %" PRIu64 ", chain says %" PRIu64, k, r->pos, p);
		FZ_CHECK(r->pos % 8u == 0, "record %u at unaligned %" PRIu64, k, r->pos);
		FZ_CHECK(r->size >= 8u && r->size % 8u == 0, "record %u has size %u", k, r->size);
		fz_check_body(ring, r);
		if (hdr) {
			uint8_t h[8];
			hdr(ctx, r->pos % ring->size, h);
			FZ_CHECK(r->type == fz_le32(h) && r->misc == fz_le16(h + 4) && r->size == fz_le16(h + 6),
			         "record %u: decoded type %u misc %u size %u, header bytes say %u %u %u", k,
			         r->type, r->misc, r->size, fz_le32(h), fz_le16(h + 4), fz_le16(h + 6));
		}
		sum += r->size;
		p += r->size;
	}
	FZ_CHECK(sum <= avail, "records sum %" PRIu64 " > head - tail %" PRIu64, sum, avail);
	FZ_CHECK(tail_after == p, "tail %" PRIu64 " != start + sizes %" PRIu64, tail_after, p);
	if (count == 0)
		FZ_CHECK(tail_after == tail_before, "tail moved without records");
	if (st == RP_EMPTY)
		FZ_CHECK(tail_after == head, "EMPTY but tail %" PRIu64 " != head %" PRIu64, tail_after, head);
	if (st == RP_MORE)
		FZ_CHECK(count == max && tail_after != head, "MORE with count %u max %u", count, max);
	return sum;
}
