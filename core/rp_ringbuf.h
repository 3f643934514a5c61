/* The BPF ring buffer walk (BPF_MAP_TYPE_RINGBUF; docs/abi.md).
 *
 * The ring is the data area only: size bytes at data, one copy.  The kernel
 * maps the data area twice in a row so that a record is contiguous in
 * memory, but this code does not rely on it: a payload is returned as an
 * rp_span that may wrap the end of the first copy (the adapter may merge
 * the two slices because of the double mapping; the core never reads past
 * data + size - 1).
 *
 * consumer and producer are the kernel's free-running u64 byte positions.
 * The adapter acquire-loads producer_pos, passes it in, and release-stores
 * the consumer position this code returns.  Each 8-byte header holds
 * u32 len (bits 0-29 payload length, bit 30 DISCARD, bit 31 BUSY) and a
 * kernel-internal u32 that is never read.  A record occupies
 * round_up(len + 8, 8) bytes.  Safety needs only 8 <= size <= 2^32 and
 * size % 8 == 0; the power-of-two rule is the adapter's.
 *
 * Single fetch: the len word is loaded once into a local and every check
 * and result is derived from that local.  The payload is not read here.
 *
 * Proved (core/rp_ringbuf.c): reads stay in the ring; BUSY stops without
 * moving; the length is bits 0-29 of the header word and a record occupies
 * round_up(len + 8, 8) bytes, never more than producer - consumer; DISCARD
 * records are consumed and returned flagged (rec.discarded), never as
 * payloads; the payload span lies in the ring (the double mapping is not
 * relied on); the iterator's step (rp_rb_iter) returns the record at its
 * position and moves past it, or leaves the iterator unchanged.
 * Tested, not proved: the kernel's ring buffer layout (ringbuf-integration:
 * round trips with discards, conservation), the ringbuf fuzz harness (the
 * iterator in batches, as the adapter's batch walks, against a reference
 * walk; the hinted step against the plain one; rp_ringbuf_next against the
 * iterator).
 */
#ifndef RP_RINGBUF_H
#define RP_RINGBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_ring.h"
#include "rp_span.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The len word's flags (include/uapi/linux/bpf.h): BPF_RINGBUF_BUSY_BIT
 * (1U << 31) and BPF_RINGBUF_DISCARD_BIT (1U << 30); the length is the 30
 * bits below them (RP_RB_LEN_MASK).  The C code and the contracts
 * (rp_rb_busy_bit, rp_rb_discard_bit) both take the values from here.  The
 * core tests the bits with >=, / and %, not masks: those prove as
 * arithmetic. */
#define RP_RB_BUSY_BIT 0x80000000u
#define RP_RB_DISCARD_BIT 0x40000000u
#define RP_RB_LEN_MASK 0x3fffffffu

/* One record, borrowed from the ring. */
typedef struct rp_rb_record {
	uint64_t pos;   /* consumer position of the header */
	uint32_t len;   /* payload length (header bits 0-29) */
	uint32_t size;  /* bytes it occupies: round_up(len + 8, 8) */
	bool discarded; /* DISCARD set: consumed, must not be delivered */
	rp_span data;   /* the len payload bytes; may wrap */
} rp_rb_record;

