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
 * (head - tail) / 8 steps.  The iterator (rp_ring_iter, at the end of this
 * header) walks one record per call: each step is proved to return the
 * record at the iterator's position, with the facts above, or, for its
 * BPF-output step (rp_ring_iter_next_bpf), the sample there: a SAMPLE that
 * rp_bpf_output_view would accept, its payload the raw_size bytes after the
 * u32 raw size (read from the ring), as at most two slices inside the ring;
 * and to move the position past it by the header's size, or to leave the
 * iterator unchanged with the status the decoder gives there (RP_OTHER at a
 * well-framed record that is not such a sample).  It also carries a hint, the header word
 * of the last SAMPLE it took: a header equal to the hint is taken from the
 * hint, and the proof is that the record so taken is the one the full
 * checks would give (the hint passed them; rp_hint_ok is an invariant of
 * the iterator), whatever the ring holds.
 * Tested, not proved: the kernel-facing meaning of a record (the adapters'
 * real-kernel suites); single fetch on the compiled code (the ring_hostile
 * fuzzer counts loads per offset, the hinted path included; the proof reads
 * each header byte once by construction but says nothing about what the
 * compiler emits); that the iterator's steps give the records and stops of
 * rp_ring_drain + rp_bpf_output_view (tests/unit/test_bpf_batch, fuzz
 * ring_diff: differential).
 *
 * The walk's steps are defined in this header (RP_INLINE, rp_prim.h): an
 * iterator's caller inlines the common path (the hinted step and the
 * header checks inside the room) and calls out of line only for the first
 * record of a run, the one that reaches the ring end, and the last bytes
 * before head (rp_bpf_step_cold, rp_ring_step_cold).
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

    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(*tail % 8 == 0 && 8 <= rp_dist(head, *tail) <= ring->size &&
                rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8 &&
                rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 == 0 &&
                rp_hdr_size(ring, rp_off(*tail, ring->size)) <= rp_dist(head, *tail));
      assigns \nothing;
    behavior overrun:
      assumes rp_dist(head, *tail) > ring->size;
      ensures \result == RP_E_OVERRUN;
    behavior tail_align:
      assumes rp_dist(head, *tail) <= ring->size;
      assumes *tail % 8 != 0;
      ensures \result == RP_E_TAIL_ALIGN;
    behavior empty:
      assumes *tail % 8 == 0;
      assumes rp_dist(head, *tail) == 0;
      ensures \result == RP_EMPTY;
    behavior partial_header:
      assumes *tail % 8 == 0;
      assumes 0 < rp_dist(head, *tail) < 8;
      ensures \result == RP_E_TRUNCATED;
    behavior hdr_short:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) < 8;
      ensures \result == RP_E_HDR_SHORT;
    behavior hdr_align:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 != 0;
      ensures \result == RP_E_HDR_ALIGN;
    behavior truncated:
      assumes *tail % 8 == 0;
      assumes 8 <= rp_dist(head, *tail) <= ring->size;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) >= 8;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) % 8 == 0;
      assumes rp_hdr_size(ring, rp_off(*tail, ring->size)) > rp_dist(head, *tail);
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
    complete behaviors overrun, tail_align, empty, partial_header, hdr_short, hdr_align,
      truncated, ok;
    disjoint behaviors overrun, tail_align, empty, partial_header, hdr_short, hdr_align,
      truncated, ok;
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

/* A BPF-output sample, as the iterator's BPF-output step returns it: the
 * walk and rp_bpf_output_view (rp_views.h) in one step, for the records
 * agents send most.  The raw payload of a PERF_RECORD_SAMPLE of a
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

  // A sample is the BPF-output record at its position: its header (size
  // and type as in the ring, raw_size the u32 read from the ring), its
  // lengths, where its payload lies.  Three parts, each over the fields it
  // needs (never the whole sample: a goal that loads all of a sample from
  // memory to carry it past a store is far harder for the provers); only
  // the first reads the ring.
  predicate rp_bpf_sample_hdr(uint8_t *d, integer rsize, integer pos, integer size, integer raw) =
    pos % 8 == 0 && size % 8 == 0 &&
    size == rp_hdr_size_at(d, rp_off(pos, rsize)) &&
    raw == rp_raw_size_at(d, rsize, rp_off(pos, rsize)) &&
    rp_is_bpf_output_at(d, rsize, rp_off(pos, rsize));
  predicate rp_bpf_sample_len(integer size, integer raw, integer n0, integer n1) =
    size >= 16 && raw + 12 <= size && n0 + n1 == raw;
*/

/* ---- the BPF-output step (inline) ---------------------------------------- */

/* The iterator's BPF-output step takes a record in one of two ways (after
 * the hint, rp_ring_iter_next_bpf).  The walk carries `room`: bytes from t that are
 * published (before head) and before the ring end, measured where the
 * framing checks that only the first record of a run can fail passed.  A
 * record that fits in it needs only its own header checked
 * (rp_bpf_take_within).  Anything else (the first record of a run, a
 * record that reaches the ring end, less than 16 bytes of room, a header
 * this path does not accept) goes to rp_bpf_take, which checks everything,
 * given the header when the common path read it.  Each header and each raw
 * size is read once.  Either returns the sample by value (no memory
 * written: the iterator then stores it once). */
typedef struct rp_bpf_taken {
	rp_status st;
	rp_bpf_sample s;
} rp_bpf_taken;

/* The room the walk carries: bytes from t that are published (before
 * head), before the ring end and before 2^64 (rp_room_at in rp_ring.c
 * measures it). */
/*@
  // What the loop knows of its room, as one named predicate: the loop's
  // other goals do not need it, and unnamed its facts slowed every one of
  // them (see proofs/README.md).
  predicate rp_room_ok(integer size, integer head, integer t, integer off, integer room) =
    off + room < size && t + room < RP_U64_MOD && room <= rp_dist(head, t) &&
    (room == 0 || (t % 8 == 0 && rp_dist(head, t) <= size));
*/

/* The room at t: the bytes from t that are published (before head), before
 * the ring end and before 2^64, or 0 where the framing checks that only
 * the first record of a run can fail (t aligned, head no more than a ring
 * ahead) do not pass.  The strict bounds let a record taken within it move
 * the place with two adds. */
/*@ requires rp_ring_size_ok(size);
    requires off == rp_off(t, size);
    assigns \nothing;
    ensures room_ok: rp_room_ok(size, head, t, off, \result);
*/
RP_INLINE uint64_t rp_room_at(uint64_t size, uint64_t head, uint64_t t, uint64_t off);

/* Status st and the empty sample at t (payload none, second slice
 * none): where both takes start. */
