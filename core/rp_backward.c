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

/* The header walked bytes after head, checked: the status and, on RP_OK,
 * the header and its offset, by value (no memory written: rp_backward_next
 * then writes the record and the copy once, on RP_OK).  The header is read
 * once, with one 8-byte load; the ring may change under us. */
typedef struct rp_bw_taken {
	rp_status st;
	uint64_t off;
	rp_header h;
} rp_bw_taken;

/*@ requires 8 <= rsize <= 4294967296 && rsize % 8 == 0;
    requires \valid_read(data + (0 .. rsize - 1));
    requires w <= rsize;
    assigns \nothing;
    // For the caller: what RP_OK implies (so that it needs no case analysis).
    ensures bw_taken: \result.st == RP_OK ==>
              w < rsize && \result.off == rp_bw_off(head, w, rsize) && \result.off + 8 <= rsize &&
              \result.h.size == rp_bw_size_at(data, rsize, head, w) &&
              \result.h.size >= 8 && \result.h.size % 8 == 0 &&
              w + \result.h.size <= rsize && \result.h.size - 8 <= cap;

    behavior misaligned:
      assumes head % 8 != 0 || w % 8 != 0;
      ensures \result.st == RP_E_BW_POS_ALIGN;
    behavior full:
      assumes head % 8 == 0 && w % 8 == 0;
      assumes w == rsize;
      ensures \result.st == RP_EMPTY;
    behavior zero:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes rp_bw_size_at(data, rsize, head, w) == 0;
      ensures \result.st == RP_BW_END_ZERO;
    behavior hdr_short:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes 0 < rp_bw_size_at(data, rsize, head, w) < 8;
      ensures \result.st == RP_E_BW_HDR_SHORT;
    behavior hdr_align:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes rp_bw_size_at(data, rsize, head, w) >= 8;
      assumes rp_bw_size_at(data, rsize, head, w) % 8 != 0;
      ensures \result.st == RP_E_BW_HDR_ALIGN;
    behavior overwritten:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes rp_bw_size_at(data, rsize, head, w) >= 8;
      assumes rp_bw_size_at(data, rsize, head, w) % 8 == 0;
      assumes w + rp_bw_size_at(data, rsize, head, w) > rsize;
      ensures \result.st == RP_BW_END_OVERWRITTEN;
    behavior scratch_small:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes rp_bw_size_at(data, rsize, head, w) >= 8;
      assumes rp_bw_size_at(data, rsize, head, w) % 8 == 0;
      assumes w + rp_bw_size_at(data, rsize, head, w) <= rsize;
      assumes rp_bw_size_at(data, rsize, head, w) - 8 > cap;
      ensures \result.st == RP_E_BW_SCRATCH;
    behavior ok:
      assumes head % 8 == 0 && w % 8 == 0 && w < rsize;
      assumes rp_bw_size_at(data, rsize, head, w) >= 8;
      assumes rp_bw_size_at(data, rsize, head, w) % 8 == 0;
      assumes w + rp_bw_size_at(data, rsize, head, w) <= rsize;
      assumes rp_bw_size_at(data, rsize, head, w) - 8 <= cap;
      ensures \result.st == RP_OK;
      ensures \result.off == rp_bw_off(head, w, rsize);
      ensures \result.off + 8 <= rsize;
      ensures \result.h.size == rp_bw_size_at(data, rsize, head, w);
      ensures \result.h.type == rp_hdr_type_at(data, \result.off);
      ensures \result.h.misc == rp_hdr_misc_at(data, \result.off);
    complete behaviors;
    disjoint behaviors;
*/
static rp_bw_taken rp_bw_take(const uint8_t *data, uint64_t rsize, uint64_t head, uint64_t w,
                              uint32_t cap)
{
	rp_bw_taken res;

	res.off = 0;
	res.h.type = 0;
	res.h.misc = 0;
	res.h.size = 0;
	res.st = RP_E_BW_POS_ALIGN;
	if (head % 8u != 0 || w % 8u != 0)
		return res;
	res.st = RP_EMPTY;
	if (w == rsize)
		return res;

	res.off = rp_bw_offset(head, w, rsize);
	res.h = rp_load_header(data + res.off);
	//@ assert bw_hdr: res.h.size == rp_bw_size_at(data, rsize, head, w);

	const uint16_t size = res.h.size;
	if (size == 0)
		res.st = RP_BW_END_ZERO;
	else if (size < 8u)
		res.st = RP_E_BW_HDR_SHORT;
	else if (size % 8u != 0)
		res.st = RP_E_BW_HDR_ALIGN;
	else if (size > rsize - w)
		res.st = RP_BW_END_OVERWRITTEN;
	else if ((uint32_t)size - 8u > cap)
		res.st = RP_E_BW_SCRATCH;
	else
		res.st = RP_OK;
	return res;
}

rp_status rp_backward_next(const rp_ring *ring, uint64_t head, uint64_t *walked,
                           uint8_t *scratch, uint32_t cap, rp_record *rec)
{
	const uint64_t w = *walked;
	const rp_bw_taken k = rp_bw_take(ring->data, ring->size, head, w, cap);

	if (k.st != RP_OK)
		return k.st;
	const uint32_t body_len = (uint32_t)k.h.size - 8u;
	rec->pos = rp_pos_add(head, w);
	rec->type = k.h.type;
	rec->misc = k.h.misc;
	rec->size = k.h.size;
	rec->body.p0 = scratch;
	rec->body.n0 = body_len;
	rec->body.p1 = scratch;
	rec->body.n1 = 0;
	*walked = w + k.h.size;
	rp_bw_copy(ring->data, ring->size, k.off, body_len, scratch);
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