/*@
  logic integer rp_rb_word_at(uint8_t *d, integer o) =
    rp_le32(d[o], d[o + 1], d[o + 2], d[o + 3]);
  logic integer rp_rb_word(rp_ring *r, integer o) = rp_rb_word_at(r->data, o);
  // BPF_RINGBUF_BUSY_BIT (2^31) and BPF_RINGBUF_DISCARD_BIT (2^30) of a
  // len word w (0 <= w < 2^32); its length is w mod 2^30, bits 0-29.
  logic integer rp_rb_busy_bit = RP_RB_BUSY_BIT;
  logic integer rp_rb_discard_bit = RP_RB_DISCARD_BIT;
  logic integer rp_rb_len(integer w) = w % rp_rb_discard_bit;
  predicate rp_rb_is_busy(integer w) = w >= rp_rb_busy_bit;
  predicate rp_rb_is_discard(integer w) = (w / rp_rb_discard_bit) % 2 == 1;
  // r is the record whose len word is w: committed, its length and its
  // DISCARD bit.
  predicate rp_rb_record_of(rp_rb_record r, integer w) =
    !rp_rb_is_busy(w) && r.len == rp_rb_len(w) && (r.discarded <==> rp_rb_is_discard(w));
  logic integer rp_rb_total(integer len) = ((len + 7) / 8) * 8 + 8;

  // The len payload bytes of the record whose header is at offset o.
  predicate rp_rb_data_in_ring(rp_ring *r, integer o, integer len, rp_span b) =
    rp_slices_in_ring(r->data, r->size, o, len, b);

  // A step of the consumer from c0 to c1 over the record rec (rp_ringbuf_next
  // on RP_OK): rec was at c0, c1 is 8-aligned and rec->size further, still
  // behind the producer; rec's payload is in the ring after its header.
  predicate rp_rb_stepped(rp_ring *ring, integer producer, integer c0, integer c1,
                          rp_rb_record *rec) =
    rec->pos == c0 && c1 % 8 == 0 && rec->size >= 8 &&
    rec->size == rp_rb_total(rec->len) &&
    rp_dist(producer, c0) <= ring->size &&
    rp_dist(c1, c0) == rec->size &&
    rp_dist(producer, c1) == rp_dist(producer, c0) - rec->size &&
    rec->data.p1 == ring->data &&
    rec->data.n0 + rec->data.n1 == rec->len &&
    rec->data.n1 <= rp_off(rec->pos, ring->size) &&
    rec->data.p0 == ring->data + rp_body_off(rp_off(rec->pos, ring->size), ring->size) &&
    rec->data.n0 <= ring->size - rp_body_off(rp_off(rec->pos, ring->size), ring->size) &&
    (rec->data.n1 == 0 ||
     rec->data.n0 == ring->size - rp_body_off(rp_off(rec->pos, ring->size), ring->size));
*/

/* Decode the record at *consumer.
 *
 * RP_OK: *rec is the record, *consumer advanced by rec->size.  A record with
 *        rec->discarded set was consumed but must not be delivered.
 * RP_EMPTY: *consumer == producer.
 * RP_BUSY: the producer reserved the next record but has not committed it;
 *          nothing moved (later records wait behind it).
 * Errors: RP_E_RB_OVERRUN (producer - consumer > size), RP_E_RB_ALIGN (a
 * position not 8-aligned; with both aligned, producer - consumer is 0 or at
 * least 8), RP_E_RB_LEN (the rounded record reaches past producer: a
 * corrupt length).
 * On RP_EMPTY, RP_BUSY and errors neither *consumer nor *rec is written. */