/*@ assigns \nothing;
    ensures \result.st == st && \result.s.pos == t;
    ensures \result.s.data.p0 == data && \result.s.data.n0 == 0;
    ensures \result.s.data.p1 == data && \result.s.data.n1 == 0;
*/
RP_INLINE rp_bpf_taken rp_bpf_none(rp_status st, const uint8_t *data, uint64_t t);

/* The record at off, whose header h the caller read, when it lies inside
 * room: a SAMPLE of at least 16 bytes, size a multiple of 8.  Its raw size
 * is then one 4-byte load at off + 8 and its payload one slice, and the
 * record is a BPF output (RP_OK) or not (RP_OTHER).  RP_MORE: not decided
 * here, the raw size not read. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires 16 <= room && off + room < size;
    requires h.type == rp_hdr_type_at(data, off) && h.size == rp_hdr_size_at(data, off);
    assigns \nothing;
    ensures within_status: \result.st == RP_OK || \result.st == RP_OTHER || \result.st == RP_MORE;
    ensures within_other: \result.st == RP_OTHER ==>
              16 <= h.size <= room && h.size % 8 == 0 && !rp_is_bpf_output_at(data, size, off);
    ensures within_size: \result.st == RP_OK ==>
              16 <= \result.s.size <= room && \result.s.size % 8 == 0 &&
              \result.s.size == rp_hdr_size_at(data, off);
    ensures within_hdr: \result.st == RP_OK ==>
              \result.s.pos == t && \result.s.raw_size == rp_raw_size_at(data, size, off) &&
              rp_is_bpf_output_at(data, size, off);
    ensures within_len: \result.st == RP_OK ==> rp_span_len(\result.s.data) == \result.s.raw_size;
    ensures within_geom: \result.st == RP_OK ==> rp_payload_in_ring(data, size, off, \result.s.data);
*/
RP_INLINE rp_bpf_taken rp_bpf_take_within(const uint8_t *data, uint64_t size, uint64_t t,
                                           uint64_t off, uint64_t room, rp_header h);

/* What a BPF-output step returns (rp_bpf_step, rp_bpf_step_cold). */
typedef struct rp_bpf_stepped {
	rp_status st;
	uint64_t t;      /* the position after the record, on RP_OK */
	uint64_t off;    /* its offset, on RP_OK */
	uint64_t room;   /* the room from it, on RP_OK */
	rp_bpf_sample s; /* the sample, on RP_OK */
} rp_bpf_stepped;

/* Everything rp_bpf_step's common path does not take: the record at t by
 * the full decoder (every check of rp_ring_take, then the view's; the
 * header given in h when loaded != 0, having been read by the common
 * path), the place moved past it, and the room measured afresh from there.
 * Out of line: it runs once per run of records (the first of a run, the
 * one that reaches the ring end, the last bytes before head). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires loaded != 0 ==> t % 8 == 0 && 8 <= rp_dist(head, t) <= size &&
             h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             h.size == rp_hdr_size_at(data, off);
    assigns \nothing;
    ensures cold_status: \result.st == RP_OK || \result.st == RP_EMPTY ||
              \result.st == RP_OTHER || \result.st < 0;
    ensures cold_empty: \result.st == RP_EMPTY ==> t == head;
    ensures cold_other: \result.st == RP_OTHER ==>
              rp_frame_ok(data, size, head, t) && !rp_is_bpf_output_at(data, size, off);
    ensures cold_pos: \result.st == RP_OK ==> \result.s.pos == t && \result.t % 8 == 0;
    ensures cold_adv: \result.st == RP_OK ==> rp_dist(\result.t, t) == \result.s.size;
    ensures cold_head: \result.st == RP_OK ==>
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.s.size;
    ensures cold_hdr: \result.st == RP_OK ==>
              rp_bpf_sample_hdr(data, size, \result.s.pos, \result.s.size, \result.s.raw_size);
    ensures cold_len: \result.st == RP_OK ==>
              rp_bpf_sample_len(\result.s.size, \result.s.raw_size, \result.s.data.n0,
                                \result.s.data.n1);
    ensures cold_geom: \result.st == RP_OK ==>
              rp_payload_in_ring(data, size, rp_off(\result.s.pos, size), \result.s.data);
    ensures cold_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures cold_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
rp_bpf_stepped rp_bpf_step_cold(const uint8_t *data, uint64_t size, uint64_t head, uint64_t t,
                                 uint64_t off, int loaded, rp_header h);

/* One BPF-output step: the record at t (rp_bpf_take_within,
 * else rp_bpf_take), then the position, the offset and the room moved past
 * it, all by value (no memory written: the iterator stores the sample only
 * when the step succeeds).  The room never reaches the ring end nor 2^64,
 * so a record taken within it moves the place with two adds
 * (rp_place_within); after a record the full decoder took, the room is
 * measured afresh.  The common path (the header word's load, then
 * rp_bpf_step_word) is inline, in the caller's loop; the rest is one call
 * out of line, rp_bpf_step_cold.  Its contract holds only the facts the
 * iterator needs, over the sample's fields. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    assigns \nothing;
    ensures bstep_status: \result.st == RP_OK || \result.st == RP_EMPTY ||
              \result.st == RP_OTHER || \result.st < 0;
    ensures bstep_empty: \result.st == RP_EMPTY ==> t == head;
    ensures bstep_other: \result.st == RP_OTHER ==>
              rp_frame_ok(data, size, head, t) && !rp_is_bpf_output_at(data, size, off);
    ensures bstep_pos: \result.st == RP_OK ==> \result.s.pos == t && \result.t % 8 == 0;
    ensures bstep_adv: \result.st == RP_OK ==> rp_dist(\result.t, t) == \result.s.size;
    ensures bstep_head: \result.st == RP_OK ==>
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.s.size;
    ensures bstep_hdr: \result.st == RP_OK ==>
              rp_bpf_sample_hdr(data, size, \result.s.pos, \result.s.size, \result.s.raw_size);
    ensures bstep_len: \result.st == RP_OK ==>
              rp_bpf_sample_len(\result.s.size, \result.s.raw_size, \result.s.data.n0,
                                \result.s.data.n1);
    ensures bstep_geom: \result.st == RP_OK ==>
              rp_payload_in_ring(data, size, rp_off(\result.s.pos, size), \result.s.data);
    ensures bstep_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures bstep_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_bpf_stepped rp_bpf_step(const uint8_t *data, uint64_t size, uint64_t head,
                                      uint64_t t, uint64_t off, uint64_t room);

/*@
  // w is the header word at offset o of the ring memory d: its fields are
  // the header's (rp_load_header_word says so of the word it loads).
  predicate rp_word_at(uint8_t *d, integer o, integer w) =
    rp_word_type(w) == rp_hdr_type_at(d, o) && rp_word_misc(w) == rp_hdr_misc_at(d, o) &&
    rp_word_size(w) == rp_hdr_size_at(d, o);
*/

