/* The inline definitions of rp_ringbuf.h (RP_INLINE) are proved here. */
#define RP_DEFINE_RINGBUF
#include "rp_ringbuf.h"

/* The record whose header is at position c, given its offset off = c mod
 * size (by division in rp_ringbuf_next; carried from record to record in
 * the drain, as the perf walk does).  The record goes back by value, with
 * the status (no memory written: rec is the record on RP_OK and meaningless
 * otherwise).  The len word is loaded once; a caller that has already
 * loaded it (loaded != 0: the walk's common path, which read it and did not
 * take the record) passes it in word, having checked the positions, and it
 * is not read again (single fetch). */

/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(c, size);
    requires loaded != 0 ==> c % 8 == 0 && producer % 8 == 0 &&
             8 <= rp_dist(producer, c) <= size && word == rp_rb_word_at(data, off);
    assigns \nothing;

    behavior overrun:
      assumes rp_dist(producer, c) > size;
      ensures \result.st == RP_E_RB_OVERRUN;
    behavior misaligned:
      assumes rp_dist(producer, c) <= size;
      assumes c % 8 != 0 || producer % 8 != 0;
      ensures \result.st == RP_E_RB_ALIGN;
    behavior empty:
      assumes c % 8 == 0 && producer % 8 == 0;
      assumes rp_dist(producer, c) == 0;
      ensures \result.st == RP_EMPTY;
    behavior busy:
      assumes c % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, c) <= size;
      assumes rp_rb_is_busy(rp_rb_word_at(data, off));
      ensures \result.st == RP_BUSY;
    behavior bad_len:
      assumes c % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, c) <= size;
      assumes !rp_rb_is_busy(rp_rb_word_at(data, off));
      assumes rp_rb_total(rp_rb_len(rp_rb_word_at(data, off))) > rp_dist(producer, c);
      ensures \result.st == RP_E_RB_LEN;
    behavior ok:
      assumes c % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, c) <= size;
      assumes !rp_rb_is_busy(rp_rb_word_at(data, off));
      assumes rp_rb_total(rp_rb_len(rp_rb_word_at(data, off))) <= rp_dist(producer, c);
      ensures \result.st == RP_OK;
      ensures \result.rec.pos == c;
      ensures \result.rec.len == rp_rb_len(rp_rb_word_at(data, off));
      ensures \result.rec.size == rp_rb_total(\result.rec.len);
      ensures \result.rec.discarded <==> rp_rb_is_discard(rp_rb_word_at(data, off));
      ensures rp_slices_in_ring(data, size, off, \result.rec.len, \result.rec.data);
    complete behaviors;
    disjoint behaviors;
*/
static RP_HOT rp_rb_taken rp_rb_take(const uint8_t *data, uint64_t size, uint64_t producer,
                                     uint64_t c, uint64_t off, int loaded, uint32_t word)
{
	rp_rb_taken res = rp_rb_none(RP_OK, data, c);
	const uint64_t avail = rp_pos_dist(producer, c);

	if (!loaded) {
		res.st = RP_E_RB_OVERRUN;
		if (avail > size)
			return res;
		res.st = RP_E_RB_ALIGN;
		if (c % 8u != 0 || producer % 8u != 0)
			return res;
		res.st = RP_EMPTY;
		if (avail == 0)
			return res;
		word = rp_load_u32(data + off);
	}
	//@ assert word == rp_rb_word_at(data, off);
	res.st = RP_BUSY;
	if (word >= RP_RB_BUSY_BIT)
		return res;
	const uint32_t len = word % RP_RB_DISCARD_BIT; /* bits 0-29 */
	//@ assert rb_len: len == rp_rb_len(rp_rb_word_at(data, off));
	const uint64_t total = rp_rb_total_of(len);
	//@ assert rb_total: total == rp_rb_total(len);
	res.st = RP_E_RB_LEN;
	if (total > avail)
		return res;
	//@ assert rb_in: len + 8 <= size;

	res.st = RP_OK;
	res.rec.len = len;
	res.rec.size = (uint32_t)total;
	/* Arithmetic, not masks, so that it proves: len is word mod 2^30
	 * above, and below RP_RB_BUSY_BIT bit 30 is set iff word >= 2^30. */
	res.rec.discarded = word >= RP_RB_DISCARD_BIT;
	res.rec.data = rp_slices_after(data, size, off, len);
	return res;
}

RP_HOT rp_status rp_ringbuf_next(const rp_ring *ring, uint64_t producer,
                          uint64_t *consumer, rp_rb_record *rec)
{
	const uint64_t c = *consumer;
	const rp_rb_taken k = rp_rb_take(ring->data, ring->size, producer, c,
	                                 rp_pos_off(c, ring->size), 0, 0);

	if (k.st != RP_OK)
		return k.st;
	*rec = k.rec;
	*consumer = rp_pos_add(c, k.rec.size);
	return RP_OK;
}

RP_COLD rp_rb_stepped rp_rb_step_cold(const uint8_t *data, uint64_t size, uint64_t producer,
                                      uint64_t c, uint64_t off, int loaded, uint32_t word)
{
	rp_rb_stepped res;
	const rp_rb_taken k = rp_rb_take(data, size, producer, c, off, loaded, word);

	res.st = k.st;
	res.rec = k.rec;
	res.c = c;
	res.off = off;
	res.room = 0;
	if (k.st == RP_OK) {
		const rp_place next = rp_place_after(size, c, off, k.rec.size);
		res.c = next.pos;
		res.off = next.off;
		res.room = rp_rb_room_at(size, producer, next.pos, next.off);
	}
	return res;
}

rp_status rp_ringbuf_drain(const rp_ring *ring, uint64_t producer,
                           uint64_t *consumer, rp_rb_record *recs, uint32_t max,
                           uint32_t *count, uint64_t *discarded)
{
	/* Locals, so that the slice invariants need no frame reasoning. */
	const uint8_t *const base = ring->data;
	const uint64_t rsize = ring->size;
	uint64_t c = *consumer;
	uint64_t off = rp_pos_off(c, rsize);
	uint64_t room = rp_rb_room_at(rsize, producer, c, off);
	uint32_t n = 0;
	uint64_t skipped = 0;
	rp_status st = RP_EMPTY;

	/*@ loop invariant base == ring->data && rsize == ring->size;
	    loop invariant 0 <= n <= max;
	    loop invariant off == rp_off(c, rsize);
	    loop invariant room: rp_rb_room_ok(rsize, producer, c, off, room);
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
	    loop assigns n, c, off, room, skipped, st, recs[0 .. max - 1];
	    loop variant rp_dist(producer, c);
	*/
	while (n < max) {
		const rp_rb_stepped k = rp_rb_step(base, rsize, producer, c, off, room);
		const rp_rb_record r = k.rec;
		st = k.st;
		if (st != RP_OK) {
			//@ assert rb_stop: st == RP_EMPTY ==> c == producer;
			break;
		}
		c = k.c;
		off = k.off;
		room = k.room;
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
