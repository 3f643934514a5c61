/* The forward perf ring walk.
 *
 * A ring is the data area of a perf mmap buffer: size bytes at data.  head
 * (producer) and tail (consumer) are free-running u64 byte positions; the
 * byte at position p lives at offset p mod size.  The core never touches the
 * control page: the adapter acquire-loads data_head, passes it in, and
 * release-stores the tail this code returns.
 *
 * Safety needs only 8 <= size <= 2^32 and size % 8 == 0; the kernel's
 * power-of-two rule (needed for positions to stay continuous across the u64
 * wrap) is checked by the adapter.
 */
#ifndef RP_RING_H
#define RP_RING_H

#include <stdint.h>

#include "rp_span.h"
#include "rp_status.h"

typedef struct rp_ring {
	const uint8_t *data;
	uint64_t size;
} rp_ring;

/* One record, borrowed from the ring.  body holds size - 8 bytes. */
typedef struct rp_record {
	uint64_t pos;  /* ring position of the header */
	uint32_t type; /* PERF_RECORD_* */
	uint16_t misc;
	uint16_t size; /* header + body, a multiple of 8, >= 8 */
	rp_span body;
} rp_record;

/*@
  predicate rp_ring_ok(rp_ring *r) =
    \valid_read(r) &&
    8 <= r->size <= 4294967296 && r->size % 8 == 0 &&
    \valid_read(r->data + (0 .. r->size - 1));

  // Bytes from t to h on the u64 circle.
  logic integer rp_dist(integer h, integer t) =
    h >= t ? h - t : h - t + 18446744073709551616;

  // Offset in the data area of the 8-aligned position p.
  logic integer rp_off(integer p, integer size) = 8 * ((p / 8) % (size / 8));

  logic integer rp_hdr_type(rp_ring *r, integer o) =
    rp_le32(r->data[o], r->data[o + 1], r->data[o + 2], r->data[o + 3]);
  logic integer rp_hdr_misc(rp_ring *r, integer o) =
    rp_le16(r->data[o + 4], r->data[o + 5]);
  logic integer rp_hdr_size(rp_ring *r, integer o) =
    rp_le16(r->data[o + 6], r->data[o + 7]);

  // Where a record's body starts when its header is at offset o.
  logic integer rp_body_off(integer o, integer size) =
    o + 8 >= size ? 0 : o + 8;

  // The body of a record decoded from the data area (data, rsize) with its
  // header at offset o: in bounds, exactly size - 8 bytes, wrapping at most
  // once and never reaching back into its own header.
  predicate rp_body_in_ring(uint8_t *data, integer rsize, integer o,
                            integer size, rp_span b) =
    b.p0 == data + rp_body_off(o, rsize) &&
    b.n0 <= rsize - rp_body_off(o, rsize) &&
    b.p1 == data &&
    (b.n1 == 0 || b.n0 == rsize - rp_body_off(o, rsize)) &&
    (b.n1 == 0 || b.n1 <= o) &&
    b.n0 + b.n1 == size - 8 &&
    rp_span_ok(b);
*/

/* Decode the record at *tail.
 *
 * RP_OK: *rec is the record and *tail advanced by rec->size.
 * RP_EMPTY: *tail == head.
 * Errors (RP_E_*): the ring is inconsistent at *tail; neither *tail nor *rec
 * is written.  The header is read once into locals and checked there. */
