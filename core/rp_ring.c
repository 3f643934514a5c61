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
    ensures rp_dist(\result, t) == n;
    ensures \result % 8 == 0 || t % 8 != 0 || n % 8 != 0;
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

	if (size < 8u)
		return RP_E_HDR_SHORT;
	if (size % 8u != 0)
		return RP_E_HDR_ALIGN;
	if (size > avail)
		return RP_E_TRUNCATED;

	const uint64_t body_off = off + 8u == ring->size ? 0 : off + 8u;
	const uint32_t body_len = (uint32_t)size - 8u;
	const uint64_t room = ring->size - body_off;
	const uint32_t n0 = body_len <= room ? body_len : (uint32_t)room;

	rec->pos = t;
	rec->type = type;
	rec->misc = misc;
	rec->size = size;
	rec->body.p0 = ring->data + body_off;
	rec->body.n0 = n0;
	rec->body.p1 = ring->data;
	rec->body.n1 = body_len - n0;
	*tail = rp_ring_advance(t, size);
	return RP_OK;
}

rp_status rp_ring_drain(const rp_ring *ring, uint64_t head, uint64_t *tail,
                        rp_record *recs, uint32_t max, uint32_t *count)
{
	uint64_t t = *tail;
	uint32_t n = 0;
	rp_status st = RP_EMPTY;

	/*@ loop invariant 0 <= n <= max;
	    loop invariant 8 * n <= rp_dist(t, \at(*tail, Pre));
	    loop invariant rp_dist(head, t) + rp_dist(t, \at(*tail, Pre)) ==
	                   rp_dist(head, \at(*tail, Pre));
	    loop invariant n == 0 ==> t == \at(*tail, Pre);
	    loop invariant n > 0 ==> recs[0].pos == \at(*tail, Pre);
	    loop invariant n > 0 ==> t % 8 == 0;
	    loop invariant \forall integer k; 0 <= k < n - 1 ==>
	                     rp_dist(recs[k + 1].pos, recs[k].pos) == recs[k].size;
	    loop invariant n > 0 ==> rp_dist(t, recs[n - 1].pos) == recs[n - 1].size;
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     recs[k].size >= 8 && recs[k].size % 8 == 0 && recs[k].pos % 8 == 0;
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     rp_body_in_ring(ring, rp_off(recs[k].pos, ring->size),
	                                     recs[k].size, recs[k].body);
	    loop assigns n, t, st, recs[0 .. max - 1];
	    loop variant max - n;
	*/
	while (n < max) {
		rp_record r;
		st = rp_ring_next(ring, head, &t, &r);
		if (st != RP_OK)
			break;
		recs[n].pos = r.pos;
		recs[n].type = r.type;
		recs[n].misc = r.misc;
		recs[n].size = r.size;
		recs[n].body.p0 = r.body.p0;
		recs[n].body.n0 = r.body.n0;
		recs[n].body.p1 = r.body.p1;
		recs[n].body.n1 = r.body.n1;
		n++;
		st = RP_EMPTY;
	}
	if (st == RP_EMPTY && t != head)
		st = RP_MORE;
	*tail = t;
	*count = n;
	return st;
}