/*@ requires rp_ring_ok(ring);
    requires \valid(consumer) && \valid(rec);
    requires \separated(consumer, rec);
    requires \separated(consumer, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(rec, ring, ring->data + (0 .. ring->size - 1));
    assigns *consumer, *rec;

    // Summaries for callers: what every behavior implies.
    ensures rb_keep: \result != RP_OK ==> *consumer == \old(*consumer);
    ensures rb_empty: \result == RP_EMPTY ==> producer == \old(*consumer);
    ensures rb_codes: \result == RP_OK || \result == RP_EMPTY || \result == RP_BUSY || \result < 0;
    ensures rb_step: \result == RP_OK ==>
              rp_rb_stepped(ring, producer, \old(*consumer), *consumer, rec);

    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(*consumer % 8 == 0 && producer % 8 == 0 &&
                8 <= rp_dist(producer, *consumer) <= ring->size &&
                !rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size))) &&
                rp_rb_total(rp_rb_len(rp_rb_word(ring, rp_off(*consumer, ring->size))))
                  <= rp_dist(producer, *consumer));
      assigns \nothing;
    behavior overrun:
      assumes rp_dist(producer, *consumer) > ring->size;
      ensures \result == RP_E_RB_OVERRUN;
    behavior misaligned:
      assumes rp_dist(producer, *consumer) <= ring->size;
      assumes *consumer % 8 != 0 || producer % 8 != 0;
      ensures \result == RP_E_RB_ALIGN;
    behavior empty:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes rp_dist(producer, *consumer) == 0;
      ensures \result == RP_EMPTY;
    behavior busy:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, *consumer) <= ring->size;
      assumes rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size)));
      ensures \result == RP_BUSY;
    behavior bad_len:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, *consumer) <= ring->size;
      assumes !rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size)));
      assumes rp_rb_total(rp_rb_len(rp_rb_word(ring, rp_off(*consumer, ring->size))))
                > rp_dist(producer, *consumer);
      ensures \result == RP_E_RB_LEN;
    behavior ok:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, *consumer) <= ring->size;
      assumes !rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size)));
      assumes rp_rb_total(rp_rb_len(rp_rb_word(ring, rp_off(*consumer, ring->size))))
                <= rp_dist(producer, *consumer);
      ensures \result == RP_OK;
      ensures rec->pos == \old(*consumer);
      ensures rec->len == rp_rb_len(rp_rb_word(ring, rp_off(\old(*consumer), ring->size)));
      ensures rec->size == rp_rb_total(rec->len);
      ensures rb_disc: rec->discarded <==>
                rp_rb_is_discard(rp_rb_word(ring, rp_off(\old(*consumer), ring->size)));
      ensures rb_data: rp_rb_data_in_ring(ring, rp_off(\old(*consumer), ring->size), rec->len, rec->data);
      ensures *consumer % 8 == 0;
      ensures rp_dist(*consumer, \old(*consumer)) == rec->size;
      ensures rp_dist(producer, *consumer) == rp_dist(producer, \old(*consumer)) - rec->size;
    complete behaviors overrun, misaligned, empty, busy, bad_len, ok;
    disjoint behaviors overrun, misaligned, empty, busy, bad_len, ok;
*/
rp_status rp_ringbuf_next(const rp_ring *ring, uint64_t producer,
                          uint64_t *consumer, rp_rb_record *rec);

/* ---- the walk's step (inline) and its iterator ----------------------------
 * As the perf walk's iterator (rp_ring.h): the walk carries a room, the
 * bytes from the consumer position that are published, before the ring end
 * and before 2^64, measured where the checks only the first record of a run
 * can fail (positions aligned, producer no more than a ring ahead) passed.
 * A record inside it needs only its own len word checked and its payload is
 * one slice (rp_rb_take_within); anything else goes to the full decoder,
 * out of line (rp_rb_step_cold), given the word when the common path read
 * it.  The iterator (rp_rb_iter) takes the step one record per call. */

/* A record by value, with the status: rec is meaningful on RP_OK only. */
typedef struct rp_rb_taken {
	rp_status st;
	rp_rb_record rec;
} rp_rb_taken;

/*@
  // The walk's room: the perf walk's (rp_room_ok), with producer 8-aligned
  // too, which the full decoder also checks (RP_E_RB_ALIGN).
  predicate rp_rb_room_ok(integer size, integer p, integer c, integer off, integer room) =
    rp_room_ok(size, p, c, off, room) && (room == 0 || p % 8 == 0);
*/

/* Status st and the empty record at c (no length, no payload): where both
 * takes start. */
/*@ assigns \nothing;
    ensures \result.st == st && \result.rec.pos == c && !\result.rec.discarded;
    ensures \result.rec.data.p0 == data && \result.rec.data.n0 == 0;
    ensures \result.rec.data.p1 == data && \result.rec.data.n1 == 0;
*/
RP_INLINE rp_rb_taken rp_rb_none(rp_status st, const uint8_t *data, uint64_t c);

