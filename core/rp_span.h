/* Spans: a byte sequence that may wrap the end of a ring, as two slices.
 *
 * Byte i of a span is p0[i] when i < n0, else p1[i - n0].  A span never
 * owns memory; it borrows the ring (or a caller's copy).  Every accessor
 * checks its offset and length against the span and reads each byte once.
 * Multi-byte values are composed in host byte order.
 *
 * Proved (core/rp_span.c): each reader returns false, writing nothing, when
 * the value does not fit, and otherwise the little-endian value of the bytes
 * at that offset (across the wrap if need be); sub-spans and copies hold
 * exactly the bytes of the span they come from.
 * Tested, not proved: the big-endian branch (no big-endian machine here).
 */
#ifndef RP_SPAN_H
#define RP_SPAN_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_prim.h"

#ifdef __cplusplus
extern "C" {
#endif

/*@
  logic integer rp_span_u16(rp_span s, integer o) =
    rp_le16(rp_span_at(s, o), rp_span_at(s, o + 1));
  logic integer rp_span_u32(rp_span s, integer o) =
    rp_le32(rp_span_at(s, o), rp_span_at(s, o + 1),
            rp_span_at(s, o + 2), rp_span_at(s, o + 3));
  logic integer rp_span_u64(rp_span s, integer o) =
    rp_le64(rp_span_at(s, o), rp_span_at(s, o + 1),
            rp_span_at(s, o + 2), rp_span_at(s, o + 3),
            rp_span_at(s, o + 4), rp_span_at(s, o + 5),
            rp_span_at(s, o + 6), rp_span_at(s, o + 7));
*/

/* Sub-spans: where a view taken from a span lies. */
/*@
  // v is the sub-span [off, off + len) of s, pointing into s's own slices.
  predicate rp_span_slice(rp_span v, rp_span s, integer off, integer len) =
    0 <= off && 0 <= len && off + len <= rp_span_len(s) &&
    rp_span_ok(v) && rp_span_len(v) == len && v.p1 == s.p1 &&
    (off >= s.n0 ==> v.p0 == s.p1 + (off - s.n0) && v.n0 == len && v.n1 == 0) &&
    (off < s.n0 && off + len <= s.n0 ==> v.p0 == s.p0 + off && v.n0 == len && v.n1 == 0) &&
    (off < s.n0 && off + len > s.n0 ==>
       v.p0 == s.p0 + off && v.n0 == s.n0 - off && v.p1 == s.p1 && v.n1 == off + len - s.n0);

  // [p, p + n) lies inside [q, q + m).
  predicate rp_bytes_in(uint8_t *p, integer n, uint8_t *q, integer m) =
    \base_addr(p) == \base_addr(q) && q <= p && p + n <= q + m;

  // v is empty or lies inside s (a slice of s at some offset).  Geometry
  // only: validity follows from s's (lemma rp_inside_ok), and a predicate
  // free of the allocation table survives a function's locals going away.
  predicate rp_span_inside(rp_span v, rp_span s) =
    (rp_span_len(v) == 0 ||
     (v.n1 == 0 && (rp_bytes_in(v.p0, v.n0, s.p0, s.n0) ||
                    rp_bytes_in(v.p0, v.n0, s.p1, s.n1))) ||
     (v.n1 != 0 && v.p1 == s.p1 && v.n1 <= s.n1 && v.n0 <= s.n0 &&
      v.p0 == s.p0 + (s.n0 - v.n0)));

  lemma rp_inside_ok:
    \forall rp_span v, s; rp_span_ok(s) && rp_span_inside(v, s) &&
      v.n0 + v.n1 <= 4294967295 ==> rp_span_ok(v);

  // p is a prefix of s sharing its slices.
  predicate rp_span_prefix(rp_span p, rp_span s) =
    p.p0 == s.p0 && p.p1 == s.p1 && p.n0 <= s.n0 && p.n1 <= s.n1 &&
    (p.n1 != 0 ==> p.n0 == s.n0);

  // A view inside a prefix of s is inside s.
  lemma rp_inside_prefix:
    \forall rp_span v, p, s;
      rp_span_prefix(p, s) && rp_span_inside(v, p) ==> rp_span_inside(v, s);
*/

/* Separation from a span's bytes: the object at p (RP_APART_FROM_SPAN), or
 * the n objects p[0 .. n - 1] (RP_APART_FROM_SPAN_N), share no byte with
 * either slice of s.  Every contract that writes through a pointer while it
 * reads a span states it this way.
 *
 * A macro (expanded in the annotations), not an ACSL predicate: ACSL has no
 * predicate over a pointer to any type (Frama-C rejects
 * "predicate P<A>(A *p)"), and WP's simplifier does not unfold a predicate,
 * so the goals it closed on the clause went to the provers instead (tried:
 * a goal of rp_bpf_output_view that the simplifier had closed, and one of
 * parse_mmap2 that took cvc4 529,208 steps, both ran into the 900 s safety
 * limit on a loaded machine).  The macro gives WP the same clause, so every
 * proof task is what it was. */
#define RP_APART_FROM_SPAN(p, s) \
	\separated((p), (s).p0 + (0 .. (s).n0 - 1), (s).p1 + (0 .. (s).n1 - 1))
#define RP_APART_FROM_SPAN_N(p, n, s) \
	\separated((p) + (0 .. (n) - 1), (s).p0 + (0 .. (s).n0 - 1), \
	            (s).p1 + (0 .. (s).n1 - 1))

/*@ requires rp_span_ok(s);
    requires i < rp_span_len(s);
    assigns \nothing;
    ensures \result == rp_span_at(s, i);
*/
uint8_t rp_span_byte(rp_span s, uint32_t i);

/* Read a value at byte offset off.  Return false, writing nothing, when the
 * value does not fit inside the span. */

/*@ requires rp_span_ok(s);
    requires \valid(out);
    requires RP_APART_FROM_SPAN(out, s);
    assigns *out;
    behavior fits:
      assumes off + 2 <= rp_span_len(s);
      ensures \result == \true;
      ensures *out == rp_span_u16(s, off);
    behavior outside:
      assumes off + 2 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_span_get_u16(rp_span s, uint32_t off, uint16_t *out);

/*@ requires rp_span_ok(s);
    requires \valid(out);
    requires RP_APART_FROM_SPAN(out, s);
    assigns *out;
    behavior fits:
      assumes off + 4 <= rp_span_len(s);
      ensures \result == \true;
      ensures *out == rp_span_u32(s, off);
    behavior outside:
      assumes off + 4 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_span_get_u32(rp_span s, uint32_t off, uint32_t *out);

/*@ requires rp_span_ok(s);
    requires \valid(out);
    requires RP_APART_FROM_SPAN(out, s);
    assigns *out;
    behavior fits:
      assumes off + 8 <= rp_span_len(s);
      ensures \result == \true;
      ensures *out == rp_span_u64(s, off);
    behavior outside:
      assumes off + 8 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_span_get_u64(rp_span s, uint32_t off, uint64_t *out);

/* The sub-span [off, off + len).  Return false, writing nothing, when it
 * does not lie inside s. */
/*@ requires rp_span_ok(s);
    requires \valid(out);
    assigns *out;
    behavior fits:
      assumes off + len <= rp_span_len(s);
      ensures \result == \true;
      ensures rp_span_ok(*out);
      ensures rp_span_len(*out) == len;
      ensures \forall integer i; 0 <= i < len ==>
                rp_span_at(*out, i) == rp_span_at(s, off + i);
      ensures out->n1 == 0 || out->p1 == s.p1;
    behavior outside:
      assumes off + len > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_span_sub(rp_span s, uint32_t off, uint32_t len, rp_span *out);

/* Copy the first min(len(s), cap) bytes of s to dst; return how many. */
/*@ requires rp_span_ok(s);
    requires \valid(dst + (0 .. cap - 1));
    requires RP_APART_FROM_SPAN_N(dst, cap, s);
    assigns dst[0 .. cap - 1];
    ensures \result == (rp_span_len(s) < cap ? rp_span_len(s) : cap);
    ensures \forall integer i; 0 <= i < \result ==> dst[i] == rp_span_at(s, i);
*/
uint32_t rp_span_copy(rp_span s, uint8_t *dst, uint32_t cap);

#ifdef __cplusplus
}
#endif

#endif
