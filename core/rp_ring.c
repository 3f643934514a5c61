/* The inline definitions of rp_ring.h (RP_INLINE) are proved here. */
#define RP_DEFINE_RING
#include "rp_ring.h"

/* The record whose header is at position t, given its offset off = t mod
 * size (by division in rp_ring_next; carried from record to record in the
 * batch loop).  data and size come by value, so that the batch loop keeps
 * them in registers across its stores to the records.  The record goes back
 * by value, with the status (rp_ring_taken, rp_ring.h; no memory written:
 * rec is the record on RP_OK and meaningless otherwise).  The header is
 * read once, with one 8-byte load, and checked in registers.  A caller that
 * has already read it (loaded != 0: a walk's common path, which read it
 * first and did not take the record) passes it in h, having checked what
 * comes before the header; it is then not read again (single fetch). */

/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires loaded != 0 ==> t % 8 == 0 && 8 <= rp_dist(head, t) <= size &&
             h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             h.size == rp_hdr_size_at(data, off);
    assigns \nothing;

    behavior overrun:
      assumes rp_dist(head, t) > size;
      ensures \result.st == RP_E_OVERRUN;
    behavior tail_align:
      assumes rp_dist(head, t) <= size;
      assumes t % 8 != 0;
      ensures \result.st == RP_E_TAIL_ALIGN;
    behavior empty:
      assumes t % 8 == 0;
      assumes rp_dist(head, t) == 0;
      ensures \result.st == RP_EMPTY;
    behavior partial_header:
      assumes t % 8 == 0;
      assumes 0 < rp_dist(head, t) < 8;
      ensures \result.st == RP_E_TRUNCATED;
    behavior hdr_short:
      assumes t % 8 == 0;
      assumes 8 <= rp_dist(head, t) <= size;
      assumes rp_hdr_size_at(data, off) < 8;
      ensures \result.st == RP_E_HDR_SHORT;
    behavior hdr_align:
      assumes t % 8 == 0;
      assumes 8 <= rp_dist(head, t) <= size;
      assumes rp_hdr_size_at(data, off) >= 8;
      assumes rp_hdr_size_at(data, off) % 8 != 0;
      ensures \result.st == RP_E_HDR_ALIGN;
    behavior truncated:
      assumes t % 8 == 0;
      assumes 8 <= rp_dist(head, t) <= size;
      assumes rp_hdr_size_at(data, off) >= 8;
      assumes rp_hdr_size_at(data, off) % 8 == 0;
      assumes rp_hdr_size_at(data, off) > rp_dist(head, t);
      ensures \result.st == RP_E_TRUNCATED;
    behavior ok:
      assumes t % 8 == 0;
      assumes 8 <= rp_dist(head, t) <= size;
      assumes rp_hdr_size_at(data, off) >= 8;
      assumes rp_hdr_size_at(data, off) % 8 == 0;
      assumes rp_hdr_size_at(data, off) <= rp_dist(head, t);
      ensures \result.st == RP_OK;
      ensures \result.rec.pos == t;
      ensures \result.rec.size == rp_hdr_size_at(data, off);
      ensures \result.rec.type == rp_hdr_type_at(data, off);
      ensures \result.rec.misc == rp_hdr_misc_at(data, off);
      ensures rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
    complete behaviors;
    disjoint behaviors;
*/
static RP_HOT rp_ring_taken rp_ring_take(const uint8_t *data, uint64_t size, uint64_t head,
                                         uint64_t t, uint64_t off, int loaded, rp_header h)
{
	rp_ring_taken res = rp_ring_none(RP_OK, data, t);
	const uint64_t avail = rp_pos_dist(head, t);

	if (!loaded) {
		res.st = RP_E_OVERRUN;
		if (avail > size)
			return res;
		res.st = RP_E_TAIL_ALIGN;
		if (t % 8u != 0)
			return res;
		/* Nothing at or past head is read: an empty ring and a partial
		 * header are told apart by one test on the common path. */
		if (avail < 8u) {
			res.st = avail == 0 ? RP_EMPTY : RP_E_TRUNCATED;
			return res;
		}
		/* The header never straddles the ring end: 8-aligned offset,
		 * size % 8 == 0. */
		h = rp_load_header(data + off);
	}
	/*@ assert h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
	           h.size == rp_hdr_size_at(data, off); */

	res.st = RP_E_HDR_SHORT;
	if (h.size < 8u)
		return res;
	res.st = RP_E_HDR_ALIGN;
	if (h.size % 8u != 0)
		return res;
	res.st = RP_E_TRUNCATED;
	if (h.size > avail)
		return res;

	res.st = RP_OK;
	res.rec.type = h.type;
	res.rec.misc = h.misc;
	res.rec.size = h.size;
	res.rec.body = rp_slices_after(data, size, off, h.size - 8u);
	return res;
}

