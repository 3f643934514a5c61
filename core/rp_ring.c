#include "rp_ring.h"

RP_HOT rp_status rp_ring_next(const rp_ring *ring, uint64_t head, uint64_t *tail,
                       rp_record *rec)
{
	const uint64_t t = *tail;
	const uint64_t avail = rp_pos_dist(head, t);

	if (avail > ring->size)
		return RP_E_OVERRUN;
	if (t % 8u != 0)
		return RP_E_TAIL_ALIGN;
	if (avail == 0)
		return RP_EMPTY;
	if (avail < 8u)
		return RP_E_TRUNCATED;

	/* The header never straddles the ring end: 8-aligned offset, size % 8 == 0.
	 * It is read once, with one 8-byte load, and checked in registers. */
	const uint64_t off = rp_pos_off(t, ring->size);
	const rp_header h = rp_load_header(ring->data + off);
	/*@ assert h.type == rp_hdr_type(ring, off) && h.misc == rp_hdr_misc(ring, off) &&
	           h.size == rp_hdr_size(ring, off); */

	if (h.size < 8u)
		return RP_E_HDR_SHORT;
	if (h.size % 8u != 0)
		return RP_E_HDR_ALIGN;
	if (h.size > avail)
		return RP_E_TRUNCATED;

	const rp_span body = rp_slices_after(ring->data, ring->size, off, h.size - 8u);

	rec->pos = t;
	rec->type = h.type;
	rec->misc = h.misc;
	rec->size = h.size;
	rec->body.p0 = body.p0;
	rec->body.n0 = body.n0;
	rec->body.p1 = body.p1;
	rec->body.n1 = body.n1;
	*tail = rp_pos_add(t, h.size);
	return RP_OK;
}

/* rp_ring_next seen from the batch loop: only the facts the loop needs, so
 * that the loop's goals do not carry every behavior of the decoder. */
/*@ requires rp_ring_ok(ring);
    requires \valid(tail) && \valid(rec);
    requires \separated(tail, rec);
    requires \separated(tail, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(rec, ring, ring->data + (0 .. ring->size - 1));
    assigns *tail, *rec;
    ensures step_status: \result == RP_OK || \result == RP_EMPTY || \result < 0;
    ensures step_stay: \result != RP_OK ==> *tail == \old(*tail);
    ensures step_empty: \result == RP_EMPTY ==> *tail == head;
    ensures step_pos: \result == RP_OK ==> rec->pos == \old(*tail);
    ensures step_size: \result == RP_OK ==>
              rec->size >= 8 && rec->size % 8 == 0 && rec->pos % 8 == 0 && *tail % 8 == 0;
    ensures step_adv: \result == RP_OK ==> rp_dist(*tail, \old(*tail)) == rec->size;
    ensures step_head: \result == RP_OK ==>
              rp_dist(head, *tail) == rp_dist(head, \old(*tail)) - rec->size;
    ensures step_body: \result == RP_OK ==>
              rp_body_in_ring(\old(ring->data), \old(ring->size),
                              rp_off(\old(*tail), \old(ring->size)), rec->size, rec->body);
*/
static rp_status rp_ring_step(const rp_ring *ring, uint64_t head,
                              uint64_t *tail, rp_record *rec)
{
	return rp_ring_next(ring, head, tail, rec);
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
	uint32_t n = 0;
	rp_status st = RP_EMPTY;

	/*@ loop invariant 0 <= n <= max;
	    loop invariant st == RP_EMPTY;
	    loop invariant 8 * n <= rp_dist(*tail, \at(*tail, Pre));
	    loop invariant rp_dist(head, *tail) + rp_dist(*tail, \at(*tail, Pre)) ==
	                   rp_dist(head, \at(*tail, Pre));
	    loop invariant n == 0 ==> *tail == \at(*tail, Pre);
	    loop invariant n > 0 ==> recs[0].pos == \at(*tail, Pre);
	    loop invariant n > 0 ==> *tail % 8 == 0;
	    loop invariant n > 0 ==> rp_dist(*tail, recs[n - 1].pos) == recs[n - 1].size;
	    loop invariant chain: \forall integer k; 0 <= k < n - 1 ==>
	                     rp_dist(recs[k + 1].pos, recs[k].pos) == recs[k].size;
	    loop invariant sizes: \forall integer k; 0 <= k < n ==>
	                     recs[k].size >= 8 && recs[k].size % 8 == 0;
	    loop invariant aligned: \forall integer k; 0 <= k < n ==> recs[k].pos % 8 == 0;
	    loop invariant bodies: \forall integer k; 0 <= k < n ==>
	                     rp_body_in_ring(\at(ring->data, Pre), \at(ring->size, Pre),
	                                     rp_off(recs[k].pos, \at(ring->size, Pre)),
	                                     recs[k].size, recs[k].body);
	    loop assigns n, st, *tail, recs[0 .. max - 1];
	    loop variant max - n;
	*/
	while (n < max) {
		st = rp_ring_step(ring, head, tail, recs + n);
		if (st != RP_OK)
			break;
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
