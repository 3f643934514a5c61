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
 * records are consumed and never returned; the payload span lies in the
 * ring (the double mapping is not relied on); the drain terminates and
 * moves consumer only forward by the records it consumed.
 * Tested, not proved: the kernel's ring buffer layout (ringbuf-integration:
 * round trips with discards, conservation), the ringbuf fuzz harness.
 */
#ifndef RP_RINGBUF_H
#define RP_RINGBUF_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_ring.h"
#include "rp_span.h"
#include "rp_status.h"

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
  logic integer rp_rb_total(integer len) = ((len + 7) / 8) * 8 + 8;

  // The len payload bytes of the record whose header is at offset o.
  predicate rp_rb_data_in_ring(rp_ring *r, integer o, integer len, rp_span b) =
    rp_slices_in_ring(r->data, r->size, o, len, b);
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

    // Summaries for callers (the batch loop): what every behavior implies.
    ensures rb_keep: \result != RP_OK ==> *consumer == \old(*consumer);
    ensures rb_empty: \result == RP_EMPTY ==> producer == \old(*consumer);
    ensures rb_codes: \result == RP_OK || \result == RP_EMPTY || \result == RP_BUSY || \result < 0;
    ensures rb_step: \result == RP_OK ==>
              rec->pos == \old(*consumer) && *consumer % 8 == 0 && rec->size >= 8 &&
              rec->size == rp_rb_total(rec->len) &&
              rp_dist(producer, \old(*consumer)) <= ring->size &&
              rp_dist(*consumer, \old(*consumer)) == rec->size &&
              rp_dist(producer, *consumer) == rp_dist(producer, \old(*consumer)) - rec->size &&
              rec->data.p1 == ring->data &&
              rec->data.n0 + rec->data.n1 == rec->len &&
              rec->data.n1 <= rp_off(rec->pos, ring->size) &&
              rec->data.p0 == ring->data + rp_body_off(rp_off(rec->pos, ring->size), ring->size) &&
              rec->data.n0 <= ring->size - rp_body_off(rp_off(rec->pos, ring->size), ring->size) &&
              (rec->data.n1 == 0 ||
               rec->data.n0 == ring->size - rp_body_off(rp_off(rec->pos, ring->size), ring->size));

    behavior overrun:
      assumes rp_dist(producer, *consumer) > ring->size;
      assigns \nothing;
      ensures \result == RP_E_RB_OVERRUN;
    behavior misaligned:
      assumes rp_dist(producer, *consumer) <= ring->size;
      assumes *consumer % 8 != 0 || producer % 8 != 0;
      assigns \nothing;
      ensures \result == RP_E_RB_ALIGN;
    behavior empty:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes rp_dist(producer, *consumer) == 0;
      assigns \nothing;
      ensures \result == RP_EMPTY;
    behavior busy:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, *consumer) <= ring->size;
      assumes rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size)));
      assigns \nothing;
      ensures \result == RP_BUSY;
    behavior bad_len:
      assumes *consumer % 8 == 0 && producer % 8 == 0;
      assumes 8 <= rp_dist(producer, *consumer) <= ring->size;
      assumes !rp_rb_is_busy(rp_rb_word(ring, rp_off(*consumer, ring->size)));
      assumes rp_rb_total(rp_rb_len(rp_rb_word(ring, rp_off(*consumer, ring->size))))
                > rp_dist(producer, *consumer);
      assigns \nothing;
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
    complete behaviors;
    disjoint behaviors;
*/
rp_status rp_ringbuf_next(const rp_ring *ring, uint64_t producer,
                          uint64_t *consumer, rp_rb_record *rec);

/* Decode records from *consumer into recs[0 .. *count - 1], skipping (but
 * consuming) discarded ones, whose number goes to *discarded.
 *
 * Returns the stop reason: RP_EMPTY (*consumer reached producer), RP_MORE
 * (recs is full and bytes remain), RP_BUSY (the next record is not
 * committed), or the error rp_ringbuf_next gave at the returned *consumer.
 * *consumer ends after the last record consumed (delivered or discarded).
 * At most (producer - consumer) / 8 steps: every record is >= 8 bytes. */
/*@ requires rp_ring_ok(ring);
    requires \valid(consumer) && \valid(count) && \valid(discarded);
    requires \valid(recs + (0 .. max - 1));
    requires \separated(consumer, count, discarded);
    requires \separated(recs + (0 .. max - 1), consumer, count, discarded);
    requires \separated(consumer, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(count, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(discarded, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(recs + (0 .. max - 1), ring, ring->data + (0 .. ring->size - 1));
    assigns *consumer, *count, *discarded, recs[0 .. max - 1];

    ensures *count <= max;
    ensures 8 * (*count + *discarded) <= rp_dist(*consumer, \old(*consumer));
    ensures rp_dist(producer, *consumer) + rp_dist(*consumer, \old(*consumer)) ==
            rp_dist(producer, \old(*consumer));
    ensures *count + *discarded == 0 ==> *consumer == \old(*consumer);
    ensures \forall integer k; 0 <= k < *count ==>
              !recs[k].discarded && recs[k].pos % 8 == 0 &&
              recs[k].size == rp_rb_total(recs[k].len);
    // rp_rb_data_in_ring for each record, stated slice by slice (proves far
    // more easily than the predicate over a loaded struct):
    ensures \forall integer k; 0 <= k < *count ==>
              recs[k].data.p1 == ring->data &&
              recs[k].data.n0 + recs[k].data.n1 == recs[k].len &&
              recs[k].data.n1 <= rp_off(recs[k].pos, ring->size);
    ensures \forall integer k; 0 <= k < *count ==>
              recs[k].data.p0 == ring->data + rp_body_off(rp_off(recs[k].pos, ring->size), ring->size) &&
              recs[k].data.n0 <= ring->size - rp_body_off(rp_off(recs[k].pos, ring->size), ring->size);
    ensures \forall integer k; 0 <= k < *count ==>
              recs[k].data.n1 == 0 ||
              recs[k].data.n0 == ring->size - rp_body_off(rp_off(recs[k].pos, ring->size), ring->size);
    ensures \result == RP_EMPTY ==> *consumer == producer;
    ensures \result == RP_MORE ==> *count == max && *consumer != producer;
    ensures \result == RP_EMPTY || \result == RP_MORE || \result == RP_BUSY || \result < 0;
*/
rp_status rp_ringbuf_drain(const rp_ring *ring, uint64_t producer,
                           uint64_t *consumer, rp_rb_record *recs, uint32_t max,
                           uint32_t *count, uint64_t *discarded);

#endif