RP_HOT rp_status rp_ring_next(const rp_ring *ring, uint64_t head, uint64_t *tail,
                       rp_record *rec)
{
	const uint64_t t = *tail;
	const rp_header unread = { 0, 0, 0 };
	const rp_ring_taken k = rp_ring_take(ring->data, ring->size, head, t,
	                                     rp_pos_off(t, ring->size), 0, unread);

	if (k.st != RP_OK)
		return k.st;
	*rec = k.rec;
	*tail = rp_pos_add(t, k.rec.size);
	return RP_OK;
}

/* One step of rp_ring_drain's loop: rp_ring_take at *tail, then *tail and the
 * offset moved past the record.  Its contract holds only the facts the loop
 * needs, so that the loop's goals carry neither every behavior of the
 * decoder nor the modular arithmetic of the offset.  The new offset is
 * returned by value (no local of the loop has its address taken). */
typedef struct rp_ring_drain_stepped {
	rp_status st;
	uint64_t off; /* offset of the new *tail, on RP_OK */
} rp_ring_drain_stepped;

/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires \valid(tail) && \valid(rec);
    requires \separated(tail, rec);
    requires \separated(tail, data + (0 .. size - 1));
    requires \separated(rec, data + (0 .. size - 1));
    requires off == rp_off(*tail, size);
    assigns *tail, *rec;
    ensures step_status: \result.st == RP_OK || \result.st == RP_EMPTY || \result.st < 0;
    ensures step_stay: \result.st != RP_OK ==> *tail == \old(*tail);
    ensures step_empty: \result.st == RP_EMPTY ==> *tail == head;
    ensures step_pos: \result.st == RP_OK ==> rec->pos == \old(*tail);
    ensures step_size: \result.st == RP_OK ==>
              rec->size >= 8 && rec->size % 8 == 0 && rec->pos % 8 == 0 && *tail % 8 == 0;
    ensures step_adv: \result.st == RP_OK ==> rp_dist(*tail, \old(*tail)) == rec->size;
    ensures step_head: \result.st == RP_OK ==>
              rp_dist(head, *tail) == rp_dist(head, \old(*tail)) - rec->size;
    ensures step_body: \result.st == RP_OK ==>
              rp_body_in_ring(data, size, rp_off(\old(*tail), size), rec->size, rec->body);
    ensures step_off: \result.st == RP_OK ==> \result.off == rp_off(*tail, size);
*/
static RP_HOT rp_ring_drain_stepped rp_ring_drain_step(const uint8_t *data, uint64_t size,
                                                       uint64_t head, uint64_t *tail, uint64_t off,
                                                       rp_record *rec)
{
	rp_ring_drain_stepped out;
	const uint64_t t = *tail;
	const rp_header unread = { 0, 0, 0 };
	const rp_ring_taken k = rp_ring_take(data, size, head, t, off, 0, unread);

	out.st = k.st;
	out.off = off;
	if (out.st == RP_OK) {
		const rp_place next = rp_place_after(size, t, off, k.rec.size);
		*rec = k.rec;
		*tail = next.pos;
		out.off = next.off;
	}
	return out;
}

/* The batch loop.  It decodes straight into recs[n] and *tail (no local
 * whose address is taken: the prover then needs only the caller's stated
 * separation), and returns the status and count by value. */
typedef struct rp_drain_run {
	rp_status st;
	uint32_t n;
} rp_drain_run;

