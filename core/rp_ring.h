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
 * (head - tail) / 8 steps.  The fused BPF-output batch
 * (rp_ring_drain_bpf_output) makes the same walk: every descriptor it returns
 * is a SAMPLE that rp_bpf_output_view would accept, its payload the raw_size
 * bytes after the u32 raw size (read from the ring), as at most two slices
 * inside the ring; descriptors chain by the header sizes; RP_OTHER stops at
 * a well-framed record that is not such a sample; at most (head - tail) / 16
 * steps.
 * Tested, not proved: the kernel-facing meaning of a record (the adapters'
 * real-kernel suites); single fetch on the compiled code (the ring_hostile
 * fuzzer counts loads per offset; the proof reads each header byte once by
 * construction but says nothing about what the compiler emits); that the
 * fused batch stops with the same error as rp_ring_next and writes nothing
 * past *count (tests/unit/test_bpf_batch, fuzz ring_diff: differential
 * against rp_ring_drain + rp_bpf_output_view).
 */
#ifndef RP_RING_H
#define RP_RING_H

#include <stdint.h>

#include "rp_abi.h"
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

/* The fused BPF-output batch: rp_ring_drain and rp_bpf_output_view (rp_views.h)
 * in one loop, for the records agents send most.  One compact descriptor
 * per record, written once: the raw payload of a PERF_RECORD_SAMPLE of a
 * BPF-output event (sample_type == PERF_SAMPLE_RAW only), raw_size bytes,
 * kernel padding included (raw_size == data.n0 + data.n1). */
typedef struct rp_bpf_sample {
	uint64_t pos;      /* ring position of the record's header */
	uint32_t size;     /* the record's size, header included (as rp_record.size) */
	uint32_t raw_size; /* the payload's length: data.n0 + data.n1 */
	rp_span data;      /* the raw payload, at most two slices inside the ring */
} rp_bpf_sample;

/*@
  // q is p + s on the u64 circle (rp_dist(q, p) == s for 0 <= s < 2^64),
  // written without ?:: inside a quantifier the provers handle a
  // disjunction, not a conditional term.
  predicate rp_pos_next(integer p, integer s, integer q) =
    p + s == q || p + s == q + RP_U64_MOD;

  // The u32 raw size at the start of the body of the record at offset o.
  // The body starts 8-aligned in a ring whose size is a multiple of 8, so
  // these 4 bytes never wrap.
  logic integer rp_raw_size_at(uint8_t *d, integer rsize, integer o) =
    rp_le32(d[rp_body_off(o, rsize)], d[rp_body_off(o, rsize) + 1],
            d[rp_body_off(o, rsize) + 2], d[rp_body_off(o, rsize) + 3]);

  // The record at position t frames well: what rp_ring_next accepts.
  predicate rp_frame_ok(uint8_t *d, integer rsize, integer head, integer t) =
    t % 8 == 0 && 8 <= rp_dist(head, t) <= rsize &&
    rp_hdr_size_at(d, rp_off(t, rsize)) >= 8 &&
    rp_hdr_size_at(d, rp_off(t, rsize)) % 8 == 0 &&
    rp_hdr_size_at(d, rp_off(t, rsize)) <= rp_dist(head, t);

  // The well-framed record at offset o is what rp_bpf_output_view accepts:
  // a SAMPLE whose body holds the u32 raw size and raw_size bytes after it.
  predicate rp_is_bpf_output_at(uint8_t *d, integer rsize, integer o) =
    rp_hdr_type_at(d, o) == RP_RECORD_SAMPLE &&
    rp_hdr_size_at(d, o) >= 16 &&
    rp_raw_size_at(d, rsize, o) + 12 <= rp_hdr_size_at(d, o);

  // The payload span of the record whose header is at offset o: from 4
  // bytes into the body, wrapping at most once, never reaching back into
  // the header.  Its length is stated apart.
  predicate rp_payload_in_ring(uint8_t *d, integer rsize, integer o, rp_span p) =
    p.p0 == d + (rp_body_off(o, rsize) + 4) &&
    p.n0 <= rsize - (rp_body_off(o, rsize) + 4) &&
    p.p1 == d &&
    (p.n1 == 0 || p.n0 == rsize - (rp_body_off(o, rsize) + 4)) &&
    (p.n1 == 0 || p.n1 <= o) &&
    rp_span_ok(p);

  // A descriptor of the fused batch is the BPF-output record at its
  // position: its header (size and type as in the ring, raw_size the u32
  // read from the ring), its lengths, where its payload lies.  Three parts,
  // each over the fields it needs (never the whole descriptor: a goal that
  // loads all of a descriptor from memory to carry it past a store is far
  // harder for the provers), so that the batch loop's goals stay small; only
  // the first reads the ring.
  predicate rp_bpf_sample_hdr(uint8_t *d, integer rsize, integer pos, integer size, integer raw) =
    pos % 8 == 0 && size % 8 == 0 &&
    size == rp_hdr_size_at(d, rp_off(pos, rsize)) &&
    raw == rp_raw_size_at(d, rsize, rp_off(pos, rsize)) &&
    rp_is_bpf_output_at(d, rsize, rp_off(pos, rsize));
  predicate rp_bpf_sample_len(integer size, integer raw, integer n0, integer n1) =
    size >= 16 && raw + 12 <= size && n0 + n1 == raw;

  // The first two over the first n descriptors of a batch.  Named, so that
  // the batch loop's postconditions are its invariants word for word (the
  // chain and the payloads' places stay bare \forall formulas: as named
  // predicates their invariants did not prove preserved within 4 M steps).
  predicate rp_bpf_hdrs_ok(uint8_t *d, integer rsize, rp_bpf_sample *out, integer n) =
    \forall integer k; 0 <= k < n ==>
      rp_bpf_sample_hdr(d, rsize, out[k].pos, out[k].size, out[k].raw_size);
  predicate rp_bpf_lens_ok(rp_bpf_sample *out, integer n) =
    \forall integer k; 0 <= k < n ==>
      rp_bpf_sample_len(out[k].size, out[k].raw_size, out[k].data.n0, out[k].data.n1);
*/

