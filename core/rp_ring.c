#include "rp_ring.h"

/* h - t on the u64 circle, written so that no step overflows. */
/*@ assigns \nothing;
    ensures \result == rp_dist(h, t);
*/
static uint64_t rp_ring_dist(uint64_t h, uint64_t t)
{
	return h >= t ? h - t : (UINT64_MAX - t) + h + 1u;
}

/* t + n on the u64 circle. */
/*@ requires n <= 4294967296;
    assigns \nothing;
    ensures \result == (t + n <= 18446744073709551615 ? t + n : t + n - 18446744073709551616);
*/
static uint64_t rp_ring_advance(uint64_t t, uint64_t n)
{
	return UINT64_MAX - t >= n ? t + n : n - (UINT64_MAX - t) - 1u;
}

/* Division, not a mask: the size need not be a power of two here, and the
 * prover handles / and % by constants far better than bitwise and. */
/*@ requires 8 <= size <= 4294967296 && size % 8 == 0;
    assigns \nothing;
    ensures \result == rp_off(pos, size);
    ensures \result % 8 == 0;
    ensures 0 <= \result && \result + 8 <= size;
*/
static uint64_t rp_ring_offset(uint64_t pos, uint64_t size)
{
	return 8u * ((pos / 8u) % (size / 8u));
}

/*@ requires \valid_read(p + (0 .. 1));
    assigns \nothing;
    ensures \result == rp_le16(p[0], p[1]);
*/
static uint16_t rp_load16(const uint8_t *p)
{
#if RP_BIG_ENDIAN
	return (uint16_t)(RP_LOAD_U8(p + 1) + 256u * RP_LOAD_U8(p));
#else
	return (uint16_t)(RP_LOAD_U8(p) + 256u * RP_LOAD_U8(p + 1));
#endif
}

/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures \result == rp_le32(p[0], p[1], p[2], p[3]);
*/
static uint32_t rp_load32(const uint8_t *p)
{
#if RP_BIG_ENDIAN
	return (uint32_t)rp_load16(p + 2) + 65536u * rp_load16(p);
#else
	return (uint32_t)rp_load16(p) + 65536u * rp_load16(p + 2);
#endif
}

/* The body of a record of the given size whose header is at offset off:
 * from off + 8 (0 if the header ends the ring), wrapping at most once. */
/*@ requires 8 <= rsize <= 4294967296 && rsize % 8 == 0;
    requires off % 8 == 0 && off + 8 <= rsize;
    requires 8 <= size <= rsize && size % 8 == 0;
    requires \valid_read(data + (0 .. rsize - 1));
    assigns \nothing;
    ensures \result.p0 == data + rp_body_off(off, rsize);
    ensures \result.p1 == data;
    ensures \result.n0 <= rsize - rp_body_off(off, rsize);
    ensures \result.n1 == 0 || \result.n0 == rsize - rp_body_off(off, rsize);
    ensures \result.n1 == 0 || \result.n1 <= off;
    ensures \result.n0 + \result.n1 == size - 8;
    ensures \valid_read(\result.p0 + (0 .. \result.n0 - 1));
    ensures \valid_read(\result.p1 + (0 .. \result.n1 - 1));
    ensures rp_body_in_ring(data, rsize, off, size, \result);
*/
static rp_span rp_ring_body(const uint8_t *data, uint64_t rsize, uint64_t off,
                            uint32_t size)
{
	const uint64_t body_off = off + 8u == rsize ? 0 : off + 8u;
	const uint32_t body_len = size - 8u;
	const uint64_t room = rsize - body_off;
	const uint32_t n0 = body_len <= room ? body_len : (uint32_t)room;
	rp_span b;

	b.p0 = data + body_off;
	b.n0 = n0;
	b.p1 = data;
	b.n1 = body_len - n0;
	return b;
}

rp_status rp_ring_next(const rp_ring *ring, uint64_t head, uint64_t *tail,
                       rp_record *rec)
{
	const uint64_t t = *tail;
	const uint64_t avail = rp_ring_dist(head, t);

	if (avail > ring->size)
		return RP_E_OVERRUN;
	if (t % 8u != 0)
		return RP_E_TAIL_ALIGN;
	if (avail == 0)
		return RP_EMPTY;
	if (avail < 8u)
		return RP_E_TRUNCATED;

	/* The header never straddles the ring end: 8-aligned offset, size % 8 == 0. */
	const uint64_t off = rp_ring_offset(t, ring->size);
	const uint8_t *hdr = ring->data + off;
	const uint32_t type = rp_load32(hdr);
	const uint16_t misc = rp_load16(hdr + 4);
	const uint16_t size = rp_load16(hdr + 6);
	/*@ assert type == rp_hdr_type(ring, off) && misc == rp_hdr_misc(ring, off) &&
	           size == rp_hdr_size(ring, off); */

	if (size < 8u)
		return RP_E_HDR_SHORT;
	if (size % 8u != 0)
		return RP_E_HDR_ALIGN;
	if (size > avail)
		return RP_E_TRUNCATED;

	const rp_span body = rp_ring_body(ring->data, ring->size, off, size);

	rec->pos = t;
	rec->type = type;
	rec->misc = misc;
	rec->size = size;
	rec->body.p0 = body.p0;
	rec->body.n0 = body.n0;
	rec->body.p1 = body.p1;
	rec->body.n1 = body.n1;
	*tail = rp_ring_advance(t, size);
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
