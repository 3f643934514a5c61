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
 *
 * Proved (WP, core/rp_ring.c): every read is inside data[0 .. size-1]; each
 * error class is its own behavior (complete, disjoint) and on error neither
 * tail nor the record is written; on RP_OK the record's type/misc/size are
 * the header bytes at tail mod size, its body is the size - 8 bytes after
 * the header as at most two slices inside the ring, tail stays 8-aligned and
 * advances by exactly size without passing head; the batch drain terminates,
 * returns records that chain position to position and takes at most
 * (head - tail) / 8 steps.
 * Tested, not proved: the kernel-facing meaning of a record (the adapters'
 * real-kernel suites); single fetch on the compiled code (the ring_hostile
 * fuzzer counts loads per offset; the proof reads each header byte once by
 * construction but says nothing about what the compiler emits).
 */
#ifndef RP_RING_H
#define RP_RING_H

#include <stdint.h>

#include "rp_prim.h"
#include "rp_span.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    \valid_read(r) && rp_ring_size_ok(r->size) &&
    \valid_read(r->data + (0 .. r->size - 1));

  // The header fields at offset o of the ring memory d, and of a ring.
  logic integer rp_hdr_type_at(uint8_t *d, integer o) =
    rp_le32(d[o], d[o + 1], d[o + 2], d[o + 3]);
  logic integer rp_hdr_misc_at(uint8_t *d, integer o) = rp_le16(d[o + 4], d[o + 5]);
  logic integer rp_hdr_size_at(uint8_t *d, integer o) = rp_le16(d[o + 6], d[o + 7]);
  logic integer rp_hdr_type(rp_ring *r, integer o) = rp_hdr_type_at(r->data, o);
  logic integer rp_hdr_misc(rp_ring *r, integer o) = rp_hdr_misc_at(r->data, o);
  logic integer rp_hdr_size(rp_ring *r, integer o) = rp_hdr_size_at(r->data, o);

  // The body of a record of `size` bytes whose header is at offset o.
  predicate rp_body_in_ring(uint8_t *data, integer rsize, integer o,
                            integer size, rp_span b) =
    rp_slices_in_ring(data, rsize, o, size - 8, b);
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

#ifdef __cplusplus
}
#endif

#endif