/* rp_bpf_step after its common path loaded the header word w at off (room
 * >= 16): the record taken by rp_bpf_take_within, else by the cold half
 * given that header (single fetch).  rp_bpf_step is this with the load;
 * an iterator that compared w with its hint first (rp_ring_iter_next_bpf)
 * calls it when they differ. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room) && room >= 16;
    requires rp_word_at(data, off, w);
    assigns \nothing;
    ensures wstep_status: \result.st == RP_OK || \result.st == RP_EMPTY ||
              \result.st == RP_OTHER || \result.st < 0;
    ensures wstep_empty: \result.st == RP_EMPTY ==> t == head;
    ensures wstep_other: \result.st == RP_OTHER ==>
              rp_frame_ok(data, size, head, t) && !rp_is_bpf_output_at(data, size, off);
    ensures wstep_pos: \result.st == RP_OK ==> \result.s.pos == t && \result.t % 8 == 0;
    ensures wstep_adv: \result.st == RP_OK ==> rp_dist(\result.t, t) == \result.s.size;
    ensures wstep_head: \result.st == RP_OK ==>
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.s.size;
    ensures wstep_hdr: \result.st == RP_OK ==>
              rp_bpf_sample_hdr(data, size, \result.s.pos, \result.s.size, \result.s.raw_size);
    ensures wstep_len: \result.st == RP_OK ==>
              rp_bpf_sample_len(\result.s.size, \result.s.raw_size, \result.s.data.n0,
                                \result.s.data.n1);
    ensures wstep_geom: \result.st == RP_OK ==>
              rp_payload_in_ring(data, size, rp_off(\result.s.pos, size), \result.s.data);
    ensures wstep_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures wstep_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_bpf_stepped rp_bpf_step_word(const uint8_t *data, uint64_t size, uint64_t head,
                                           uint64_t t, uint64_t off, uint64_t room, uint64_t w);

/* The record at off, which a header word equal to the iterator's hint
 * showed to be a SAMPLE of hs bytes (16 or more, a multiple of 8: the hint
 * passed those checks when the walk took it) inside room: its raw size is
 * one 4-byte load at off + 8, and it is a BPF output (RP_OK, its payload
 * one slice) or not (RP_OTHER).  rp_bpf_take_within's result without its
 * header checks (the caller checked hs <= room, so off + hs < size). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires 16 <= hs && hs % 8 == 0 && off + hs < size;
    requires rp_hdr_type_at(data, off) == RP_RECORD_SAMPLE && rp_hdr_size_at(data, off) == hs;
    assigns \nothing;
    ensures hinted_status: \result.st == RP_OK || \result.st == RP_OTHER;
    ensures hinted_other: \result.st == RP_OTHER ==> !rp_is_bpf_output_at(data, size, off);
    ensures hinted_hdr: \result.st == RP_OK ==>
              \result.s.pos == t && \result.s.size == hs &&
              \result.s.raw_size == rp_raw_size_at(data, size, off) &&
              rp_is_bpf_output_at(data, size, off);
    ensures hinted_len: \result.st == RP_OK ==> rp_span_len(\result.s.data) == \result.s.raw_size;
    ensures hinted_geom: \result.st == RP_OK ==> rp_payload_in_ring(data, size, off, \result.s.data);
*/
RP_INLINE rp_bpf_taken rp_bpf_take_hinted(const uint8_t *data, uint64_t size, uint64_t t,
                                           uint64_t off, uint64_t hs);

/* A step of the iterator: the step and the hint after it. */
typedef struct rp_bpf_hinted {
	rp_bpf_stepped r;
	uint64_t hint;
	uint64_t hint_size;
} rp_bpf_hinted;

/* ---- the walk one record at a time: rp_ring_iter ---------------------------
 * rp_ring_iter walks [tail, head) with a room, one record per call, in
 * either of two ways: rp_ring_iter_next_bpf takes a BPF-output sample
 * (the BPF-output step, rp_bpf_step), rp_ring_iter_next
 * any record (rp_ring_next's decoder, with a common path of its own,
 * rp_ring_step).  A loop that handles each record as it is decoded (an
 * agent's consumer, the adapters' per-record drains) inlines the common
 * path and overlaps the walk with its own work, where a batch walks first
 * and hands the array over after.  The decoding off the common path is one
 * call out of line, given the iterator's fields by value: a loop that gave
 * an out-of-line function the iterator's address (rp_ring_next(&ring,
 * head, &it.tail, ...)) would keep the iterator in memory for the whole
 * loop, a store and a load per record on the walk's critical path.
 *
 *   rp_ring_iter it;
 *   rp_bpf_sample s;
 *   rp_record rec;
 *   rp_status st;
 *   rp_ring_iter_init(&it, &ring, head, tail);
 *   for (;;) {
 *           while ((st = rp_ring_iter_next_bpf(&it, &s)) == RP_OK)
 *                   use(s.data);          // borrowed from the ring
 *           if (st != RP_OTHER || rp_ring_iter_next(&it, &rec) != RP_OK)
 *                   break;
 *           other(&rec);                  // a LOST, say: nothing is skipped
 *   }
 *   tail = it.tail;   // st: RP_EMPTY (caught up) or the framing error
 *                     // rp_ring_next gives at it.tail
 */
typedef struct rp_ring_iter {
	const uint8_t *data; /* the ring, as rp_ring */
	uint64_t size;
	uint64_t head;       /* where the walk ends */
	uint64_t tail;       /* the next record's position: the tail to publish */
	uint64_t off;        /* tail mod size (carried, not divided, per record) */
	uint64_t room;       /* bytes from tail the common path may take (rp_room_ok) */
	uint64_t hint;       /* the header word of the last SAMPLE the walk took */
	uint64_t hint_size;  /* its size; above any ring size: no hint yet */
} rp_ring_iter;

/*@
  // The iterator's hint: the header word of a SAMPLE of 16 bytes or more
  // that the walk took (so of a size a multiple of 8), and that size; or no
  // hint, a size larger than any ring (the test hint_size <= room then
  // never passes).  A header equal to the hint passes every check the
  // common path makes of a header.
  predicate rp_hint_ok(integer hint, integer hs) =
    hs > RP_RING_MAX ||
    (rp_word_type(hint) == RP_RECORD_SAMPLE && rp_word_size(hint) == hs &&
     16 <= hs && hs % 8 == 0);

  // An iterator as rp_ring_iter_init leaves it and every step keeps it.
  predicate rp_ring_iter_ok(rp_ring_iter *it) =
    \valid(it) && rp_ring_size_ok(it->size) &&
    \valid_read(it->data + (0 .. it->size - 1)) &&
    \separated(it, it->data + (0 .. it->size - 1)) &&
    it->off == rp_off(it->tail, it->size) &&
    rp_room_ok(it->size, it->head, it->tail, it->off, it->room) &&
    rp_hint_ok(it->hint, it->hint_size);
*/

