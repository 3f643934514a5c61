#include "rp_ringbuf.h"

/* producer - consumer on the u64 circle, with no overflowing step. */
/*@ assigns \nothing;
    ensures \result == rp_dist(h, t);
*/
static uint64_t rp_rb_dist(uint64_t h, uint64_t t)
{
	return h >= t ? h - t : (UINT64_MAX - t) + h + 1u;
}

/*@ requires n <= 4294967296;
    assigns \nothing;
    ensures rp_dist(\result, t) == n;
    ensures \result % 8 == 0 || t % 8 != 0 || n % 8 != 0;
*/
static uint64_t rp_rb_advance(uint64_t t, uint64_t n)
{
	return UINT64_MAX - t >= n ? t + n : n - (UINT64_MAX - t) - 1u;
}

/*@ requires 8 <= size <= 4294967296 && size % 8 == 0;
    assigns \nothing;
    ensures \result == rp_off(pos, size);
    ensures \result % 8 == 0;
    ensures 0 <= \result && \result + 8 <= size;
*/
static uint64_t rp_rb_offset(uint64_t pos, uint64_t size)
{
	return 8u * ((pos / 8u) % (size / 8u));
}

/* The len word, composed in host byte order from single byte loads. */
/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures \result == rp_le32(p[0], p[1], p[2], p[3]);
*/
static uint32_t rp_rb_load32(const uint8_t *p)
{
	const uint8_t b0 = RP_LOAD_U8(p);
	const uint8_t b1 = RP_LOAD_U8(p + 1);
	const uint8_t b2 = RP_LOAD_U8(p + 2);
	const uint8_t b3 = RP_LOAD_U8(p + 3);
#if RP_BIG_ENDIAN
	return (uint32_t)(b3 + 256u * b2) + 65536u * (uint32_t)(b1 + 256u * b0);
#else
	return (uint32_t)(b0 + 256u * b1) + 65536u * (uint32_t)(b2 + 256u * b3);
#endif
}

rp_status rp_ringbuf_next(const rp_ring *ring, uint64_t producer,
                          uint64_t *consumer, rp_rb_record *rec)
{
	const uint64_t c = *consumer;
	const uint64_t avail = rp_rb_dist(producer, c);

	if (avail > ring->size)
		return RP_E_RB_OVERRUN;
	if (c % 8u != 0 || producer % 8u != 0)
		return RP_E_RB_ALIGN;
	if (avail == 0)
		return RP_EMPTY;

	const uint64_t off = rp_rb_offset(c, ring->size);
	/* Division, not masks: the bit tests prove as arithmetic. */
	const uint32_t word = rp_rb_load32(ring->data + off);
	//@ assert word == rp_rb_word(ring, rp_off(c, ring->size));
	if (word >= 2147483648u)
		return RP_BUSY;
	//@ assert !rp_rb_is_busy(rp_rb_word(ring, rp_off(c, ring->size)));
	const uint32_t len = word % 1073741824u;
	//@ assert len == rp_rb_len(rp_rb_word(ring, rp_off(c, ring->size)));
	const uint64_t total = ((uint64_t)len + 7u) / 8u * 8u + 8u;
	//@ assert rb_total: total == rp_rb_total(len);
	//@ assert rb_fits: len + 8 <= total;
	if (total > avail)
		return RP_E_RB_LEN;
	//@ assert rb_in: len + 8 <= ring->size;
	const bool discarded = (word / 1073741824u) % 2u == 1u;
	//@ assert rb_d: discarded <==> rp_rb_is_discard(rp_rb_word(ring, rp_off(c, ring->size)));

	const uint64_t data_off = off + 8u >= ring->size ? 0 : off + 8u;
	const uint64_t room = ring->size - data_off;
	rp_span d;
	d.p0 = ring->data + data_off;
	d.n0 = len <= room ? len : (uint32_t)room;
	d.p1 = ring->data;
	d.n1 = len - d.n0;
	//@ assert rb_span: rp_rb_data_in_ring(ring, off, len, d);

	rec->pos = c;
	rec->len = len;
	rec->size = (uint32_t)total;
	rec->discarded = discarded;
	rec->data = d;
	*consumer = rp_rb_advance(c, total);
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
	                       rp_rb_data_off(rp_off(recs[k].pos, rsize), rsize) &&
	                     recs[k].data.n0 <= rsize -
	                       rp_rb_data_off(rp_off(recs[k].pos, rsize), rsize);
	    loop invariant \forall integer k; 0 <= k < n ==>
	                     recs[k].data.n1 == 0 ||
	                     recs[k].data.n0 == rsize -
	                       rp_rb_data_off(rp_off(recs[k].pos, rsize), rsize);
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