/* Decode up to max BPF-output samples from *tail into out[0 .. *count - 1].
 *
 * The same walk as rp_ring_drain (the same framing checks, each header read
 * once with one 8-byte load), and for each record what rp_bpf_output_view
 * checks, fused into the loop: one descriptor per record, written once, the
 * raw size read with one 4-byte load (it never wraps, see rp_raw_size_at).
 * Returns the stop reason:
 *   RP_EMPTY  *tail reached head;
 *   RP_MORE   out is full and records remain;
 *   RP_OTHER  the record at *tail frames well but is not one that
 *             rp_bpf_output_view accepts (another type, e.g. LOST, or a SAMPLE
 *             whose raw size does not fit): nothing is dropped; read it with
 *             rp_ring_next (and the views), then call this again;
 *   < 0       the framing error rp_ring_next gives for the record at *tail.
 * *tail always ends at the end of the last record returned (so at the record
 * that stopped the batch); out[*count .. max - 1] are not written (tested;
 * the contract says only that out[0 .. max - 1] may be). */
/*@ requires rp_ring_ok(ring);
    requires \valid(tail) && \valid(count);
    requires \valid(out + (0 .. max - 1));
    requires \separated(tail, count);
    requires \separated(out + (0 .. max - 1), tail, count);
    requires \separated(tail, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(count, ring, ring->data + (0 .. ring->size - 1));
    requires \separated(out + (0 .. max - 1), ring, ring->data + (0 .. ring->size - 1));
    assigns *tail, *count, out[0 .. max - 1];

    ensures *count <= max;
    ensures 16 * *count <= rp_dist(*tail, \old(*tail));
    ensures rp_dist(head, *tail) + rp_dist(*tail, \old(*tail)) == rp_dist(head, \old(*tail));
    ensures *count == 0 ==> *tail == \old(*tail);
    ensures *count > 0 ==> out[0].pos == \old(*tail);
    ensures chain: \forall integer k; 0 <= k < *count - 1 ==>
              rp_pos_next(out[k].pos, out[k].size, out[k + 1].pos);
    ensures last: *count > 0 ==> rp_dist(*tail, out[*count - 1].pos) == out[*count - 1].size;
    ensures samples_hdr: rp_bpf_hdrs_ok(\old(ring->data), \old(ring->size), out, *count);
    ensures samples_len: rp_bpf_lens_ok(out, *count);
    ensures samples_geom: \forall integer k; 0 <= k < *count ==>
              rp_payload_in_ring(\old(ring->data), \old(ring->size),
                                 rp_off(out[k].pos, \old(ring->size)), out[k].data);
    ensures \result == RP_EMPTY ==> *tail == head;
    ensures \result == RP_MORE ==> *count == max && *tail != head;
    ensures other: \result == RP_OTHER ==>
              rp_frame_ok(\old(ring->data), \old(ring->size), head, *tail) &&
              !rp_is_bpf_output_at(\old(ring->data), \old(ring->size),
                                   rp_off(*tail, \old(ring->size)));
    ensures \result == RP_EMPTY || \result == RP_MORE || \result == RP_OTHER || \result < 0;
*/
rp_status rp_ring_drain_bpf_output(const rp_ring *ring, uint64_t head, uint64_t *tail,
                                   rp_bpf_sample *out, uint32_t max, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif
