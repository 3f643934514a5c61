/* The user ring buffer producer (BPF_MAP_TYPE_USER_RINGBUF; docs/abi.md).
 *
 * User space writes records, a BPF program drains them with
 * bpf_user_ringbuf_drain.  The layout is the BPF ring buffer's: the data
 * area is size bytes at data, positions are free-running u64 byte counters,
 * each record is an 8-byte header (u32 len word: bits 0-29 length, bit 30
 * DISCARD, bit 31 BUSY; then a u32 the kernel ignores here, written 0)
 * followed by the payload, and occupies round_up(len + 8, 8) bytes.
 *
 * The producer owns producer_pos, the kernel owns consumer_pos (mapped
 * read-only).  The adapter acquire-loads consumer_pos, passes it and its
 * own producer position in; rp_user_ring_reserve writes the header with
 * BUSY set and returns the new producer position, which the adapter then
 * release-stores to producer_pos (so the header is visible first).  The
 * caller writes the payload and calls rp_user_ring_commit, which clears
 * BUSY (and sets DISCARD for a discard) with one release store of the
 * header's top byte, so the payload is visible before the kernel can see
 * the record as committed.
 *
 * The kernel's rules (kernel/bpf/ringbuf.c, __bpf_user_ringbuf_peek): the
 * drain stops at a BUSY record, skips a DISCARD record, and fails with
 * -EINVAL on a misaligned producer_pos or a record reaching past it, and
 * with -E2BIG on a record larger than the ring or a payload larger than a
 * dynptr holds (2^24 - 1 bytes) -- without consuming it, so such a record
 * would stop the ring for good.  Reserve therefore refuses len > 2^24 - 1
 * (RP_UR_LEN_MAX) although the header field has 30 bits: a length < 2^24
 * also leaves the whole top byte of the len word to the flags, which is
 * what makes commit a single-byte store.
 *
 * Wrap: the kernel maps the data area twice in a row, so in the adapter's
 * mapping a payload is contiguous at data + off + 8.  The core does not
 * rely on that: it returns the payload as an rp_span of at most two slices
 * inside data[0 .. size - 1] (the second when the payload wraps), built by
 * rp_slices_after, the same primitive and predicate (rp_slices_in_ring) as
 * the readers'.  The slices are const only because rp_span is the core's
 * read-side type; they point into the caller's writable ring.
 *
 * Proved (core/rp_user_ring.c): every write is inside data[0 .. size - 1]
 * and reserve writes exactly the 8 header bytes at producer mod size, the
 * len word being len | BUSY and the other word 0; commit writes exactly one
 * byte, turning the pending len | BUSY into len, or len | DISCARD; the
 * payload span lies in the ring after the header and never reaches back
 * into it; the producer advances by exactly round_up(len + 8, 8), stays
 * 8-aligned and never passes consumer + size; each error is its own
 * behavior (complete, disjoint) with assigns \nothing.
 * Tested, not proved: the memory ordering (release stores, acquire loads:
 * outside the proof's sequential model; x86-64 only), the kernel's reading
 * of the records (user-ring-integration: a BPF program drains them), the
 * user_ring fuzz harness (oracle: nothing written outside the header bytes,
 * headers valid, positions as the kernel computes them).
 */
#ifndef RP_USER_RING_H
#define RP_USER_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_prim.h"
#include "rp_ringbuf.h"
#include "rp_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest payload: the kernel's drain hands samples to the program as
 * a dynptr, which holds at most 2^24 - 1 bytes (DYNPTR_MAX_SIZE). */
#define RP_UR_LEN_MAX 0xffffffu

/* The len word's top byte (bits 24-31; a length < 2^24 leaves it to the
 * flags): RP_RB_BUSY_BIT >> 24 while reserved, RP_RB_DISCARD_BIT >> 24 once
 * discarded (BPF_RINGBUF_BUSY_BIT, BPF_RINGBUF_DISCARD_BIT). */
#define RP_UR_TOP_BUSY 0x80u
#define RP_UR_TOP_DISCARD 0x40u

/* Every store to ring memory goes through RP_STORE_U8.  In gcc/clang
 * builds it is a release store (x86-64: a plain mov; arm64: stlrb): the
 * commit's flag byte is ordered after the payload writes.  The proof sees
 * a plain store. */
#ifndef RP_STORE_U8
#if defined(__GNUC__) && !defined(__FRAMAC__)
#define RP_STORE_U8(p, v) __atomic_store_n((p), (uint8_t)(v), __ATOMIC_RELEASE)
#else
#define RP_STORE_U8(p, v) (*(p) = (uint8_t)(v))
#endif
#endif

/* A reservation: the record whose header reserve wrote. */
typedef struct rp_ur_rsv {
	uint64_t pos;    /* producer position of the header */
	uint64_t off;    /* header offset in the ring: pos mod size */
	uint32_t len;    /* payload length */
	uint32_t size;   /* bytes the record occupies: round_up(len + 8, 8) */
	rp_span payload; /* where the len payload bytes go: at most two slices */
} rp_ur_rsv;

/*@
  // The len word of the header at offset o (host order: little endian).
  logic integer rp_ur_word(uint8_t *d, integer o) =
    rp_le32(d[o], d[o + 1], d[o + 2], d[o + 3]);

  // The header at offset o as reserve leaves it, pending: the len word is
  // len | BUSY (len < 2^30), the second word 0.
  predicate rp_ur_pending(uint8_t *d, integer o, integer len) =
    rp_ur_word(d, o) == len + rp_rb_busy_bit &&
    d[o + 4] == 0 && d[o + 5] == 0 && d[o + 6] == 0 && d[o + 7] == 0;

  // A reservation at producer position p of len payload bytes, in a ring
  // of size bytes: where its header is and what it occupies, inside the ring.
  predicate rp_ur_reserved(rp_ur_rsv *r, integer p, integer len, integer size) =
    r->pos == p && r->len == len && r->off == rp_off(p, size) &&
    r->size == rp_rb_total(len) &&
    r->off + 8 <= size && len + 8 <= r->size <= size;

  // The producer moved from p to np by step bytes towards the consumer c,
  // 8-aligned, and is still at most a ring (size) ahead of it.
  predicate rp_ur_advanced(integer np, integer p, integer c, integer step, integer size) =
    np % 8 == 0 && rp_dist(np, p) == step &&
    rp_dist(np, c) == rp_dist(p, c) + step && rp_dist(np, c) <= size;

  // Reserve's preconditions on the ring, as the other walks state them.
  predicate rp_ur_ring_ok(uint8_t *d, integer size) =
    rp_ring_size_ok(size) && \valid(d + (0 .. size - 1));
*/

/* Reserve a record of len payload bytes at *producer.
 *
 * RP_OK: the header at rsv->off holds len | BUSY (and a zero second word),
 *        rsv describes the record, *producer advanced by rsv->size.
 * Errors, checked in this order, each leaving *producer, *rsv and the ring
 * untouched: RP_E_UR_LEN (len > RP_UR_LEN_MAX), RP_E_UR_TOO_BIG (the
 * record is larger than the ring: it can never fit), RP_E_UR_OVERRUN
 * (producer - consumer > size), RP_E_UR_ALIGN (a position not 8-aligned),
 * RP_E_UR_FULL (the record does not fit in the free room, size - (producer
 * - consumer): retry once the consumer advanced). */
