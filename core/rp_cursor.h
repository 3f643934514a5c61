/* Cursor parsing over a span: every helper reads at byte offset *off,
 * checks the field fits inside the span, and advances *off past it.  A
 * helper that returns false writes nothing (neither *off nor *out), so a
 * caller can stop at the first field that does not fit. */
#ifndef RP_CURSOR_H
#define RP_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_span.h"

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

  predicate rp_cur_ok(rp_span s, uint32_t *off) =
    rp_span_ok(s) && \valid(off) && *off <= rp_span_len(s) &&
    \separated(off, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
*/

/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    behavior fits:
      assumes *off + 8 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 8;
      ensures *out == rp_span_u64(s, \old(*off));
    behavior outside:
      assumes *off + 8 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_u64(rp_span s, uint32_t *off, uint64_t *out);

/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    behavior fits:
      assumes *off + 4 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 4;
      ensures *out == rp_span_u32(s, \old(*off));
    behavior outside:
      assumes *off + 4 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_u32(rp_span s, uint32_t *off, uint32_t *out);

/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    behavior fits:
      assumes *off + 2 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 2;
      ensures *out == rp_span_u16(s, \old(*off));
    behavior outside:
      assumes *off + 2 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_u16(rp_span s, uint32_t *off, uint16_t *out);

/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    behavior fits:
      assumes *off + 1 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 1;
      ensures *out == rp_span_at(s, \old(*off));
    behavior outside:
      assumes *off + 1 > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_u8(rp_span s, uint32_t *off, uint8_t *out);

/* The next len bytes as a view into s. */
/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    behavior fits:
      assumes *off + len <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + len;
      ensures rp_span_slice(*out, s, \old(*off), len);
      ensures rp_span_inside(*out, s);
    behavior outside:
      assumes *off + len > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_span(rp_span s, uint32_t *off, uint32_t len, rp_span *out);

/* count elements of esz bytes each (count comes from the record and may be
 * anything; the product is bounded before it is formed). */
/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    requires 1 <= esz <= 64;
    assigns *off, *out;
    behavior fits:
      assumes *off + count * esz <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + count * esz;
      ensures rp_span_slice(*out, s, \old(*off), count * esz);
      ensures rp_span_inside(*out, s);
    behavior outside:
      assumes *off + count * esz > rp_span_len(s);
      assigns \nothing;
      ensures \result == \false;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_array(rp_span s, uint32_t *off, uint64_t count, uint32_t esz,
                   rp_span *out);

/* A string field running from *off to the end of s: *out is its bytes up
 * to (not including) the first NUL, or the whole field if it has none.
 * *off moves to the end of s. */
/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    ensures *off == rp_span_len(s);
    ensures rp_span_slice(*out, s, \old(*off), rp_span_len(*out));
    ensures rp_span_inside(*out, s);
    ensures \forall integer k; \old(*off) <= k < \old(*off) + rp_span_len(*out) ==>
              rp_span_at(s, k) != 0;
    ensures \old(*off) + rp_span_len(*out) == rp_span_len(s) ||
            rp_span_at(s, \old(*off) + rp_span_len(*out)) == 0;
*/
void rp_take_string(rp_span s, uint32_t *off, rp_span *out);

/* An optional u64: when present, take it (false if it does not fit); when
 * absent, write 0 and leave *off. */
/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *out;
    ensures \result == \true ==> \old(*off) <= *off <= rp_span_len(s);
*/
bool rp_take_opt_u64(rp_span s, uint32_t *off, bool present, uint64_t *out);

/* Two optional u32 (pid/tid, cpu/res), the same way. */
/*@ requires rp_cur_ok(s, off);
    requires \valid(a) && \valid(c) && \separated(a, c, off);
    requires \separated(a, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    requires \separated(c, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns *off, *a, *c;
    ensures \result == \true ==> \old(*off) <= *off <= rp_span_len(s);
*/
bool rp_take_opt_u32x2(rp_span s, uint32_t *off, bool present, uint32_t *a, uint32_t *c);

/* The first len bytes of s (len <= its length), as a prefix sharing s's
 * slices. */
/*@ requires rp_span_ok(s);
    requires len <= rp_span_len(s);
    assigns \nothing;
    ensures rp_span_prefix(\result, s);
    ensures rp_span_ok(\result);
    ensures rp_span_len(\result) == len;
*/
rp_span rp_span_prefix_of(rp_span s, uint32_t len);

#endif