/* The bytes a record of len payload bytes occupies: its 8-byte header and
 * the payload rounded up to 8 (the kernel's round_up(len + 8, 8)).  One
 * copy for every walk and for the user ring's producer.  Written with 15,
 * not as round_up(len, 8) + 8: one add fewer on the chain from one len word
 * to the next (each record's position depends on the one before). */
/*@ assigns \nothing;
    ensures rb_total_of: \result == rp_rb_total(len);
*/
RP_INLINE uint64_t rp_rb_total_of(uint32_t len);

/* The room at c (0 where the first record's checks do not pass). */
/*@ requires rp_ring_size_ok(size);
    requires off == rp_off(c, size);
    assigns \nothing;
    ensures rb_room_ok: rp_rb_room_ok(size, producer, c, off, \result);
*/
RP_INLINE uint64_t rp_rb_room_at(uint64_t size, uint64_t producer, uint64_t c, uint64_t off);

/* The record at off, whose len word the caller loaded, when it ends by
 * limit (off + the room): RP_BUSY (not committed), RP_OK (the record; its
 * payload is one slice), or RP_MORE (it does not end by limit: not decided
 * here).  A limit, not a room: the record's end, off + size, is then both
 * the test and the next record's offset (one add, where a room took a
 * subtraction more per record). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off + 8 <= limit < size;
    requires word == rp_rb_word_at(data, off);
    assigns \nothing;
    ensures rbw_status: \result.st == RP_OK || \result.st == RP_BUSY || \result.st == RP_MORE;
    ensures rbw_busy: \result.st == RP_BUSY <==> rp_rb_is_busy(word);
    ensures rbw_more: \result.st == RP_MORE ==> off + rp_rb_total(rp_rb_len(word)) > limit;
    ensures rbw_ok: \result.st == RP_OK ==>
              \result.rec.pos == c && \result.rec.len == rp_rb_len(word) &&
              \result.rec.size == rp_rb_total(\result.rec.len) &&
              off + \result.rec.size <= limit &&
              (\result.rec.discarded <==> rp_rb_is_discard(word)) &&
              rp_slices_in_ring(data, size, off, \result.rec.len, \result.rec.data);
*/
RP_INLINE rp_rb_taken rp_rb_take_within(const uint8_t *data, uint64_t size, uint64_t c,
                                        uint64_t off, uint64_t limit, uint32_t word);

/* rp_rb_take_within of the loaded word, computed from hint where the two
 * are equal: the record's size and the next offset then come from a value
 * the caller had before the load, so that they do not wait for it (see
 * rp_rb_iter_next_hint).  The contract is rp_rb_take_within's, for word. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off + 8 <= limit < size;
    requires word == rp_rb_word_at(data, off);
    assigns \nothing;
    ensures rbt_status: \result.st == RP_OK || \result.st == RP_BUSY || \result.st == RP_MORE;
    ensures rbt_busy: \result.st == RP_BUSY <==> rp_rb_is_busy(word);
    ensures rbt_more: \result.st == RP_MORE ==> off + rp_rb_total(rp_rb_len(word)) > limit;
    ensures rbt_ok: \result.st == RP_OK ==>
              \result.rec.pos == c && \result.rec.len == rp_rb_len(word) &&
              \result.rec.size == rp_rb_total(\result.rec.len) &&
              off + \result.rec.size <= limit &&
              (\result.rec.discarded <==> rp_rb_is_discard(word)) &&
              rp_slices_in_ring(data, size, off, \result.rec.len, \result.rec.data);
*/
RP_INLINE rp_rb_taken rp_rb_take_hinted(const uint8_t *data, uint64_t size, uint64_t c,
                                        uint64_t off, uint64_t limit, uint32_t word,
                                        uint32_t hint);