/*@ requires rp_ring_ok(ring);
    requires \valid(tail) && \valid(rec);
    requires \separated(tail, rec);
    requires \separated(tail, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(rec, ring, ring->data + (0 .. ring->size - 1));
    assigns *tail, *rec;
    ensures \result != RP_OK ==> *tail == \old(*tail);

    behavior overrun:
      assumes rp_dist(head, *tail) > ring->size;
      assigns \nothing;
      ensures \result == RP_E_OVERRUN;
    behavior tail_align:
      assumes rp_dist(head, *tail) <= ring->size;
      assumes *tail % 8 != 0;
      assigns \nothing;
      ensures \result == RP_E_TAIL_ALIGN;
    behavior empty:
      assumes *tail % 8 == 0;
      assumes rp_dist(head, *tail) == 0;
      assigns \nothing;
      ensures \result == RP_EMPTY;
    behavior partial_header:
      assumes *tail % 8 == 0;
      assumes 0 < rp_dist(head, *tail) < 8;
      assigns \nothing;
      ensures \result == RP_E_TRUNCATED;
    behavior hdr_short:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) < 8;
      assigns \nothing;
      ensures \result == RP_E_HDR_SHORT;
    behavior hdr_align:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 != 0;
      assigns \nothing;
      ensures \result == RP_E_HDR_ALIGN;
    behavior truncated:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 == 0;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) > rp_dist(head, *tail);
      assigns \nothing;
      ensures \result == RP_E_TRUNCATED;
    behavior ok:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 == 0;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) <= rp_dist(head, *tail);
      ensures \result == RP_OK;
      ensures rec->pos == \old(*tail);
      ensures rec->size == \old(rp_hdr_size(ring, rp_off(*tail, ring->size)));
      ensures rec->type == \old(rp_hdr_type(ring, rp_off(*tail, ring->size)));
      ensures rec->misc == \old(rp_hdr_misc(ring, rp_off(*tail, ring->size)));
      ensures rp_body_in_ring(\old(ring->data), \old(ring->size),
                              \old(rp_off(*tail, ring->size)), rec->size, rec->body);
      ensures *tail % 8 == 0;
      ensures rp_dist(*tail, \old(*tail)) == rec->size;
      ensures rp_dist(head, *tail) == rp_dist(head, \old(*tail)) - rec->size;
    complete behaviors;
    disjoint behaviors;
*/
rp_status rp_ring_next(const rp_ring *ring, uint64_t head, uint64_t *tail,
                       rp_record *rec);

/* Decode up to max records from *tail into recs[0 .. *count - 1].
 *
 * Returns the stop reason: RP_EMPTY (*tail reached head), RP_MORE (recs is
 * full and records remain), or the error rp_ring_next gave for the record at
 * the returned *tail, after the *count good records before it.  *tail always
 * ends at the end of the last record returned.  At most max records and at
 * most (head - tail) / 8 steps: every record is at least 8 bytes. */
/*@ requires rp_ring_ok(ring);
    requires \valid(tail) && \valid(count);
    requires \valid(recs + (0 .. max - 1));
    requires \separated(tail, count);
    requires \separated(recs + (0 .. max - 1), tail, count);
    requires \separated(tail, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(count, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(recs + (0 .. max - 1), ring, ring->data + (0 .. ring->size - 1));
    assigns *tail, *count, recs[0 .. max - 1];

    ensures *count <= max;
    ensures 8 * *count <= rp_dist(*tail, \old(*tail));
    ensures rp_dist(head, *tail) + rp_dist(*tail, \old(*tail)) == rp_dist(head, \old(*tail));
    ensures *count == 0 ==> *tail == \old(*tail);
    ensures *count > 0 ==> recs[0].pos == \old(*tail);
    ensures chain: \forall integer k; 0 <= k < *count - 1 ==>
              rp_dist(recs[k + 1].pos, recs[k].pos) == recs[k].size;
    ensures *count > 0 ==>
              rp_dist(*tail, recs[*count - 1].pos) == recs[*count - 1].size;
    ensures sizes: \forall integer k; 0 <= k < *count ==>
              recs[k].size >= 8 && recs[k].size % 8 == 0;
    ensures aligned: \forall integer k; 0 <= k < *count ==> recs[k].pos % 8 == 0;
    ensures bodies: \forall integer k; 0 <= k < *count ==>
              rp_body_in_ring(\old(ring->data), \old(ring->size),
                              rp_off(recs[k].pos, \old(ring->size)), recs[k].size, recs[k].body);
    ensures \result == RP_EMPTY ==> *tail == head;
    ensures \result == RP_MORE ==> *count == max && *tail != head;
    ensures \result == RP_EMPTY || \result == RP_MORE || \result < 0;
*/
rp_status rp_ring_drain(const rp_ring *ring, uint64_t head, uint64_t *tail,
                        rp_record *recs, uint32_t max, uint32_t *count);

#endif