/* The iterator's sample step where the header word at off equals the hint
 * and the hint's size hs fits the room: the record taken from the hint
 * (rp_bpf_take_hinted) and the place moved with two adds.  rp_bpf_step's
 * facts (RP_OK or RP_OTHER). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    requires 16 <= hs <= room && hs % 8 == 0;
    requires rp_hdr_type_at(data, off) == RP_RECORD_SAMPLE && rp_hdr_size_at(data, off) == hs;
    assigns \nothing;
    ensures ostep_status: \result.st == RP_OK || \result.st == RP_OTHER;
    ensures ostep_other: \result.st == RP_OTHER ==>
              rp_frame_ok(data, size, head, t) && !rp_is_bpf_output_at(data, size, off);
    ensures ostep_pos: \result.st == RP_OK ==> \result.s.pos == t && \result.t % 8 == 0;
    ensures ostep_adv: \result.st == RP_OK ==> rp_dist(\result.t, t) == \result.s.size;
    ensures ostep_head: \result.st == RP_OK ==>
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.s.size;
    ensures ostep_hdr: \result.st == RP_OK ==>
              rp_bpf_sample_hdr(data, size, \result.s.pos, \result.s.size, \result.s.raw_size);
    ensures ostep_len: \result.st == RP_OK ==>
              rp_bpf_sample_len(\result.s.size, \result.s.raw_size, \result.s.data.n0,
                                \result.s.data.n1);
    ensures ostep_geom: \result.st == RP_OK ==>
              rp_payload_in_ring(data, size, rp_off(\result.s.pos, size), \result.s.data);
    ensures ostep_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures ostep_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_bpf_stepped rp_bpf_step_on_hint(const uint8_t *data, uint64_t size, uint64_t head,
                                              uint64_t t, uint64_t off, uint64_t room,
                                              uint64_t hs);

/* The rest of the iterator's sample step: the header word w at off (loaded
 * != 0: the caller loaded it and found it is not the hint; otherwise loaded
 * here if 16 bytes of room are left) to rp_bpf_step_word, or everything to
 * the cold half; a sample so taken makes its word the hint.  rp_bpf_step's
 * facts, and a hint that stays a hint. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    requires rp_hint_ok(hint, hs);
    requires loaded != 0 ==> room >= 16 && rp_word_at(data, off, w);
    assigns \nothing;
    ensures hstep_status: \result.r.st == RP_OK || \result.r.st == RP_EMPTY ||
              \result.r.st == RP_OTHER || \result.r.st < 0;
    ensures hstep_empty: \result.r.st == RP_EMPTY ==> t == head;
    ensures hstep_other: \result.r.st == RP_OTHER ==>
              rp_frame_ok(data, size, head, t) && !rp_is_bpf_output_at(data, size, off);
    ensures hstep_pos: \result.r.st == RP_OK ==> \result.r.s.pos == t && \result.r.t % 8 == 0;
    ensures hstep_adv: \result.r.st == RP_OK ==> rp_dist(\result.r.t, t) == \result.r.s.size;
    ensures hstep_head: \result.r.st == RP_OK ==>
              rp_dist(head, \result.r.t) == rp_dist(head, t) - \result.r.s.size;
    ensures hstep_hdr: \result.r.st == RP_OK ==>
              rp_bpf_sample_hdr(data, size, \result.r.s.pos, \result.r.s.size,
                                \result.r.s.raw_size);
    ensures hstep_len: \result.r.st == RP_OK ==>
              rp_bpf_sample_len(\result.r.s.size, \result.r.s.raw_size, \result.r.s.data.n0,
                                \result.r.s.data.n1);
    ensures hstep_geom: \result.r.st == RP_OK ==>
              rp_payload_in_ring(data, size, rp_off(\result.r.s.pos, size), \result.r.s.data);
    ensures hstep_off: \result.r.st == RP_OK ==> \result.r.off == rp_off(\result.r.t, size);
    ensures hstep_room: \result.r.st == RP_OK ==>
              rp_room_ok(size, head, \result.r.t, \result.r.off, \result.r.room);
    ensures hstep_hint: rp_hint_ok(\result.hint, \result.hint_size);
*/
RP_INLINE rp_bpf_hinted rp_bpf_step_rest(const uint8_t *data, uint64_t size, uint64_t head,
                                          uint64_t t, uint64_t off, uint64_t room, uint64_t hint,
                                          uint64_t hs, int loaded, uint64_t w);

/* Start a walk of [tail, head) of ring (one division: the offset). */
/*@ requires rp_ring_ok(ring);
    requires \valid(it);
    requires \separated(it, ring);
    requires \separated(it, ring->data + (0 .. ring->size - 1));
    assigns *it;
    ensures init_ok: rp_ring_iter_ok(it);
    ensures init_at: it->data == ring->data && it->size == ring->size &&
              it->head == head && it->tail == tail;
*/
RP_INLINE void rp_ring_iter_init(rp_ring_iter *it, const rp_ring *ring, uint64_t head,
                                uint64_t tail);

/* The sample at it->tail into *s, and it->tail moved past it: RP_OK.
 * Otherwise nothing moves (*s is not written) and the status says why:
 * RP_EMPTY (it->tail == it->head),
 * RP_OTHER (a well-framed record that is not a BPF-output sample), or the
 * framing error rp_ring_next gives at it->tail. */
/*@ requires rp_ring_iter_ok(it);
    requires \valid(s);
    requires \separated(s, it);
    requires \separated(s, it->data + (0 .. it->size - 1));
    assigns it->tail, it->off, it->room, it->hint, it->hint_size, *s;
    ensures next_ok: rp_ring_iter_ok(it);
    ensures next_status: \result == RP_OK || \result == RP_EMPTY || \result == RP_OTHER ||
              \result < 0;
    ensures next_stay: \result != RP_OK ==> it->tail == \old(it->tail);
    ensures next_empty: \result == RP_EMPTY ==> it->tail == it->head;
    ensures next_other: \result == RP_OTHER ==>
              rp_frame_ok(it->data, it->size, it->head, it->tail) &&
              !rp_is_bpf_output_at(it->data, it->size, it->off);
    ensures next_pos: \result == RP_OK ==> s->pos == \old(it->tail);
    ensures next_adv: \result == RP_OK ==> rp_dist(it->tail, s->pos) == s->size;
    ensures next_head: \result == RP_OK ==>
              rp_dist(it->head, it->tail) == rp_dist(it->head, s->pos) - s->size;
    ensures next_hdr: \result == RP_OK ==>
              rp_bpf_sample_hdr(it->data, it->size, s->pos, s->size, s->raw_size);
    ensures next_len: \result == RP_OK ==>
              rp_bpf_sample_len(s->size, s->raw_size, s->data.n0, s->data.n1);
    ensures next_geom: \result == RP_OK ==>
              rp_payload_in_ring(it->data, it->size, rp_off(s->pos, it->size), s->data);
*/
RP_INLINE rp_status rp_ring_iter_next_bpf(rp_ring_iter *it, rp_bpf_sample *s);