/* What a step returns: the record, and the place and room after it. */
typedef struct rp_rb_stepped {
	rp_status st;
	uint64_t c;       /* the position after the record, on RP_OK */
	uint64_t off;     /* its offset, on RP_OK */
	uint64_t room;    /* the room from it, on RP_OK */
	rp_rb_record rec; /* on RP_OK (discarded ones too) */
} rp_rb_stepped;

/* Everything the common path does not take: the record at c by the full
 * decoder (rp_ringbuf_next's checks; the word given when loaded != 0), the
 * place moved past it, the room measured afresh.  Out of line. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(c, size);
    requires loaded != 0 ==> c % 8 == 0 && producer % 8 == 0 &&
             8 <= rp_dist(producer, c) <= size && word == rp_rb_word_at(data, off);
    assigns \nothing;
    ensures rbc_codes: \result.st == RP_OK || \result.st == RP_EMPTY || \result.st == RP_BUSY ||
              \result.st < 0;
    ensures rbc_empty: \result.st == RP_EMPTY ==> producer == c;
    ensures rbc_step: \result.st == RP_OK ==>
              \result.rec.pos == c && \result.rec.pos % 8 == 0 && \result.rec.size >= 8 &&
              \result.rec.size == rp_rb_total(\result.rec.len) &&
              rp_dist(producer, c) <= size &&
              rp_dist(\result.c, c) == \result.rec.size &&
              rp_dist(producer, \result.c) == rp_dist(producer, c) - \result.rec.size &&
              \result.off == rp_off(\result.c, size);
    ensures rbc_data: \result.st == RP_OK ==>
              rp_slices_in_ring(data, size, rp_off(\result.rec.pos, size), \result.rec.len,
                                \result.rec.data);
    ensures rbc_room: \result.st == RP_OK ==>
              rp_rb_room_ok(size, producer, \result.c, \result.off, \result.room);
    ensures rbc_word: \result.st == RP_OK ==> rp_rb_record_of(\result.rec, rp_rb_word_at(data, off));
    ensures rbc_busy: \result.st == RP_BUSY ==> rp_rb_is_busy(rp_rb_word_at(data, off));
*/
RP_COLD rp_rb_stepped rp_rb_step_cold(const uint8_t *data, uint64_t size, uint64_t producer,
                                      uint64_t c, uint64_t off, int loaded, uint32_t word);

/* rp_rb_iter: the walk one record at a time, for a loop that handles each
 * record as it is decoded (the adapter's walks).  It hands out discarded
 * records too, as rp_ringbuf_next does (rec.discarded set: consumed, not
 * to be delivered).
 *
 *   rp_rb_iter it;
 *   rp_rb_record rec;
 *   rp_status st;
 *   rp_rb_iter_init(&it, &ring, producer, consumer);
 *   while ((st = rp_rb_iter_next(&it, &rec)) == RP_OK)
 *           if (!rec.discarded)
 *                   use(rec.data);        // borrowed
 *   consumer = rp_rb_iter_consumer(&it);  // RP_EMPTY, RP_BUSY, or rp_ringbuf_next's error
 *
 * A record on the common path moves one field, the offset: the position is
 * base + off, and base changes only where the full decoder took a record
 * (at the ring end, at the first record of a run).  The common path may
 * take records up to limit, and loads a len word only where off != limit
 * (limit - off is a multiple of 8, so that is a whole header). */
typedef struct rp_rb_iter {
	const uint8_t *data; /* the ring, as rp_ring */
	uint64_t size;
	uint64_t producer;   /* where the walk ends */
	uint64_t base;       /* the position at offset 0 of this lap: position = base + off */
	uint64_t off;        /* the next record's offset */
	uint64_t limit;      /* off + the room the common path may take (rp_rb_room_ok), down to 8 */
} rp_rb_iter;