/*@ requires rp_ring_ok(ring);
    requires \valid(tail);
    requires \valid(recs + (0 .. max - 1));
    requires \separated(recs + (0 .. max - 1), tail);
    requires \separated(tail, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(recs + (0 .. max - 1), ring, ring->data + (0 .. ring->size - 1));
    assigns *tail, recs[0 .. max - 1];
    ensures \result.n <= max;
    ensures 8 * \result.n <= rp_dist(*tail, \old(*tail));
    ensures rp_dist(head, *tail) + rp_dist(*tail, \old(*tail)) == rp_dist(head, \old(*tail));
    ensures \result.n == 0 ==> *tail == \old(*tail);
    ensures \result.n > 0 ==> recs[0].pos == \old(*tail);
    ensures chain: \forall integer k; 0 <= k < \result.n - 1 ==>
              rp_dist(recs[k + 1].pos, recs[k].pos) == recs[k].size;
    ensures \result.n > 0 ==>
              rp_dist(*tail, recs[\result.n - 1].pos) == recs[\result.n - 1].size;
    ensures sizes: \forall integer k; 0 <= k < \result.n ==>
              recs[k].size >= 8 && recs[k].size % 8 == 0;
    ensures aligned: \forall integer k; 0 <= k < \result.n ==> recs[k].pos % 8 == 0;
    ensures bodies: \forall integer k; 0 <= k < \result.n ==>
              rp_body_in_ring(\old(ring->data), \old(ring->size),
                              rp_off(recs[k].pos, \old(ring->size)), recs[k].size, recs[k].body);
    ensures \result.st == RP_EMPTY ==> *tail == head;
    ensures \result.st == RP_MORE ==> \result.n == max && *tail != head;
    ensures \result.st == RP_EMPTY || \result.st == RP_MORE || \result.st < 0;
*/
static rp_drain_run rp_ring_drain_loop(const rp_ring *ring, uint64_t head,
                                       uint64_t *tail, rp_record *recs,
                                       uint32_t max)
{
	/* The ring fields in locals: stores to recs cannot change them, so they
	 * stay in registers.  The offset is carried from record to record. */
	const uint8_t *const data = ring->data;
	const uint64_t size = ring->size;
	uint64_t off = rp_pos_off(*tail, size);
	uint32_t n = 0;
	rp_status st = RP_EMPTY;

	/*@ loop invariant 0 <= n <= max;
	    loop invariant st == RP_EMPTY;
	    loop invariant off == rp_off(*tail, size);
	    loop invariant 8 * n <= rp_dist(*tail, \at(*tail, Pre));
	    loop invariant rp_dist(head, *tail) + rp_dist(*tail, \at(*tail, Pre)) ==
	                   rp_dist(head, \at(*tail, Pre));
	    loop invariant first: n == 0 ==> *tail == \at(*tail, Pre);
	    loop invariant n > 0 ==> recs[0].pos == \at(*tail, Pre);
	    loop invariant n > 0 ==> *tail % 8 == 0;
	    loop invariant last: n > 0 ==> rp_dist(*tail, recs[n - 1].pos) == recs[n - 1].size;
	    loop invariant chain: \forall integer k; 0 <= k < n - 1 ==>
	                     rp_dist(recs[k + 1].pos, recs[k].pos) == recs[k].size;
	    loop invariant sizes: \forall integer k; 0 <= k < n ==>
	                     recs[k].size >= 8 && recs[k].size % 8 == 0;
	    loop invariant aligned: \forall integer k; 0 <= k < n ==> recs[k].pos % 8 == 0;
	    loop invariant bodies: \forall integer k; 0 <= k < n ==>
	                     rp_body_in_ring(\at(ring->data, Pre), \at(ring->size, Pre),
	                                     rp_off(recs[k].pos, \at(ring->size, Pre)),
	                                     recs[k].size, recs[k].body);
	    loop assigns n, st, off, *tail, recs[0 .. max - 1];
	    loop variant max - n;
	*/
	while (n < max) {
		const rp_ring_drain_stepped r =
			rp_ring_drain_step(data, size, head, tail, off, recs + n);
		st = r.st;
		if (st != RP_OK)
			break;
		off = r.off;
		n++;
		st = RP_EMPTY;
	}
	if (st == RP_EMPTY && *tail != head)
		st = RP_MORE;

	rp_drain_run out;
	out.st = st;
	out.n = n;
	return out;
}

rp_status rp_ring_drain(const rp_ring *ring, uint64_t head, uint64_t *tail,
                        rp_record *recs, uint32_t max, uint32_t *count)
{
	const rp_drain_run run = rp_ring_drain_loop(ring, head, tail, recs, max);

	*count = run.n;
	return run.st;
}