/* A record by value, with the status: rec is meaningful on RP_OK only. */
typedef struct rp_ring_taken {
	rp_status st;
	rp_record rec;
} rp_ring_taken;

/* Status st and the empty record at t (no type, no body): where both
 * record takes start. */
/*@ assigns \nothing;
    ensures \result.st == st && \result.rec.pos == t;
    ensures \result.rec.body.p0 == data && \result.rec.body.n0 == 0;
    ensures \result.rec.body.p1 == data && \result.rec.body.n1 == 0;
*/
RP_INLINE rp_ring_taken rp_ring_none(rp_status st, const uint8_t *data, uint64_t t);

/* The record at off, whose header h the caller read, when it lies inside
 * room: RP_OK (size at least 8 and a multiple of 8, within the room; its
 * body one slice), or RP_MORE (not decided here). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires 8 <= room && off + room < size;
    requires h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             h.size == rp_hdr_size_at(data, off);
    assigns \nothing;
    ensures rw_status: \result.st == RP_OK || \result.st == RP_MORE;
    ensures rw_ok: \result.st == RP_OK ==>
              \result.rec.pos == t && 8 <= \result.rec.size <= room &&
              \result.rec.size % 8 == 0 && \result.rec.size == h.size &&
              \result.rec.type == h.type && \result.rec.misc == h.misc &&
              rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
*/
RP_INLINE rp_ring_taken rp_ring_take_within(const uint8_t *data, uint64_t size, uint64_t t,
                                            uint64_t off, uint64_t room, rp_header h);

/* What a record step returns: the record, the place and room after it. */
typedef struct rp_ring_stepped {
	rp_status st;
	uint64_t t;    /* the position after the record, on RP_OK */
	uint64_t off;  /* its offset, on RP_OK */
	uint64_t room; /* the room from it, on RP_OK */
	rp_record rec; /* on RP_OK */
} rp_ring_stepped;

/* Everything rp_ring_step's common path does not take: the record at t by
 * rp_ring_take (the header given in h when loaded != 0), the place moved
 * past it and the room measured afresh.  Out of line. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires loaded != 0 ==> t % 8 == 0 && 8 <= rp_dist(head, t) <= size &&
             h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             h.size == rp_hdr_size_at(data, off);
    assigns \nothing;
    ensures rc_status: \result.st == RP_OK || \result.st == RP_EMPTY || \result.st < 0;
    ensures rc_empty: \result.st == RP_EMPTY ==> t == head;
    ensures rc_pos: \result.st == RP_OK ==>
              \result.rec.pos == t && rp_dist(\result.t, t) == \result.rec.size &&
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.rec.size;
    ensures rc_hdr: \result.st == RP_OK ==>
              \result.rec.size == rp_hdr_size_at(data, off) &&
              \result.rec.type == rp_hdr_type_at(data, off) &&
              \result.rec.misc == rp_hdr_misc_at(data, off);
    ensures rc_size: \result.st == RP_OK ==> \result.rec.size % 8 == 0;
    ensures rc_body: \result.st == RP_OK ==>
              rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
    ensures rc_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures rc_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
rp_ring_stepped rp_ring_step_cold(const uint8_t *data, uint64_t size, uint64_t head, uint64_t t,
                                  uint64_t off, int loaded, rp_header h);

/* One record step with the room: rp_ring_take_within, else
 * rp_ring_step_cold; by value, as rp_bpf_step. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    assigns \nothing;
    ensures rs_status: \result.st == RP_OK || \result.st == RP_EMPTY || \result.st < 0;
    ensures rs_empty: \result.st == RP_EMPTY ==> t == head;
    ensures rs_pos: \result.st == RP_OK ==>
              \result.rec.pos == t && rp_dist(\result.t, t) == \result.rec.size &&
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.rec.size;
    ensures rs_hdr: \result.st == RP_OK ==>
              \result.rec.size == rp_hdr_size_at(data, off) &&
              \result.rec.type == rp_hdr_type_at(data, off) &&
              \result.rec.misc == rp_hdr_misc_at(data, off);
    ensures rs_body: \result.st == RP_OK ==>
              rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
    ensures rs_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures rs_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_ring_stepped rp_ring_step(const uint8_t *data, uint64_t size, uint64_t head,
                                       uint64_t t, uint64_t off, uint64_t room);

/* rp_ring_step after its common path loaded the header word w at off (room
 * >= 8), as rp_bpf_step_word is rp_bpf_step's. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room) && room >= 8;
    requires rp_word_at(data, off, w);
    assigns \nothing;
    ensures rw_status: \result.st == RP_OK || \result.st == RP_EMPTY || \result.st < 0;
    ensures rw_empty: \result.st == RP_EMPTY ==> t == head;
    ensures rw_pos: \result.st == RP_OK ==>
              \result.rec.pos == t && rp_dist(\result.t, t) == \result.rec.size &&
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.rec.size;
    ensures rw_hdr: \result.st == RP_OK ==>
              \result.rec.size == rp_hdr_size_at(data, off) &&
              \result.rec.type == rp_hdr_type_at(data, off) &&
              \result.rec.misc == rp_hdr_misc_at(data, off);
    ensures rw_size: \result.st == RP_OK ==> \result.rec.size % 8 == 0;
    ensures rw_body: \result.st == RP_OK ==>
              rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
    ensures rw_off: \result.st == RP_OK ==> \result.off == rp_off(\result.t, size);
    ensures rw_room: \result.st == RP_OK ==>
              rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_ring_stepped rp_ring_step_word(const uint8_t *data, uint64_t size, uint64_t head,
                                            uint64_t t, uint64_t off, uint64_t room, uint64_t w);

/* The record at off whose header h the caller knows (a header word equal
 * to the iterator's hint), of hs bytes (8 or more, a multiple of 8) before
 * the ring end: rp_ring_take_within's record without its checks. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires 8 <= hs && hs % 8 == 0 && off + hs < size;
    requires h.type == rp_hdr_type_at(data, off) && h.misc == rp_hdr_misc_at(data, off) &&
             hs == rp_hdr_size_at(data, off);
    assigns \nothing;
    ensures rh_pos: \result.rec.pos == t && \result.rec.size == hs;
    ensures rh_hdr: \result.rec.type == h.type && \result.rec.misc == h.misc;
    ensures rh_body: rp_body_in_ring(data, size, off, hs, \result.rec.body);
*/
RP_INLINE rp_ring_taken rp_ring_take_hinted(const uint8_t *data, uint64_t size, uint64_t t,
                                            uint64_t off, rp_header h, uint64_t hs);