/*@ requires rp_ur_ring_ok(data, size);
    requires \valid(producer) && \valid(rsv);
    requires \separated(producer, rsv);
    requires \separated(producer, data + (0 .. size - 1));
    requires \separated(rsv, data + (0 .. size - 1));
    assigns *producer, *rsv,
            data[rp_off(*producer, size) .. rp_off(*producer, size) + 7];

    // Every error writes nothing: one behavior for all of them (the
    // complement of ok), so that the frame is proved once.
    behavior failed:
      assumes !(len <= RP_UR_LEN_MAX && rp_rb_total(len) <= size &&
                rp_dist(*producer, consumer) <= size &&
                consumer % 8 == 0 && *producer % 8 == 0 &&
                rp_rb_total(len) <= size - rp_dist(*producer, consumer));
      assigns \nothing;
    behavior too_long:
      assumes len > RP_UR_LEN_MAX;
      ensures \result == RP_E_UR_LEN;
    behavior too_big:
      assumes len <= RP_UR_LEN_MAX && rp_rb_total(len) > size;
      ensures \result == RP_E_UR_TOO_BIG;
    behavior overrun:
      assumes len <= RP_UR_LEN_MAX && rp_rb_total(len) <= size;
      assumes rp_dist(*producer, consumer) > size;
      ensures \result == RP_E_UR_OVERRUN;
    behavior misaligned:
      assumes len <= RP_UR_LEN_MAX && rp_rb_total(len) <= size;
      assumes rp_dist(*producer, consumer) <= size;
      assumes consumer % 8 != 0 || *producer % 8 != 0;
      ensures \result == RP_E_UR_ALIGN;
    behavior full:
      assumes len <= RP_UR_LEN_MAX && rp_rb_total(len) <= size;
      assumes rp_dist(*producer, consumer) <= size;
      assumes consumer % 8 == 0 && *producer % 8 == 0;
      assumes rp_rb_total(len) > size - rp_dist(*producer, consumer);
      ensures \result == RP_E_UR_FULL;
    behavior ok:
      assumes len <= RP_UR_LEN_MAX && rp_rb_total(len) <= size;
      assumes rp_dist(*producer, consumer) <= size;
      assumes consumer % 8 == 0 && *producer % 8 == 0;
      assumes rp_rb_total(len) <= size - rp_dist(*producer, consumer);
      ensures \result == RP_OK;
      // (each named property one predicate, proved once per path)
      ensures ur_rsv: rp_ur_reserved(rsv, \old(*producer), len, size);
      ensures ur_hdr: rp_ur_pending(data, rp_off(\old(*producer), size), len);
      ensures ur_payload: rp_slices_in_ring(data, size, rp_off(\old(*producer), size), len,
                                           rsv->payload);
      // the payload bytes (offsets b .. b + n0 - 1, then 0 .. n1 - 1) and
      // the header (o .. o + 7) are apart
      ensures ur_apart: \let o = rp_off(\old(*producer), size);
                \let b = rp_body_off(o, size);
                (b + rsv->payload.n0 <= o || b >= o + 8) && rsv->payload.n1 <= o;
      ensures ur_step: rp_ur_advanced(*producer, \old(*producer), consumer, rsv->size, size);
    complete behaviors too_long, too_big, overrun, misaligned, full, ok;
    disjoint behaviors too_long, too_big, overrun, misaligned, full, ok;
*/
rp_status rp_user_ring_reserve(uint8_t *data, uint64_t size, uint64_t consumer,
                               uint64_t *producer, uint32_t len, rp_ur_rsv *rsv);

/* Commit the reservation whose header is at offset off: submit (discard
 * false: the len word becomes len) or discard (len | DISCARD).  One byte is
 * written: the len word's top byte, which a pending reservation holds as
 * exactly 0x80 (BUSY, no DISCARD, len < 2^24).
 *
 * Errors, writing nothing: RP_E_UR_OFF (off is not 8-aligned or not a
 * header slot of the ring), RP_E_UR_NOT_RESERVED (no pending reservation
 * there: committed already, or never reserved). */
/*@ requires rp_ur_ring_ok(data, size);
    assigns data[off + 3];

    // Every error writes nothing: one behavior for all of them (the
    // complement of commit), so that the frame is proved once.
    behavior failed:
      assumes !(off % 8 == 0 && off + 8 <= size && data[off + 3] == RP_UR_TOP_BUSY);
      assigns \nothing;
    behavior bad_off:
      assumes off % 8 != 0 || off + 8 > size;
      ensures \result == RP_E_UR_OFF;
    behavior not_reserved:
      assumes off % 8 == 0 && off + 8 <= size;
      assumes data[off + 3] != RP_UR_TOP_BUSY;
      ensures \result == RP_E_UR_NOT_RESERVED;
    behavior commit:
      assumes off % 8 == 0 && off + 8 <= size;
      assumes data[off + 3] == RP_UR_TOP_BUSY;
      ensures \result == RP_OK;
      ensures ur_old: \old(rp_ur_word(data, off)) ==
                rp_rb_len(\old(rp_ur_word(data, off))) + rp_rb_busy_bit;
      ensures ur_new: rp_ur_word(data, off) ==
                rp_rb_len(\old(rp_ur_word(data, off))) + (discard ? rp_rb_discard_bit : 0);
    complete behaviors bad_off, not_reserved, commit;
    disjoint behaviors bad_off, not_reserved, commit;
*/
rp_status rp_user_ring_commit(uint8_t *data, uint64_t size, uint64_t off, bool discard);

#ifdef __cplusplus
}
#endif

#endif
