/* Spans: a byte sequence that may wrap the end of a ring, as two slices.
 *
 * Byte i of a span is p0[i] when i < n0, else p1[i - n0].  A span never
 * owns memory; it borrows the ring (or a caller's copy).  Every accessor
 * checks its offset and length against the span and reads each byte once.
 * Multi-byte values are composed in host byte order.
 */
#ifndef RP_SPAN_H
#define RP_SPAN_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rp_span {
	const uint8_t *p0; /* first slice */
	const uint8_t *p1; /* second slice (the wrapped part); n1 == 0 if none */
	uint32_t n0;
	uint32_t n1;
} rp_span;

/*@
  predicate rp_span_ok(rp_span s) =
    s.n0 + s.n1 <= 4294967295 &&
    \valid_read(s.p0 + (0 .. s.n0 - 1)) &&
    \valid_read(s.p1 + (0 .. s.n1 - 1));

  logic integer rp_span_len(rp_span s) = s.n0 + s.n1;

  logic integer rp_span_at(rp_span s, integer i) =
    i < s.n0 ? s.p0[i] : s.p1[i - s.n0];
*/

/* Every load from ring memory goes through RP_LOAD_U8, so that a test build
 * can interpose on it (the hostile-producer fuzzer returns fresh bytes on
 * every load and counts loads per offset).  Real builds read memory. */
#ifndef RP_LOAD_U8
#define RP_LOAD_U8(p) (*(p))
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RP_BIG_ENDIAN 1
#else
#define RP_BIG_ENDIAN 0
#endif

/*@
  // Host byte order of the proved target (x86-64: little endian).
  logic integer rp_le16(integer b0, integer b1) = b0 + 256 * b1;
  logic integer rp_le32(integer b0, integer b1, integer b2, integer b3) =
    rp_le16(b0, b1) + 65536 * rp_le16(b2, b3);
  logic integer rp_le64(integer b0, integer b1, integer b2, integer b3,
                        integer b4, integer b5, integer b6, integer b7) =
    rp_le32(b0, b1, b2, b3) + 4294967296 * rp_le32(b4, b5, b6, b7);

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
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
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
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
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
    requires \separated(out, s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
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
    requires \separated(dst + (0 .. cap - 1),
                        s.p0 + (0 .. s.n0 - 1), s.p1 + (0 .. s.n1 - 1));
    assigns dst[0 .. cap - 1];
    ensures \result == (rp_span_len(s) < cap ? rp_span_len(s) : cap);
    ensures \forall integer i; 0 <= i < \result ==> dst[i] == rp_span_at(s, i);
*/
uint32_t rp_span_copy(rp_span s, uint8_t *dst, uint32_t cap);

#endif