/* The record at t, framed by rp_ring_take (every check; the header given
 * in h when loaded != 0, as there), then checked the way
 * rp_bpf_output_view checks it.  The raw size is one 4-byte load: the body
 * starts 8-aligned in a ring whose size is a multiple of 8, so it never
 * wraps.  s is the sample on RP_OK (meaningless otherwise). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires loaded != 0 ==> t % 8 == 0 && 8 <= rp_dist(head, t) <= size &&
             h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             h.size == rp_hdr_size_at(data, off);
    assigns \nothing;

    behavior bad:
      assumes !rp_frame_ok(data, size, head, t);
      ensures \result.st == RP_EMPTY || \result.st < 0;
      ensures \result.st == RP_EMPTY ==> t == head;
    behavior other:
      assumes rp_frame_ok(data, size, head, t);
      assumes !rp_is_bpf_output_at(data, size, off);
      ensures \result.st == RP_OTHER;
    behavior ok:
      assumes rp_frame_ok(data, size, head, t);
      assumes rp_is_bpf_output_at(data, size, off);
      ensures \result.st == RP_OK;
      ensures \result.s.pos == t;
      ensures \result.s.size == rp_hdr_size_at(data, off);
      ensures \result.s.raw_size == rp_raw_size_at(data, size, off);
      ensures rp_span_len(\result.s.data) == \result.s.raw_size;
      ensures rp_payload_in_ring(data, size, off, \result.s.data);
    complete behaviors;
    disjoint behaviors;
*/
static RP_HOT rp_bpf_taken rp_bpf_take(const uint8_t *data, uint64_t size, uint64_t head,
                                       uint64_t t, uint64_t off, int loaded, rp_header h)
{
	rp_bpf_taken res = rp_bpf_none(RP_OK, data, t);
	const rp_ring_taken k = rp_ring_take(data, size, head, t, off, loaded, h);
	const rp_record r = k.rec;

	res.st = k.st;
	if (res.st != RP_OK)
		return res;
	res.st = RP_OTHER;
	if (r.type != RP_RECORD_SAMPLE || r.size < 16u)
		return res;

	const uint64_t bo = off + 8u >= size ? 0 : off + 8u;
	const uint32_t raw = rp_load_u32(data + bo);
	//@ assert raw == rp_raw_size_at(data, size, off);

	if (raw > r.size - 12u)
		return res;

	const uint64_t start = bo + 4u;
	const uint64_t room = size - start;
	const uint32_t n0 = raw <= room ? raw : (uint32_t)room;

	res.st = RP_OK;
	res.s.size = r.size;
	res.s.raw_size = raw;
	res.s.data.p0 = data + start;
	res.s.data.n0 = n0;
	res.s.data.n1 = raw - n0;
	return res;
}


RP_COLD rp_bpf_stepped rp_bpf_step_cold(const uint8_t *data, uint64_t size, uint64_t head,
                                         uint64_t t, uint64_t off, int loaded, rp_header h)
{
	rp_bpf_stepped res;
	const rp_bpf_taken k = rp_bpf_take(data, size, head, t, off, loaded, h);

	res.st = k.st;
	res.s = k.s;
	res.t = t;
	res.off = off;
	res.room = 0;
	if (k.st == RP_OK) {
		const rp_place next = rp_place_after(size, t, off, k.s.size);
		res.t = next.pos;
		res.off = next.off;
		res.room = rp_room_at(size, head, next.pos, next.off);
	}
	return res;
}

RP_COLD rp_ring_stepped rp_ring_step_cold(const uint8_t *data, uint64_t size, uint64_t head,
                                          uint64_t t, uint64_t off, int loaded, rp_header h)
{
	rp_ring_stepped res;
	const rp_ring_taken k = rp_ring_take(data, size, head, t, off, loaded, h);

	res.st = k.st;
	res.rec = k.rec;
	res.t = t;
	res.off = off;
	res.room = 0;
	if (k.st == RP_OK) {
		const rp_place next = rp_place_after(size, t, off, k.rec.size);
		res.t = next.pos;
		res.off = next.off;
		res.room = rp_room_at(size, head, next.pos, next.off);
	}
	return res;
}
