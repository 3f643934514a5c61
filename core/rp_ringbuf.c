#include "rp_ringbuf.h"

RP_HOT rp_status rp_ringbuf_next(const rp_ring *ring, uint64_t producer,
                          uint64_t *consumer, rp_rb_record *rec)
{
	const uint64_t c = *consumer;
	const uint64_t avail = rp_pos_dist(producer, c);

	if (avail > ring->size)
		return RP_E_RB_OVERRUN;
	if (c % 8u != 0 || producer % 8u != 0)
		return RP_E_RB_ALIGN;
	if (avail == 0)
		return RP_EMPTY;

	const uint64_t off = rp_pos_off(c, ring->size);
	const uint32_t word = rp_load_u32(ring->data + off);
	//@ assert word == rp_rb_word(ring, rp_off(c, ring->size));
	if (word >= RP_RB_BUSY_BIT)
		return RP_BUSY;
	//@ assert rb_ready: !rp_rb_is_busy(rp_rb_word(ring, rp_off(c, ring->size)));
	const uint32_t len = word % RP_RB_DISCARD_BIT; /* bits 0-29 */
	//@ assert rb_len: len == rp_rb_len(rp_rb_word(ring, rp_off(c, ring->size)));
	const uint64_t total = ((uint64_t)len + 7u) / 8u * 8u + 8u;
	//@ assert rb_total: total == rp_rb_total(len);
	//@ assert rb_fits: len + 8 <= total;
	if (total > avail)
		return RP_E_RB_LEN;
	//@ assert rb_in: len + 8 <= ring->size;
	/* Division, not masks: the bit tests prove as arithmetic. */
	const bool discarded = (word / RP_RB_DISCARD_BIT) % 2u == 1u;
	//@ assert rb_d: discarded <==> rp_rb_is_discard(rp_rb_word(ring, rp_off(c, ring->size)));

	const rp_span d = rp_slices_after(ring->data, ring->size, off, len);
	//@ assert rb_span: rp_rb_data_in_ring(ring, off, len, d);

	rec->pos = c;
	rec->len = len;
	rec->size = (uint32_t)total;
	rec->discarded = discarded;
	rec->data = d;
	*consumer = rp_pos_add(c, total);
	return RP_OK;
}

rp_status rp_ringbuf_drain(const rp_ring *ring, uint64_t producer,
                           uint64_t *consumer, rp_rb_record *recs, uint32_t max,
                           uint32_t *count, uint64_t *discarded)
{
	/* Locals, so that the slice invariants need no frame reasoning. */
	const uint8_t *const base = ring->data;
	const uint64_t rsize = ring->size;
	uint64_t c = *consumer;
	uint32_t n = 0;
	uint64_t skipped = 0;
	rp_status st = RP_EMPTY;
	(void)base;
	(void)rsize;

	/*@ loop invariant base == ring->data && rsize == ring->size;
	    loop invariant 0 <= n <= max;
	    loop invariant 8 * (n + skipped) <= rp_dist(c, \at(*consumer, Pre));
	    loop invariant rp_dist(producer, c) + rp_dist(c, \at(*consumer, Pre)) ==
	                   rp_dist(producer, \at(*consumer, Pre));
	    loop invariant n + skipped > 0 ==> rp_dist(producer, \at(*consumer, Pre)) <= ring->size;
	    loop invariant rp_dist(c, \at(*consumer, Pre)) <= rp_dist(producer, \at(*consumer, Pre));
	    loop invariant n + skipped == 0 ==> c == \at(*consumer, Pre);
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     !recs[k].discarded && recs[k].pos % 8 == 0 &&
	                     recs[k].size == rp_rb_total(recs[k].len);
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     recs[k].data.p1 == base &&
	                     recs[k].data.n0 + recs[k].data.n1 == recs[k].len &&
	                     recs[k].data.n1 <= rp_off(recs[k].pos, rsize);
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     recs[k].data.p0 == base +
	                       rp_body_off(rp_off(recs[k].pos, rsize), rsize) &&
	                     recs[k].data.n0 <= rsize -
	                       rp_body_off(rp_off(recs[k].pos, rsize), rsize);
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     recs[k].data.n1 == 0 ||
	                     recs[k].data.n0 == rsize -
	                       rp_body_off(rp_off(recs[k].pos, rsize), rsize);
	    loop invariant st == RP_EMPTY;
	    loop assigns n, c, skipped, st, recs[0 .. max - 1];
	    loop variant rp_dist(producer, c);
	*/
	while (n < max) {
		rp_rb_record r;
		st = rp_ringbuf_next(ring, producer, &c, &r);
		if (st != RP_OK) {
			//@ assert rb_stop: st == RP_EMPTY ==> c == producer;
			break;
		}
		st = RP_EMPTY;
		if (r.discarded) {
			skipped++;
			continue;
		}
		recs[n].pos = r.pos;
		recs[n].len = r.len;
		recs[n].size = r.size;
		recs[n].discarded = r.discarded;
		recs[n].data.p0 = r.data.p0;
		recs[n].data.n0 = r.data.n0;
		recs[n].data.p1 = r.data.p1;
		recs[n].data.n1 = r.data.n1;
		n++;
	}
	if (st == RP_EMPTY && c != producer)
		st = RP_MORE;
	*consumer = c;
	*count = n;
	*discarded = skipped;
	return st;
}
