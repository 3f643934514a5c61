/* The inline definitions of rp_ringbuf.h (RP_INLINE) are proved here. */
#define RP_DEFINE_RINGBUF
#include "rp_ringbuf.h"

/* The record whose header is at position c, given its offset off = c mod
 * size (by division in rp_ringbuf_next; carried from record to record by
 * the iterator, as the perf walk does).  The record goes back by value, with
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