/* A record step of the iterator: the step and the hint after it. */
typedef struct rp_ring_hinted {
	rp_ring_stepped r;
	uint64_t hint;
	uint64_t hint_size;
} rp_ring_hinted;

/* The iterator's record step where the header word w at off equals the
 * hint and the hint's size hs fits the room: the record taken from the
 * hint (rp_ring_take_hinted) and the place moved with two adds. */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    requires 8 <= hs <= room && hs % 8 == 0;
    requires rp_word_at(data, off, w) && rp_word_size(w) == hs;
    assigns \nothing;
    ensures ro_status: \result.st == RP_OK;
    ensures ro_pos: \result.rec.pos == t && rp_dist(\result.t, t) == \result.rec.size &&
              rp_dist(head, \result.t) == rp_dist(head, t) - \result.rec.size;
    ensures ro_hdr: \result.rec.size == rp_hdr_size_at(data, off) &&
              \result.rec.type == rp_hdr_type_at(data, off) &&
              \result.rec.misc == rp_hdr_misc_at(data, off);
    ensures ro_body: rp_body_in_ring(data, size, off, \result.rec.size, \result.rec.body);
    ensures ro_off: \result.off == rp_off(\result.t, size);
    ensures ro_room: rp_room_ok(size, head, \result.t, \result.off, \result.room);
*/
RP_INLINE rp_ring_stepped rp_ring_step_on_hint(const uint8_t *data, uint64_t size, uint64_t head,
                                               uint64_t t, uint64_t off, uint64_t room,
                                               uint64_t hs, uint64_t w);

/* The rest of the iterator's record step, as rp_bpf_step_rest: the word
 * (loaded by the caller, or here if 8 bytes of room are left) to
 * rp_ring_step_word, or everything to the cold half; a SAMPLE of 16 bytes
 * or more so taken makes its word the hint (the sample step shares the
 * hint and trusts its type). */
/*@ requires rp_ring_size_ok(size) && \valid_read(data + (0 .. size - 1));
    requires off == rp_off(t, size);
    requires rp_room_ok(size, head, t, off, room);
    requires rp_hint_ok(hint, hs);
    requires loaded != 0 ==> room >= 8 && rp_word_at(data, off, w);
    assigns \nothing;
    ensures rhs_status: \result.r.st == RP_OK || \result.r.st == RP_EMPTY || \result.r.st < 0;
    ensures rhs_empty: \result.r.st == RP_EMPTY ==> t == head;
    ensures rhs_pos: \result.r.st == RP_OK ==>
              \result.r.rec.pos == t && rp_dist(\result.r.t, t) == \result.r.rec.size &&
              rp_dist(head, \result.r.t) == rp_dist(head, t) - \result.r.rec.size;
    ensures rhs_hdr: \result.r.st == RP_OK ==>
              \result.r.rec.size == rp_hdr_size_at(data, off) &&
              \result.r.rec.type == rp_hdr_type_at(data, off) &&
              \result.r.rec.misc == rp_hdr_misc_at(data, off);
    ensures rhs_body: \result.r.st == RP_OK ==>
              rp_body_in_ring(data, size, off, \result.r.rec.size, \result.r.rec.body);
    ensures rhs_off: \result.r.st == RP_OK ==> \result.r.off == rp_off(\result.r.t, size);
    ensures rhs_room: \result.r.st == RP_OK ==>
              rp_room_ok(size, head, \result.r.t, \result.r.off, \result.r.room);
    ensures rhs_hint: rp_hint_ok(\result.hint, \result.hint_size);
*/
RP_INLINE rp_ring_hinted rp_ring_step_rest(const uint8_t *data, uint64_t size, uint64_t head,
                                           uint64_t t, uint64_t off, uint64_t room, uint64_t hint,
                                           uint64_t hs, int loaded, uint64_t w);

/* The record at it->tail whatever its kind, as rp_ring_next decodes it,
 * and the walk moved past it: RP_OK.  Otherwise rp_ring_next's status, and
 * nothing moves. */
/*@ requires rp_ring_iter_ok(it);
    requires \valid(rec);
    requires \separated(rec, it);
    requires \separated(rec, it->data + (0 .. it->size - 1));
    assigns it->tail, it->off, it->room, it->hint, it->hint_size, *rec;
    ensures record_ok: rp_ring_iter_ok(it);
    ensures record_status: \result == RP_OK || \result == RP_EMPTY || \result < 0;
    ensures record_stay: \result != RP_OK ==> it->tail == \old(it->tail);
    ensures record_empty: \result == RP_EMPTY ==> it->tail == it->head;
    ensures record_pos: \result == RP_OK ==>
              rec->pos == \old(it->tail) && rp_dist(it->tail, rec->pos) == rec->size &&
              rp_dist(it->head, it->tail) == rp_dist(it->head, rec->pos) - rec->size;
    ensures record_hdr: \result == RP_OK ==>
              rec->size == rp_hdr_size_at(it->data, rp_off(rec->pos, it->size)) &&
              rec->type == rp_hdr_type_at(it->data, rp_off(rec->pos, it->size)) &&
              rec->misc == rp_hdr_misc_at(it->data, rp_off(rec->pos, it->size));
    ensures record_body: \result == RP_OK ==>
              rp_body_in_ring(it->data, it->size, rp_off(rec->pos, it->size), rec->size,
                              rec->body);
*/
RP_INLINE rp_status rp_ring_iter_next(rp_ring_iter *it, rp_record *rec);

/* ---- definitions (see RP_INLINE in rp_prim.h) ----------------------------- */
#if !defined(__FRAMAC__) || defined(RP_DEFINE_RING)
RP_INLINE rp_bpf_taken rp_bpf_none(rp_status st, const uint8_t *data, uint64_t t)
{
	rp_bpf_taken res;
	res.st = st;
	res.s.pos = t;
	res.s.size = 0;
	res.s.raw_size = 0;
	res.s.data.p0 = data;
	res.s.data.n0 = 0;
	res.s.data.p1 = data;
	res.s.data.n1 = 0;
	return res;
}


RP_INLINE rp_bpf_taken rp_bpf_take_within(const uint8_t *data, uint64_t size, uint64_t t,
                                           uint64_t off, uint64_t room, rp_header h)
{
	rp_bpf_taken res = rp_bpf_none(RP_MORE, data, t);
	(void)size; /* the contract's: off + room < size bounds every read */
	if (h.type != RP_RECORD_SAMPLE || h.size < 16u || h.size % 8u != 0 || h.size > room)
		return res;
	const uint32_t raw = rp_load_u32(data + off + 8u);
	//@ assert raw == rp_raw_size_at(data, size, off);
	res.st = RP_OTHER;
	if (raw > h.size - 12u)
		return res;

	res.st = RP_OK;
	res.s.size = h.size;
	res.s.raw_size = raw;
	res.s.data.p0 = data + off + 12u;
	res.s.data.n0 = raw;
	return res;
}


