/* The backward (write_backward = 1, overwrite) perf ring walk (docs/abi.md).
 *
 * The kernel writes records at decreasing positions: data_head is the
 * header of the newest record, and walking forward from head by each
 * record's size visits records newest first.  The walk is bounded by the
 * ring size: it ends after exactly size bytes, at a zero header (space not
 * yet written before the first wrap), or at a record that would end past
 * head + size (it was partly overwritten by newer data).
 *
 * walked counts the bytes already walked from head (0 on the first call);
 * the walk keeps it 8-aligned and <= ring size, which bounds it to
 * size / 8 steps.
 *
 * An overwrite ring can change while it is read (the producer does not stop), so
 * the header is read once into locals and validated there, and the body is
 * copied into the caller's scratch; a returned record is an rp_record whose
 * body span points into scratch (one slice), never into the ring.  Bytes
 * of a body copied while the producer overwrote them may be torn; the
 * adapter pauses the producer while walking to prevent that.
 *
 * Proved (core/rp_backward.c): every ring read is inside the ring and every
 * write inside the caller's scratch; the walk ends at a zero header, a
 * record that would reach past head + size, or after exactly size bytes;
 * walked stays 8-aligned, <= size and grows by each returned record's size;
 * a returned body is the copy of the size - 8 bytes after its header.
 * Tested, not proved: the kernel's backward layout and LOST placement
 * (ringbuf-integration: overwrite and backward rings read while a producer
 * writes), the backward fuzz harness; torn copies while the producer runs
 * (the adapter pauses it).
 */
#ifndef RP_BACKWARD_H
#define RP_BACKWARD_H

#include <stdint.h>

#include "rp_ring.h"
#include "rp_span.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/*@
  // Offset of the header walked bytes after an 8-aligned head (walked < size).
  logic integer rp_bw_off(integer head, integer walked, integer size) =
    rp_off(head, size) + walked < size ? rp_off(head, size) + walked
                                       : rp_off(head, size) + walked - size;

  // Offset of ring byte x for 0 <= x < 2 * size.
  logic integer rp_bw_wrap(integer x, integer size) = x < size ? x : x - size;

  // The size field of the header walked bytes after head (walked < size).
  logic integer rp_bw_size_at(uint8_t *d, integer rsize, integer head, integer walked) =
    rp_hdr_size_at(d, rp_bw_off(head, walked, rsize));
  logic integer rp_bw_size(rp_ring *r, integer head, integer walked) =
    rp_bw_size_at(r->data, r->size, head, walked);
*/

/* Copy the record walked bytes after head into scratch and decode it.
 *
 * RP_OK: *rec is the record (body = scratch[0 .. rec->size - 9]) and
 *        *walked advanced by rec->size.
 * Ends (nothing written): RP_EMPTY (*walked == ring size: the whole ring was
 * walked), RP_BW_END_ZERO (zero header), RP_BW_END_OVERWRITTEN (the record
 * would end past head + size).
 * Errors (nothing written): RP_E_BW_POS_ALIGN (head or *walked not
 * 8-aligned), RP_E_BW_HDR_SHORT (size 1..7), RP_E_BW_HDR_ALIGN (size not a
 * multiple of 8), RP_E_BW_SCRATCH (body larger than cap). */