/*@
  // The next record's position: the one to publish as consumer_pos.
  logic integer rp_rb_iter_pos(rp_rb_iter *it) = it->base + it->off;

  // One step of the iterator: the record r taken at from, the walk now at
  // to.  Named, so that it is one goal per path of rp_rb_iter_next rather
  // than one per clause (see proofs/README.md).
  predicate rp_rb_iter_moved(rp_rb_record r, integer from, integer to, integer producer) =
    r.pos == from && r.pos % 8 == 0 && r.size == rp_rb_total(r.len) &&
    rp_dist(to, r.pos) == r.size &&
    rp_dist(producer, to) == rp_dist(producer, r.pos) - r.size;

  predicate rp_rb_iter_ok(rp_rb_iter *it) =
    \valid(it) && rp_ring_size_ok(it->size) &&
    \valid_read(it->data + (0 .. it->size - 1)) &&
    \separated(it, it->data + (0 .. it->size - 1)) &&
    rp_rb_iter_pos(it) < RP_U64_MOD &&
    it->off == rp_off(rp_rb_iter_pos(it), it->size) &&
    it->off <= it->limit && (it->limit - it->off) % 8 == 0 &&
    rp_rb_room_ok(it->size, it->producer, rp_rb_iter_pos(it), it->off, it->limit - it->off);
*/

/* Start a walk of [consumer, producer) of ring (one division). */
/*@ requires rp_ring_ok(ring);
    requires \valid(it);
    requires \separated(it, ring);
    requires \separated(it, ring->data + (0 .. ring->size - 1));
    assigns *it;
    ensures rb_init_ok: rp_rb_iter_ok(it);
    ensures rb_init_at: it->data == ring->data && it->size == ring->size &&
              it->producer == producer && rp_rb_iter_pos(it) == consumer;
*/
RP_INLINE void rp_rb_iter_init(rp_rb_iter *it, const rp_ring *ring, uint64_t producer,
                               uint64_t consumer);

/* The position of the next record: where the walk stands, the consumer
 * position to publish. */
/*@ requires rp_rb_iter_ok(it);
    assigns \nothing;
    ensures rb_consumer: \result == rp_rb_iter_pos(it);
*/
RP_INLINE uint64_t rp_rb_iter_consumer(const rp_rb_iter *it);

/* The record at the iterator's position into *rec, and the position moved
 * past it: RP_OK (rec->discarded may be set).  Otherwise nothing moves and
 * the status is rp_ringbuf_next's: RP_EMPTY, RP_BUSY or an error. */
/*@ requires rp_rb_iter_ok(it);
    requires \valid(rec);
    requires \separated(rec, it);
    requires \separated(rec, it->data + (0 .. it->size - 1));
    assigns it->base, it->off, it->limit, *rec;
    ensures rb_next_ok: rp_rb_iter_ok(it);
    ensures rb_next_status: \result == RP_OK || \result == RP_EMPTY || \result == RP_BUSY ||
              \result < 0;
    ensures rb_next_stay: \result != RP_OK ==> rp_rb_iter_pos(it) == \old(rp_rb_iter_pos(it));
    ensures rb_next_empty: \result == RP_EMPTY ==> rp_rb_iter_pos(it) == it->producer;
    ensures rb_next_step: \result == RP_OK ==>
              rp_rb_iter_moved(*rec, \old(rp_rb_iter_pos(it)), rp_rb_iter_pos(it), it->producer);
    ensures rb_next_data: \result == RP_OK ==>
              rp_slices_in_ring(it->data, it->size, rp_off(rec->pos, it->size), rec->len,
                                rec->data);
    ensures rb_next_word: \result == RP_OK ==>
              rp_rb_record_of(*rec, rp_rb_word_at(it->data, \old(it->off)));
    ensures rb_next_busy: \result == RP_BUSY ==> rp_rb_is_busy(rp_rb_word_at(it->data, it->off));
*/
RP_INLINE rp_status rp_rb_iter_next(rp_rb_iter *it, rp_rb_record *rec);