RP_INLINE uint64_t rp_room_at(uint64_t size, uint64_t head, uint64_t t, uint64_t off)
{
	const uint64_t ahead = rp_pos_dist(head, t);
	if (t % 8u != 0 || ahead > size)
		return 0;
	const uint64_t to_end = size - 1u - off;
	const uint64_t to_wrap = UINT64_MAX - t;
	const uint64_t r = ahead < to_end ? ahead : to_end;
	return r < to_wrap ? r : to_wrap;
}

RP_INLINE rp_bpf_taken rp_bpf_take_hinted(const uint8_t *data, uint64_t size, uint64_t t,
                                           uint64_t off, uint64_t hs)
{
	rp_bpf_taken res = rp_bpf_none(RP_OTHER, data, t);
	(void)size; /* the contract's: off + hs < size bounds every read */
	const uint32_t raw = rp_load_u32(data + off + 8u);
	//@ assert raw == rp_raw_size_at(data, size, off);

	if (raw > hs - 12u)
		return res;
	res.st = RP_OK;
	res.s.size = (uint32_t)hs;
	res.s.raw_size = raw;
	res.s.data.p0 = data + off + 12u;
	res.s.data.n0 = raw;
	return res;
}

RP_INLINE rp_bpf_stepped rp_bpf_step_word(const uint8_t *data, uint64_t size, uint64_t head,
                                           uint64_t t, uint64_t off, uint64_t room, uint64_t w)
{
	rp_bpf_stepped res;
	const rp_header h = rp_header_of(w);
	const rp_bpf_taken k = rp_bpf_take_within(data, size, t, off, room, h);

	if (k.st != RP_MORE) {
		res.st = k.st;
		res.s = k.s;
		res.t = t;
		res.off = off;
		res.room = 0;
		if (k.st == RP_OK) {
			const rp_place next = rp_place_within(size, t, off, k.s.size);
			res.t = next.pos;
			res.off = next.off;
			res.room = room - k.s.size;
		}
		return res;
	}
	/* Copied field by field: returned directly, the cold call's result and
	 * the common path's would share one object in memory (clang 14 then
	 * keeps the step's result on the stack, a store and a load per record
	 * on the common path). */
	const rp_bpf_stepped cold = rp_bpf_step_cold(data, size, head, t, off, 1, h);
	res.st = cold.st;
	res.t = cold.t;
	res.off = cold.off;
	res.room = cold.room;
	res.s = cold.s;
	return res;
}

RP_INLINE rp_bpf_stepped rp_bpf_step(const uint8_t *data, uint64_t size, uint64_t head,
                                      uint64_t t, uint64_t off, uint64_t room)
{
	rp_bpf_stepped res;
	const rp_header unread = { 0, 0, 0 };

	if (room >= 16u)
		return rp_bpf_step_word(data, size, head, t, off, room,
		                        rp_load_header_word(data + off));
	/* Field by field, as rp_bpf_step_word's. */
	const rp_bpf_stepped cold = rp_bpf_step_cold(data, size, head, t, off, 0, unread);
	res.st = cold.st;
	res.t = cold.t;
	res.off = cold.off;
	res.room = cold.room;
	res.s = cold.s;
	return res;
}

RP_INLINE void rp_ring_iter_init(rp_ring_iter *it, const rp_ring *ring, uint64_t head,
                                uint64_t tail)
{
	const uint64_t off = rp_pos_off(tail, ring->size);

	it->data = ring->data;
	it->size = ring->size;
	it->head = head;
	it->tail = tail;
	it->off = off;
	it->room = rp_room_at(ring->size, head, tail, off);
	it->hint = 0;
	it->hint_size = UINT64_MAX; /* no hint */
}

RP_INLINE rp_bpf_stepped rp_bpf_step_on_hint(const uint8_t *data, uint64_t size, uint64_t head,
                                              uint64_t t, uint64_t off, uint64_t room,
                                              uint64_t hs)
{
	rp_bpf_stepped res;
	const rp_bpf_taken k = rp_bpf_take_hinted(data, size, t, off, hs);

	(void)head; /* the contract's: the room is measured to it */
	res.st = k.st;
	res.s = k.s;
	res.t = t;
	res.off = off;
	res.room = 0;
	if (k.st == RP_OK) {
		const rp_place next = rp_place_within(size, t, off, hs);
		res.t = next.pos;
		res.off = next.off;
		res.room = room - hs;
	}
	return res;
}

RP_INLINE rp_bpf_hinted rp_bpf_step_rest(const uint8_t *data, uint64_t size, uint64_t head,
                                          uint64_t t, uint64_t off, uint64_t room, uint64_t hint,
                                          uint64_t hs, int loaded, uint64_t w)
{
	rp_bpf_hinted res;

	res.hint = hint;
	res.hint_size = hs;
	if (!loaded) {
		if (room < 16u) {
			res.r = rp_bpf_step(data, size, head, t, off, room);
			return res;
		}
		w = rp_load_header_word(data + off);
	}
	res.r = rp_bpf_step_word(data, size, head, t, off, room, w);
	if (res.r.st == RP_OK) {
		res.hint = w;
		res.hint_size = res.r.s.size;
	}
	return res;
}

/* The common path of both iterator steps, in the step itself: one header
 * load, compared whole with the hint, so that in a run of records of one
 * header (a BPF program's events of one size) the record's size and the
 * next offset come from the hint, a value the walk had before the load,
 * and the loads of successive records do not wait for each other
 * (bench/RESULTS.md, Run AF).  The hint's size is tested before the load
 * and the word after it: as one condition after the load, gcc 12 computed
 * both tests into flags and branched once on their and (five more
 * instructions per record in the adapter's payload drain, counted by
 * callgrind).  A word that is not the hint goes to the rest of the step
 * with it (single fetch). */
