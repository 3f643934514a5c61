/* Cursor parsing over a span: every helper reads at byte offset *off,
 * checks the field fits inside the span, and advances *off past it.  On
 * false (or an error status) the caller must stop, and what the helper
 * wrote first depends on the helper, as its contract states:
 *  - rp_take_u8/u16/u32/u64, rp_take_span, rp_take_array: nothing (*off
 *    and *out unchanged);
 *  - rp_take_opt_u64: *out = 0, *off unchanged;
 *  - rp_take_opt_u32x2: *a = *c = 0 with *off unchanged, or, when the
 *    first value fits and the second does not, *a = the first value,
 *    *c = 0 and *off advanced by 4;
 *  - rp_take_read_values: may have written *out and moved *off (its
 *    contract says only that it assigns them).
 *
 * Proved (core/rp_cursor.c): the contracts below.  Tested, not proved:
 * nothing beyond them (tests/parsers drive the helpers through the parsers).
 * An internal header of the parsers (core/rp_sample.c, core/rp_records.c):
 * not installed. */
#ifndef RP_CURSOR_H
#define RP_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_sample.h"
#include "rp_span.h"
#include "rp_status.h"

/*@
  predicate rp_cur_ok(rp_span s, uint32_t *off) =
    rp_span_ok(s) && \valid(off) && *off <= rp_span_len(s) &&
    RP_APART_FROM_SPAN(off, s);
  // The cursor moved forward from `from` to `to`, within p: every parser's
  // summary.  One predicate rather than the chain from <= to <= len, so
  // that each parser proves it once per path (a chain is two goals a path).
  predicate rp_cur_moved(integer from, integer to, rp_span p) =
    from <= to <= rp_span_len(p);
*/

/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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
    requires RP_APART_FROM_SPAN(out, s);
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

/* An optional u64: *out = 0 first; then, when present, take it.  Absent:
 * true, *out == 0, *off unchanged.  Present and fits: as rp_take_u64.
 * Present and does not fit: false, having written *out = 0 (*off
 * unchanged). */
/*@ requires rp_cur_ok(s, off);
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, s);
    assigns *off, *out;
    // Summary for callers (the parsers): what every behavior implies.
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, s);
    behavior absent:
      assumes !present;
      ensures \result == \true;
      ensures *off == \old(*off) && *out == 0;
    behavior fits:
      assumes present && *off + 8 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 8;
      ensures *out == rp_span_u64(s, \old(*off));
    behavior outside:
      assumes present && *off + 8 > rp_span_len(s);
      ensures \result == \false;
      ensures *off == \old(*off) && *out == 0;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_opt_u64(rp_span s, uint32_t *off, bool present, uint64_t *out);

/* Two optional u32 (pid/tid, cpu/res): *a = *c = 0 first; then, when
 * present, take *a and then *c.  A failure can come after the first take:
 * with 4 to 7 bytes left it returns false having stored *a and advanced
 * *off by 4 (*c stays 0); with fewer than 4, false with *a = *c = 0 and
 * *off unchanged. */
/*@ requires rp_cur_ok(s, off);
    requires \valid(a) && \valid(c) && \separated(a, c, off);
    requires RP_APART_FROM_SPAN(a, s);
    requires RP_APART_FROM_SPAN(c, s);
    assigns *off, *a, *c;
    // Summary for callers (the parsers): what every behavior implies.
    ensures \result == \true ==> rp_cur_moved(\old(*off), *off, s);
    behavior absent:
      assumes !present;
      ensures \result == \true;
      ensures *off == \old(*off) && *a == 0 && *c == 0;
    behavior fits:
      assumes present && *off + 8 <= rp_span_len(s);
      ensures \result == \true;
      ensures *off == \old(*off) + 8;
      ensures *a == rp_span_u32(s, \old(*off)) && *c == rp_span_u32(s, \old(*off) + 4);
    behavior first_only:
      assumes present && *off + 4 <= rp_span_len(s) < *off + 8;
      ensures \result == \false;
      ensures *off == \old(*off) + 4;
      ensures *a == rp_span_u32(s, \old(*off)) && *c == 0;
    behavior outside:
      assumes present && *off + 4 > rp_span_len(s);
      ensures \result == \false;
      ensures *off == \old(*off) && *a == 0 && *c == 0;
    complete behaviors;
    disjoint behaviors;
*/
bool rp_take_opt_u32x2(rp_span s, uint32_t *off, bool present, uint32_t *a, uint32_t *c);

/* An empty span on s's slices (both lengths 0): an absent view, which lies
 * inside s (rp_span_inside) whatever s is. */
/*@ assigns \nothing;
    ensures \result.n0 == 0 && \result.n1 == 0 && \result.p1 == s.p1;
    ensures rp_span_ok(\result);
*/
RP_INLINE rp_span rp_span_empty_of(rp_span s);

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

/* read_format values at *off of b (a SAMPLE's READ part, a READ record). */
/*@ requires rp_cur_ok(b, off);
    requires read_format < 32;
    requires \valid(out) && \separated(out, off);
    requires RP_APART_FROM_SPAN(out, b);
    assigns *off, *out;
    ensures \result == RP_OK || \result == RP_E_BODY_SHORT;
    ensures \result == RP_OK ==> rp_cur_moved(\old(*off), *off, b);
    ensures \result == RP_OK ==> rp_read_inside(out, b);
*/
rp_status rp_take_read_values(rp_span b, uint32_t *off, uint64_t read_format,
                              rp_read_values *out);

/* ---- definitions (see RP_INLINE in rp_prim.h) ----------------------------- */
#if !defined(__FRAMAC__) || defined(RP_DEFINE_CURSOR)
RP_INLINE rp_span rp_span_empty_of(rp_span s)
{
	rp_span e = { s.p0, s.p1, 0u, 0u };
	return e;
}
#endif

#endif