/* rp_rb_iter_next, given hint, the len word the caller expects at the
 * iterator's position (a batch passes the last record's: records of one
 * size come in runs).  The hint changes the speed only, never the result.
 * Where the loaded word equals the hint, the record is decoded from the
 * hint (rp_rb_take_hinted), so that the next offset does not wait for the
 * load: the chain from one record to the next is then one add, not a load,
 * a mask, a round and an add (about 9 cycles), and the loads of a batch's
 * len words overlap.
 * Proved, whatever hint is: rp_rb_iter_next's contract, and in it that the
 * record handed out is the one whose len word is at the position (rbh_word)
 * and that RP_BUSY means that word is not committed (rbh_busy).  Tested:
 * every status, iterator and record equal to the unhinted step's, byte for
 * byte (tests/ringbuf, rb_iter_hint; the ringbuf fuzz harness). */
/*@ requires rp_rb_iter_ok(it);
    requires \valid(rec);
    requires \separated(rec, it);
    requires \separated(rec, it->data + (0 .. it->size - 1));
    assigns it->base, it->off, it->limit, *rec;
    ensures rbh_ok: rp_rb_iter_ok(it);
    ensures rbh_status: \result == RP_OK || \result == RP_EMPTY || \result == RP_BUSY ||
              \result < 0;
    ensures rbh_stay: \result != RP_OK ==> rp_rb_iter_pos(it) == \old(rp_rb_iter_pos(it));
    ensures rbh_empty: \result == RP_EMPTY ==> rp_rb_iter_pos(it) == it->producer;
    ensures rbh_step: \result == RP_OK ==>
              rp_rb_iter_moved(*rec, \old(rp_rb_iter_pos(it)), rp_rb_iter_pos(it), it->producer);
    ensures rbh_data: \result == RP_OK ==>
              rp_slices_in_ring(it->data, it->size, rp_off(rec->pos, it->size), rec->len,
                                rec->data);
    ensures rbh_word: \result == RP_OK ==>
              rp_rb_record_of(*rec, rp_rb_word_at(it->data, \old(it->off)));
    ensures rbh_busy: \result == RP_BUSY ==> rp_rb_is_busy(rp_rb_word_at(it->data, it->off));
*/
RP_INLINE rp_status rp_rb_iter_next_hint(rp_rb_iter *it, rp_rb_record *rec, uint32_t hint);

/* ---- definitions (see RP_INLINE in rp_prim.h) ----------------------------- */
#if !defined(__FRAMAC__) || defined(RP_DEFINE_RINGBUF)
RP_INLINE rp_rb_taken rp_rb_none(rp_status st, const uint8_t *data, uint64_t c)
{
	rp_rb_taken res;
	res.st = st;
	res.rec.pos = c;
	res.rec.len = 0;
	res.rec.size = 0;
	res.rec.discarded = false;
	res.rec.data.p0 = data;
	res.rec.data.n0 = 0;
	res.rec.data.p1 = data;
	res.rec.data.n1 = 0;
	return res;
}

RP_INLINE uint64_t rp_rb_total_of(uint32_t len)
{
	return ((uint64_t)len + 15u) / 8u * 8u;
}

RP_INLINE uint64_t rp_rb_room_at(uint64_t size, uint64_t producer, uint64_t c, uint64_t off)
{
	return producer % 8u != 0 ? 0 : rp_room_at(size, producer, c, off);
}

