#include "rp_backward.h"

/*@ requires 8 <= size <= 4294967296 && size % 8 == 0;
    requires walked < size && walked % 8 == 0;
    assigns \nothing;
    ensures \result == rp_bw_off(head, walked, size);
    ensures \result % 8 == 0;
    ensures 0 <= \result && \result + 8 <= size;
*/
static uint64_t rp_bw_offset(uint64_t head, uint64_t walked, uint64_t size)
{
	const uint64_t h0 = rp_pos_off(head, size);
	return h0 + walked < size ? h0 + walked : h0 + walked - size;
}

/* Copy the len body bytes of the record whose header is at offset off:
 * from off + 8, wrapping at the ring end at most once (the same bytes, in
 * the same order, as the body span of the forward walk). */
/*@ requires 8 <= rsize <= 4294967296 && rsize % 8 == 0;
    requires off + 8 <= rsize;
    requires len + 8 <= rsize;
    requires \valid_read(data + (0 .. rsize - 1));
    requires \valid(dst + (0 .. len - 1));
    requires \separated(dst + (0 .. len - 1), data + (0 .. rsize - 1));
    assigns dst[0 .. len - 1];
    ensures bw_copied: \forall integer i; 0 <= i < len ==>
              dst[i] == data[rp_bw_wrap(off + 8 + i, rsize)];
*/
static void rp_bw_copy(const uint8_t *data, uint64_t rsize, uint64_t off,
                       uint32_t len, uint8_t *dst)
{
	/*@ loop invariant 0 <= i <= len;
	    loop invariant bw_done: \forall integer k; 0 <= k < i ==>
	                     dst[k] == data[rp_bw_wrap(off + 8 + k, rsize)];
	    loop assigns i, dst[0 .. len - 1];
	    loop variant len - i;
	*/
	for (uint32_t i = 0; i < len; i++) {
		const uint64_t x = off + 8u + i;
		const uint64_t at = x < rsize ? x : x - rsize;
		//@ assert bw_at: at == rp_bw_wrap(off + 8 + i, rsize);
		dst[i] = RP_LOAD_U8(data + at);
	}
}

rp_status rp_backward_next(const rp_ring *ring, uint64_t head, uint64_t *walked,
                           uint8_t *scratch, uint32_t cap, rp_record *rec)
{
	const uint64_t w = *walked;

	if (head % 8u != 0 || w % 8u != 0)
		return RP_E_BW_POS_ALIGN;
	if (w == ring->size)
		return RP_EMPTY;

	/* The header, read once into locals; the ring may change under us. */
	const uint8_t *const data = ring->data;
	const uint64_t rsize = ring->size;
	const uint64_t off = rp_bw_offset(head, w, rsize);
	const uint8_t *hdr = data + off;
	const rp_header h = rp_load_header(hdr);
	const uint32_t type = h.type;
	const uint16_t misc = h.misc;
	const uint16_t size = h.size;
	//@ assert bw_off: off == rp_bw_off(head, w, ring->size);
	//@ assert bw_hdr: size == rp_hdr_size(ring, off);
	//@ assert bw_named: size == rp_bw_size(ring, head, w);
	//@ assert bw_type: type == rp_hdr_type(ring, off);
	//@ assert bw_misc: misc == rp_hdr_misc(ring, off);

	if (size == 0)
		return RP_BW_END_ZERO;
	if (size < 8u)
		return RP_E_BW_HDR_SHORT;
	if (size % 8u != 0)
		return RP_E_BW_HDR_ALIGN;
	if (size > rsize - w)
		return RP_BW_END_OVERWRITTEN;
	const uint32_t body_len = (uint32_t)size - 8u;
	if (body_len > cap)
		return RP_E_BW_SCRATCH;

	rec->pos = rp_pos_add(head, w);
	rec->type = type;
	rec->misc = misc;
	rec->size = size;
	rec->body.p0 = scratch;
	rec->body.n0 = body_len;
	rec->body.p1 = scratch;
	rec->body.n1 = 0;
	*walked = w + size;
	rp_bw_copy(data, rsize, off, body_len, scratch);
	return RP_OK;
}

rp_status rp_backward_drain(const rp_ring *ring, uint64_t head, uint64_t *walked,
                            uint8_t *scratch, uint32_t cap, rp_record *recs,
                            uint32_t max, uint32_t *count)
{
	uint64_t w = *walked;
	uint32_t n = 0;
	uint32_t used = 0;
	rp_status st = RP_MORE;

	/*@ loop invariant 0 <= n <= max;
	    loop invariant 0 <= used <= cap;
	    loop invariant \at(*walked, Pre) <= w <= ring->size;
	    loop invariant 8 * n <= w - \at(*walked, Pre);
	    loop invariant n == 0 ==> w == \at(*walked, Pre);
	    loop invariant sizes8: \forall integer k; 0 <= k < n ==> recs[k].size >= 8;
	    loop invariant sizes_al: \forall integer k; 0 <= k < n ==> recs[k].size % 8 == 0;
	    loop invariant n0s: \forall integer k; 0 <= k < n ==> recs[k].body.n0 == recs[k].size - 8;
	    loop invariant n1s: \forall integer k; 0 <= k < n ==> recs[k].body.n1 == 0;
	    loop invariant p1s: \forall integer k; 0 <= k < n ==> recs[k].body.p1 == recs[k].body.p0;
	    loop invariant lo: \forall integer k; 0 <= k < n ==> scratch <= recs[k].body.p0;
	    loop invariant same: \forall integer k; 0 <= k < n ==>
	                     \base_addr(recs[k].body.p0) == \base_addr(scratch);
	    loop invariant hi: \forall integer k; 0 <= k < n ==>
	                     recs[k].body.p0 + recs[k].body.n0 <= scratch + used;
	    loop invariant st == RP_MORE;
	    loop assigns n, w, used, st, recs[0 .. max - 1], scratch[0 .. cap - 1];
	    loop variant max - n;
	*/
	while (n < max) {
		rp_record r;
		st = rp_backward_next(ring, head, &w, scratch + used, cap - used, &r);
		if (st != RP_OK)
			break;
		//@ assert step_p0: r.body.p0 == scratch + used;
		//@ assert step_n0: r.body.n0 == r.size - 8 && r.size - 8 <= cap - used;
		recs[n].pos = r.pos;
		recs[n].type = r.type;
		recs[n].misc = r.misc;
		recs[n].size = r.size;
		recs[n].body.p0 = r.body.p0;
		recs[n].body.n0 = r.body.n0;
		recs[n].body.p1 = r.body.p1;
		recs[n].body.n1 = r.body.n1;
		used += r.body.n0;
		n++;
		st = RP_MORE;
	}
	if (st == RP_E_BW_SCRATCH && n > 0)
		st = RP_MORE;
	*walked = w;
	*count = n;
	return st;
}