/*@ requires rp_ring_ok(ring);
    requires \valid(walked) && \valid(rec);
    requires *walked <= ring->size;
    requires \valid(scratch + (0 .. cap - 1));
    requires \separated(walked, rec);
    requires \separated(walked, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(rec, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(scratch + (0 .. cap - 1), walked, rec, ring,
                        ring->data + (0 .. ring->size - 1));
    assigns *walked, *rec, scratch[0 .. cap - 1];

    // Summaries for callers (the batch loop): what every behavior implies.
    ensures bw_keep: \result != RP_OK ==> *walked == \old(*walked);
    ensures bw_codes: \result == RP_OK || \result == RP_EMPTY || \result < 0;
    ensures bw_step: \result == RP_OK ==>
              rec->size >= 8 && rec->size % 8 == 0 && rec->size - 8 <= cap &&
              rec->body.p0 == scratch && rec->body.p1 == scratch &&
              rec->body.n0 == rec->size - 8 && rec->body.n1 == 0 &&
              *walked == \old(*walked) + rec->size && *walked <= ring->size;

    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size &&
                rp_bw_size(ring, head, *walked) >= 8 &&
                rp_bw_size(ring, head, *walked) % 8 == 0 &&
                *walked + rp_bw_size(ring, head, *walked) <= ring->size &&
                rp_bw_size(ring, head, *walked) - 8 <= cap);
      assigns \nothing;
    behavior misaligned:
      assumes head % 8 != 0 || *walked % 8 != 0;
      ensures \result == RP_E_BW_POS_ALIGN;
    behavior full:
      assumes head % 8 == 0 && *walked % 8 == 0;
      assumes *walked == ring->size;
      ensures \result == RP_EMPTY;
    behavior zero:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes rp_bw_size(ring, head, *walked) == 0;
      ensures \result == RP_BW_END_ZERO;
    behavior hdr_short:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes 0 < rp_bw_size(ring, head, *walked) < 8;
      ensures \result == RP_E_BW_HDR_SHORT;
    behavior hdr_align:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes rp_bw_size(ring, head, *walked) >= 8;
      assumes rp_bw_size(ring, head, *walked) % 8 != 0;
      ensures \result == RP_E_BW_HDR_ALIGN;
    behavior overwritten:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes rp_bw_size(ring, head, *walked) >= 8;
      assumes rp_bw_size(ring, head, *walked) % 8 == 0;
      assumes *walked + rp_bw_size(ring, head, *walked) > ring->size;
      ensures \result == RP_BW_END_OVERWRITTEN;
    behavior scratch_small:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes rp_bw_size(ring, head, *walked) >= 8;
      assumes rp_bw_size(ring, head, *walked) % 8 == 0;
      assumes *walked + rp_bw_size(ring, head, *walked) <= ring->size;
      assumes rp_bw_size(ring, head, *walked) - 8 > cap;
      ensures \result == RP_E_BW_SCRATCH;
    behavior ok:
      assumes head % 8 == 0 && *walked % 8 == 0 && *walked < ring->size;
      assumes rp_bw_size(ring, head, *walked) >= 8;
      assumes rp_bw_size(ring, head, *walked) % 8 == 0;
      assumes *walked + rp_bw_size(ring, head, *walked) <= ring->size;
      assumes rp_bw_size(ring, head, *walked) - 8 <= cap;
      ensures \result == RP_OK;
      ensures rp_dist(rec->pos, head) == \old(*walked);
      // Header facts in the pre-state (the ring is not written: same bytes).
      ensures bw_size: rec->size == \old(rp_bw_size(ring, head, *walked));
      ensures bw_type: rec->type == \old(rp_hdr_type(ring, rp_bw_off(head, *walked, ring->size)));
      ensures bw_misc: rec->misc == \old(rp_hdr_misc(ring, rp_bw_off(head, *walked, ring->size)));
      ensures rec->body.p0 == scratch && rec->body.p1 == scratch;
      ensures rec->body.n0 == rec->size - 8 && rec->body.n1 == 0;
      ensures bw_body: \forall integer i; 0 <= i < rec->size - 8 ==>
                scratch[i] == \old(ring->data[rp_bw_wrap(rp_bw_off(head, *walked, ring->size) + 8 + i,
                                                         ring->size)]);
      ensures *walked == \old(*walked) + rec->size;
    complete behaviors misaligned, full, zero, hdr_short, hdr_align, overwritten, scratch_small,
      ok;
    disjoint behaviors misaligned, full, zero, hdr_short, hdr_align, overwritten, scratch_small,
      ok;
*/
rp_status rp_backward_next(const rp_ring *ring, uint64_t head, uint64_t *walked,
                           uint8_t *scratch, uint32_t cap, rp_record *rec);

/* Walk up to max records from *walked, packing their bodies one after the
 * other into scratch[0 .. cap - 1]; recs[0 .. *count - 1] come newest first.
 *
 * Returns the stop reason: an end or error of rp_backward_next (at the
 * returned *walked), or RP_MORE when recs or scratch filled up after at
 * least one record (call again from *walked with fresh buffers).
 * RP_E_BW_SCRATCH with *count == 0 means one record exceeds the whole
 * scratch. */
/*@ requires rp_ring_ok(ring);
    requires \valid(walked) && \valid(count);
    requires *walked <= ring->size;
    requires \valid(scratch + (0 .. cap - 1));
    requires \valid(recs + (0 .. max - 1));
    requires \separated(walked, count);
    requires \separated(walked, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(count, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(recs + (0 .. max - 1), walked, count, ring,
                        ring->data + (0 .. ring->size - 1));
    requires \separated(scratch + (0 .. cap - 1), walked, count, ring,
                        ring->data + (0 .. ring->size - 1));
    requires \separated(scratch + (0 .. cap - 1), recs + (0 .. max - 1));
    assigns *walked, *count, recs[0 .. max - 1], scratch[0 .. cap - 1];

    ensures *count <= max;
    ensures \old(*walked) <= *walked <= ring->size;
    ensures 8 * *count <= *walked - \old(*walked);
    ensures *count == 0 ==> *walked == \old(*walked);
    ensures sizes8: \forall integer k; 0 <= k < *count ==> recs[k].size >= 8;
    ensures sizes_al: \forall integer k; 0 <= k < *count ==> recs[k].size % 8 == 0;
    ensures n0s: \forall integer k; 0 <= k < *count ==> recs[k].body.n0 == recs[k].size - 8;
    ensures n1s: \forall integer k; 0 <= k < *count ==> recs[k].body.n1 == 0;
    ensures p1s: \forall integer k; 0 <= k < *count ==> recs[k].body.p1 == recs[k].body.p0;
    ensures lo: \forall integer k; 0 <= k < *count ==> scratch <= recs[k].body.p0;
    ensures hi: \forall integer k; 0 <= k < *count ==>
              recs[k].body.p0 + recs[k].body.n0 <= scratch + cap;
    ensures \result == RP_MORE ==> *count > 0 || max == 0;
    ensures \result == RP_MORE || \result == RP_EMPTY || \result < 0;
*/
rp_status rp_backward_drain(const rp_ring *ring, uint64_t head, uint64_t *walked,
                            uint8_t *scratch, uint32_t cap, rp_record *recs,
                            uint32_t max, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