RP_INLINE rp_status rp_ring_iter_next_bpf(rp_ring_iter *it, rp_bpf_sample *s)
{
	uint64_t w = 0;
	int loaded = 0;

	if (RP_LIKELY(it->hint_size <= it->room)) {
		w = rp_load_header_word(it->data + it->off);
		if (RP_LIKELY(w == it->hint)) {
			const rp_bpf_stepped r = rp_bpf_step_on_hint(it->data, it->size, it->head,
			                                             it->tail, it->off, it->room,
			                                             it->hint_size);
			if (r.st == RP_OK) {
				*s = r.s;
				it->tail = r.t;
				it->off = r.off;
				it->room = r.room;
			}
			return r.st;
		}
		loaded = 1;
	}
	const rp_bpf_hinted h = rp_bpf_step_rest(it->data, it->size, it->head, it->tail, it->off,
	                                         it->room, it->hint, it->hint_size, loaded, w);
	if (h.r.st == RP_OK) {
		*s = h.r.s;
		it->tail = h.r.t;
		it->off = h.r.off;
		it->room = h.r.room;
		it->hint = h.hint;
		it->hint_size = h.hint_size;
	}
	return h.r.st;
}

RP_INLINE rp_ring_taken rp_ring_none(rp_status st, const uint8_t *data, uint64_t t)
{
	rp_ring_taken res;
	res.st = st;
	res.rec.pos = t;
	res.rec.type = 0;
	res.rec.misc = 0;
	res.rec.size = 0;
	res.rec.body.p0 = data;
	res.rec.body.n0 = 0;
	res.rec.body.p1 = data;
	res.rec.body.n1 = 0;
	return res;
}

RP_INLINE rp_ring_taken rp_ring_take_within(const uint8_t *data, uint64_t size, uint64_t t,
                                            uint64_t off, uint64_t room, rp_header h)
{
	rp_ring_taken res = rp_ring_none(RP_MORE, data, t);

	(void)size; /* the contract's: off + room < size bounds the body */
	if (h.size < 8u || h.size % 8u != 0 || h.size > room)
		return res;
	res.st = RP_OK;
	res.rec.type = h.type;
	res.rec.misc = h.misc;
	res.rec.size = h.size;
	res.rec.body.p0 = data + off + 8u;
	res.rec.body.n0 = h.size - 8u;
	return res;
}

RP_INLINE rp_ring_taken rp_ring_take_hinted(const uint8_t *data, uint64_t size, uint64_t t,
                                            uint64_t off, rp_header h, uint64_t hs)
{
	rp_ring_taken res = rp_ring_none(RP_OK, data, t);

	(void)size; /* the contract's: off + hs < size bounds the body */
	res.rec.type = h.type;
	res.rec.misc = h.misc;
	res.rec.size = (uint16_t)hs;
	res.rec.body.p0 = data + off + 8u;
	res.rec.body.n0 = (uint32_t)hs - 8u;
	return res;
}

RP_INLINE rp_ring_stepped rp_ring_step_word(const uint8_t *data, uint64_t size, uint64_t head,
                                            uint64_t t, uint64_t off, uint64_t room, uint64_t w)
{
	rp_ring_stepped res;
	const rp_header h = rp_header_of(w);
	const rp_ring_taken k = rp_ring_take_within(data, size, t, off, room, h);

	if (k.st == RP_OK) {
		const rp_place next = rp_place_within(size, t, off, k.rec.size);
		res.st = RP_OK;
		res.rec = k.rec;
		res.t = next.pos;
		res.off = next.off;
		res.room = room - k.rec.size;
		return res;
	}
	/* Field by field, as rp_bpf_step_word's. */
	const rp_ring_stepped cold = rp_ring_step_cold(data, size, head, t, off, 1, h);
	res.st = cold.st;
	res.t = cold.t;
	res.off = cold.off;
	res.room = cold.room;
	res.rec = cold.rec;
	return res;
}

RP_INLINE rp_ring_stepped rp_ring_step(const uint8_t *data, uint64_t size, uint64_t head,
                                       uint64_t t, uint64_t off, uint64_t room)
{
	rp_ring_stepped res;
	const rp_header unread = { 0, 0, 0 };

	if (room >= 8u)
		return rp_ring_step_word(data, size, head, t, off, room,
		                         rp_load_header_word(data + off));
	/* Field by field, as rp_bpf_step_word's. */
	const rp_ring_stepped cold = rp_ring_step_cold(data, size, head, t, off, 0, unread);
	res.st = cold.st;
	res.t = cold.t;
	res.off = cold.off;
	res.room = cold.room;
	res.rec = cold.rec;
	return res;
}

RP_INLINE rp_ring_stepped rp_ring_step_on_hint(const uint8_t *data, uint64_t size, uint64_t head,
                                               uint64_t t, uint64_t off, uint64_t room,
                                               uint64_t hs, uint64_t w)
{
	rp_ring_stepped res;
	const rp_ring_taken k = rp_ring_take_hinted(data, size, t, off, rp_header_of(w), hs);
	const rp_place next = rp_place_within(size, t, off, hs);

	(void)head; /* the contract's: the room is measured to it */
	res.st = RP_OK;
	res.rec = k.rec;
	res.t = next.pos;
	res.off = next.off;
	res.room = room - hs;
	return res;
}

RP_INLINE rp_ring_hinted rp_ring_step_rest(const uint8_t *data, uint64_t size, uint64_t head,
                                           uint64_t t, uint64_t off, uint64_t room, uint64_t hint,
                                           uint64_t hs, int loaded, uint64_t w)
{
	rp_ring_hinted res;

	res.hint = hint;
	res.hint_size = hs;
	if (!loaded) {
		if (room < 8u) {
			res.r = rp_ring_step(data, size, head, t, off, room);
			return res;
		}
		w = rp_load_header_word(data + off);
	}
	res.r = rp_ring_step_word(data, size, head, t, off, room, w);
	if (res.r.st == RP_OK && res.r.rec.type == RP_RECORD_SAMPLE && res.r.rec.size >= 16u) {
		res.hint = w;
		res.hint_size = res.r.rec.size;
	}
	return res;
}

/* As rp_ring_iter_next_bpf, with the record step. */
RP_INLINE rp_status rp_ring_iter_next(rp_ring_iter *it, rp_record *rec)
{
	uint64_t w = 0;
	int loaded = 0;

	if (RP_LIKELY(it->hint_size <= it->room)) {
		w = rp_load_header_word(it->data + it->off);
		if (RP_LIKELY(w == it->hint)) {
			const rp_ring_stepped r = rp_ring_step_on_hint(it->data, it->size, it->head,
			                                               it->tail, it->off, it->room,
			                                               it->hint_size, w);
			*rec = r.rec;
			it->tail = r.t;
			it->off = r.off;
			it->room = r.room;
			return RP_OK;
		}
		loaded = 1;
	}
	const rp_ring_hinted h = rp_ring_step_rest(it->data, it->size, it->head, it->tail, it->off,
	                                           it->room, it->hint, it->hint_size, loaded, w);
	if (h.r.st == RP_OK) {
		*rec = h.r.rec;
		it->tail = h.r.t;
		it->off = h.r.off;
		it->room = h.r.room;
		it->hint = h.hint;
		it->hint_size = h.hint_size;
	}
	return h.r.st;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