RP_INLINE rp_rb_taken rp_rb_take_within(const uint8_t *data, uint64_t size, uint64_t c,
                                        uint64_t off, uint64_t limit, uint32_t word)
{
	rp_rb_taken res = rp_rb_none(RP_BUSY, data, c);

	(void)size; /* the contract's: limit < size bounds the payload */
	if (word >= RP_RB_BUSY_BIT)
		return res;
	const uint32_t len = word % RP_RB_DISCARD_BIT; /* bits 0-29 */
	const uint64_t total = rp_rb_total_of(len);
	res.st = RP_MORE;
	if (off + total > limit)
		return res;

	res.st = RP_OK;
	res.rec.len = len;
	res.rec.size = (uint32_t)total;
	/* As rp_rb_take's: below RP_RB_BUSY_BIT, bit 30 is set iff
	 * word >= 2^30 (one compare that the caller's branch fuses with). */
	res.rec.discarded = word >= RP_RB_DISCARD_BIT;
	res.rec.data.p0 = data + off + 8u;
	res.rec.data.n0 = len;
	return res;
}

RP_INLINE rp_rb_taken rp_rb_take_hinted(const uint8_t *data, uint64_t size, uint64_t c,
                                        uint64_t off, uint64_t limit, uint32_t word,
                                        uint32_t hint)
{
	/* Two calls, not one of (word == hint ? hint : word), which gcc 12
	 * folds into word (clang 14 keeps the two calls' paths: checked in
	 * both compilers' code of the adapter's batch walk).  hint <
	 * RP_RB_BUSY_BIT first: a constant hint with the BUSY bit
	 * (rp_rb_iter_next's) folds the branch away. */
	if (hint < RP_RB_BUSY_BIT && word == hint)
		return rp_rb_take_within(data, size, c, off, limit, hint);
	return rp_rb_take_within(data, size, c, off, limit, word);
}

RP_INLINE void rp_rb_iter_init(rp_rb_iter *it, const rp_ring *ring, uint64_t producer,
                               uint64_t consumer)
{
	const uint64_t off = rp_pos_off(consumer, ring->size);
	const uint64_t room = rp_rb_room_at(ring->size, producer, consumer, off);

	it->data = ring->data;
	it->size = ring->size;
	it->producer = producer;
	it->base = consumer - off;
	it->off = off;
	it->limit = off + room / 8u * 8u;
}

RP_INLINE uint64_t rp_rb_iter_consumer(const rp_rb_iter *it)
{
	return it->base + it->off;
}

/* The common path reads the fields where it uses them: in a loop that keeps
 * the iterator in memory (the adapter's, around a callback) the position
 * base + off is then computed only off the common path. */
RP_INLINE rp_status rp_rb_iter_next_hint(rp_rb_iter *it, rp_rb_record *rec, uint32_t hint)
{
	const uint64_t off = it->off;
	uint32_t word = 0;
	int loaded = 0;

	if (off != it->limit) {
		word = rp_load_u32(it->data + off);
		loaded = 1;
		const rp_rb_taken k = rp_rb_take_hinted(it->data, it->size, it->base + off, off,
		                                        it->limit, word, hint);
		if (k.st == RP_OK) {
			const rp_place next = rp_place_within(it->size, it->base + off, off, k.rec.size);
			*rec = k.rec;
			it->off = next.off;
		}
		if (k.st != RP_MORE)
			return k.st;
	}
	const rp_rb_stepped cold = rp_rb_step_cold(it->data, it->size, it->producer,
	                                           it->base + off, off, loaded, word);
	if (cold.st == RP_OK) {
		*rec = cold.rec;
		it->base = cold.c - cold.off;
		it->off = cold.off;
		it->limit = cold.off + cold.room / 8u * 8u;
	}
	return cold.st;
}

/* The iterator's step with no hint: RP_RB_BUSY_BIT, which the hinted step
 * never decodes from (the compiled code is the step without a hint). */
RP_INLINE rp_status rp_rb_iter_next(rp_rb_iter *it, rp_rb_record *rec)
{
	return rp_rb_iter_next_hint(it, rec, RP_RB_BUSY_BIT);
}
#endif

#ifdef __cplusplus
}
#endif

#endif
