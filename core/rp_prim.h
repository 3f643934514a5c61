/* The primitives every walk and view is built from, proved once here.
 *
 * Conventions stated once for the whole core:
 * - A ring is `size` bytes at `data` with 8 <= size <= 2^32 and size % 8 == 0
 *   (the kernel's power-of-two rule is the adapters' to check).
 * - Positions are free-running u64 byte counters; the byte at position p is
 *   at offset p mod size.  Distances and sums of positions are taken on the
 *   u64 circle, computed by branches so that no C operation wraps.
 * - Multi-byte values are composed in host byte order from single-byte
 *   loads, each through RP_LOAD_U8 (one load per byte: single fetch).  The
 *   composition is written as a sum of shifted bytes, the form both gcc 12
 *   and clang 14 merge into one load at -O2 (gcc does not merge `256u * b`).
 * - A span is a byte sequence that may wrap the ring end: two slices,
 *   p0[0 .. n0) then p1[0 .. n1).
 * - A perf record header is read as one 8-byte word (rp_load_header_word),
 *   compared whole where a walk expects a header (its hint), and split into
 *   type, misc and size (rp_header_of) where it checks one.
 *
 * Proved: each function's contract below (RTE-free, overflow-free, exact
 * values).  The proof covers the x86-64 (little-endian) machdep; the
 * big-endian branch of the loads is compiled, tested on no machine here, and
 * not proved.
 */
#ifndef RP_PRIM_H
#define RP_PRIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_span {
	const uint8_t *p0; /* first slice */
	const uint8_t *p1; /* second slice (the wrapped part); n1 == 0 if none */
	uint32_t n0;
	uint32_t n1;
} rp_span;

/* Every load from ring memory goes through RP_LOAD_U8, so that a test build
 * can interpose on it (the hostile-producer fuzzer hands back a rewritten
 * byte on every re-read and counts loads per offset).  Real builds read memory. */
#ifndef RP_LOAD_U8
#define RP_LOAD_U8(p) (*(p))
#endif

/* Marks a function of the hot path: the library compiles the walks, spans
 * and views as one unit, where these are inlined into their callers (no
 * call per record).  The proofs see ordinary functions: an attribute does
 * not change what the code means. */
#if defined(__GNUC__) && !defined(__FRAMAC__)
#define RP_HOT __attribute__((always_inline)) inline
#define RP_COLD __attribute__((noinline, cold))
#else
#define RP_HOT
#define RP_COLD
#endif

/* A branch the walks take on nearly every record (a header equal to the
 * hint): laid out as the fall-through.  Only a layout hint to the
 * compiler; the proofs see the bare condition. */
#if defined(__GNUC__) && !defined(__FRAMAC__)
#define RP_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define RP_LIKELY(c) (c)
#endif

/* A function a caller's loop must inline, outside the library too (the
 * primitives here, the walks' common paths and their iterators), is defined
 * in its module's header: static inline for a compiler, so that an agent's
 * loop over an iterator makes no call per record.  Frama-C sees it as an
 * ordinary function declared in the header and defined in the module's .c
 * file only (which defines RP_DEFINE_<MODULE> before its includes), so it
 * is proved once.  RP_INLINE_LOCAL is the same for a helper that only the
 * header's own definitions call (static for Frama-C too). */
#if defined(__FRAMAC__)
#define RP_INLINE
#define RP_INLINE_LOCAL static
#elif defined(__GNUC__)
#define RP_INLINE static inline __attribute__((always_inline))
#define RP_INLINE_LOCAL RP_INLINE
#else
#define RP_INLINE static inline
#define RP_INLINE_LOCAL RP_INLINE
#endif

/* The header word whole: an empty asm that passes w through unchanged, so
 * that clang keeps the header as one 8-byte load (without it clang 14 sees
 * that only parts of the word are used and narrows the composition into
 * byte loads, each byte still once).  gcc keeps the one load by itself.  The
 * proofs do not see it: it does not change what the code means. */
#if defined(__clang__) && !defined(__FRAMAC__)
#define RP_WHOLE_U64(w) __asm__("" : "+r"(w))
#else
#define RP_WHOLE_U64(w) ((void)0)
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RP_BIG_ENDIAN 1
#else
#define RP_BIG_ENDIAN 0
#endif

/*@
  // The largest ring the core accepts, and the u64 circle.
  logic integer RP_RING_MAX = 4294967296;
  logic integer RP_U64_MOD = 18446744073709551616;

  predicate rp_ring_size_ok(integer size) =
    8 <= size <= RP_RING_MAX && size % 8 == 0;

  predicate rp_span_ok(rp_span s) =
    s.n0 + s.n1 <= 4294967295 &&
    \valid_read(s.p0 + (0 .. s.n0 - 1)) &&
    \valid_read(s.p1 + (0 .. s.n1 - 1));

  logic integer rp_span_len(rp_span s) = s.n0 + s.n1;

  logic integer rp_span_at(rp_span s, integer i) =
    i < s.n0 ? s.p0[i] : s.p1[i - s.n0];

  // Host byte order of the proved target (x86-64: little endian).
  logic integer rp_le16(integer b0, integer b1) = b0 + 256 * b1;
  logic integer rp_le32(integer b0, integer b1, integer b2, integer b3) =
    rp_le16(b0, b1) + 65536 * rp_le16(b2, b3);
  logic integer rp_le64(integer b0, integer b1, integer b2, integer b3,
                        integer b4, integer b5, integer b6, integer b7) =
    rp_le32(b0, b1, b2, b3) + 4294967296 * rp_le32(b4, b5, b6, b7);

  // Bytes from t to h on the u64 circle.
  logic integer rp_dist(integer h, integer t) =
    h >= t ? h - t : h - t + RP_U64_MOD;

  // Offset in a ring of `size` bytes of the 8-aligned position p.
  logic integer rp_off(integer p, integer size) = 8 * ((p / 8) % (size / 8));

  // Where the bytes after an 8-byte header at offset o start.  Written >=,
  // not ==: an == test inside a logic ?: does not prove with cvc4/cvc5.
  logic integer rp_body_off(integer o, integer size) = o + 8 >= size ? 0 : o + 8;

  // The len bytes after the 8-byte header at offset o of the ring
  // (data, rsize), as a span: in the ring, wrapping at most once, never
  // reaching back into the header.  The one predicate every walk states
  // about the bodies and payloads it returns.
  predicate rp_slices_in_ring(uint8_t *data, integer rsize, integer o,
                              integer len, rp_span b) =
    b.p0 == data + rp_body_off(o, rsize) &&
    b.n0 <= rsize - rp_body_off(o, rsize) &&
    b.p1 == data &&
    (b.n1 == 0 || b.n0 == rsize - rp_body_off(o, rsize)) &&
    (b.n1 == 0 || b.n1 <= o) &&
    b.n0 + b.n1 == len &&
    rp_span_ok(b);
*/

/* h - t on the u64 circle. */
/*@ assigns \nothing;
    ensures \result == rp_dist(h, t);
*/
RP_INLINE uint64_t rp_pos_dist(uint64_t h, uint64_t t);

/* t + n on the u64 circle (n at most a ring size). */
/*@ requires n <= RP_RING_MAX;
    assigns \nothing;
    ensures \result == (t + n < RP_U64_MOD ? t + n : t + n - RP_U64_MOD);
    ensures rp_dist(\result, t) == n;
*/
RP_INLINE uint64_t rp_pos_add(uint64_t t, uint64_t n);

/* Offset of position pos in a ring of size bytes, rounded down to 8.
 * Division, not a mask: size need not be a power of two here, and the
 * provers handle / and % far better than bitwise and. */
/*@ requires rp_ring_size_ok(size);
    assigns \nothing;
    ensures \result == rp_off(pos, size);
    ensures \result % 8 == 0 && \result + 8 <= size;
*/
RP_INLINE uint64_t rp_pos_off(uint64_t pos, uint64_t size);

/* A walk's place: a position and its offset in the ring. */
typedef struct rp_place {
	uint64_t pos;
	uint64_t off;
} rp_place;

/* The place s bytes (a record) after position t at offset off: the
 * position on the u64 circle, and the offset carried from off with one add
 * and one compare instead of a division per record.  Every walk that
 * carries an offset from record to record (perf, BPF ring buffer) steps
 * here. */
/*@ requires rp_ring_size_ok(size);
    requires t % 8 == 0 && s % 8 == 0 && 8 <= s <= size;
    requires off == rp_off(t, size);
    assigns \nothing;
    ensures \result.pos == (t + s < RP_U64_MOD ? t + s : t + s - RP_U64_MOD);
    ensures rp_dist(\result.pos, t) == s;
    ensures \result.off == rp_off(\result.pos, size);
*/
RP_INLINE rp_place rp_place_after(uint64_t size, uint64_t t, uint64_t off, uint64_t s);

/* The same step when the caller knows the record ends before both the ring
 * end and 2^64: two adds, no compare (the walks' common case). */
/*@ requires rp_ring_size_ok(size);
    requires t % 8 == 0 && s % 8 == 0;
    requires off == rp_off(t, size);
    requires off + s < size && t + s < RP_U64_MOD;
    assigns \nothing;
    ensures \result.pos == t + s;
    ensures rp_dist(\result.pos, t) == s;
    ensures \result.off == off + s;
    ensures \result.off == rp_off(\result.pos, size);
*/
RP_INLINE rp_place rp_place_within(uint64_t size, uint64_t t, uint64_t off, uint64_t s);

/* Compose bytes into a value in host byte order (b0 is the byte at the
 * lowest address).  The loads below and the spans' wrapped reads share them. */
/*@ assigns \nothing;
    ensures \result == rp_le16(b0, b1);
*/
RP_INLINE uint16_t rp_bytes_u16(uint8_t b0, uint8_t b1);

/*@ assigns \nothing;
    ensures \result == rp_le32(b0, b1, b2, b3);
*/
RP_INLINE uint32_t rp_bytes_u32(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3);

/*@ assigns \nothing;
    ensures \result == rp_le64(b0, b1, b2, b3, b4, b5, b6, b7);
*/
RP_INLINE uint64_t rp_bytes_u64(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3,
                                uint8_t b4, uint8_t b5, uint8_t b6, uint8_t b7);

/* Load a value from ring memory: each byte once, through RP_LOAD_U8. */
/*@ requires \valid_read(p + (0 .. 1));
    assigns \nothing;
    ensures \result == rp_le16(p[0], p[1]);
*/
RP_INLINE uint16_t rp_load_u16(const uint8_t *p);

/*@ requires \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures \result == rp_le32(p[0], p[1], p[2], p[3]);
*/
RP_INLINE uint32_t rp_load_u32(const uint8_t *p);

/*@ requires \valid_read(p + (0 .. 7));
    assigns \nothing;
    ensures \result == rp_le64(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
*/
RP_INLINE uint64_t rp_load_u64(const uint8_t *p);

/* A perf record header (u32 type, u16 misc, u16 size), read with one
 * 8-byte load and split in registers. */
typedef struct rp_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
} rp_header;

/*@
  // The fields of a header word (host order: the x86-64 machdep's).
  logic integer rp_word_type(integer w) = w % 4294967296;
  logic integer rp_word_misc(integer w) = (w / 4294967296) % 65536;
  logic integer rp_word_size(integer w) = w / 281474976710656;
*/

/* The 8 header bytes at p as one word, one 8-byte load: the walks compare
 * it whole with the header they expect (a hint) and split it with
 * rp_header_of. */
/*@ requires \valid_read(p + (0 .. 7));
    assigns \nothing;
    ensures word_type: rp_word_type(\result) == rp_le32(p[0], p[1], p[2], p[3]);
    ensures word_misc: rp_word_misc(\result) == rp_le16(p[4], p[5]);
    ensures word_size: rp_word_size(\result) == rp_le16(p[6], p[7]);
*/
RP_INLINE uint64_t rp_load_header_word(const uint8_t *p);

/* A header word split into its fields, in registers. */
/*@ assigns \nothing;
    ensures \result.type == rp_word_type(w);
    ensures \result.misc == rp_word_misc(w);
    ensures \result.size == rp_word_size(w);
*/
RP_INLINE rp_header rp_header_of(uint64_t w);

/*@ requires \valid_read(p + (0 .. 7));
    assigns \nothing;
    ensures \result.type == rp_le32(p[0], p[1], p[2], p[3]);
    ensures \result.misc == rp_le16(p[4], p[5]);
    ensures \result.size == rp_le16(p[6], p[7]);
*/
RP_INLINE rp_header rp_load_header(const uint8_t *p);

/* The len bytes after the 8-byte header at offset off: from off + 8 (0 if
 * the header ends the ring), wrapping at most once.  len + 8 <= rsize, so
 * they never reach back into the header. */
/*@ requires rp_ring_size_ok(rsize);
    requires off % 8 == 0 && off + 8 <= rsize;
    requires len + 8 <= rsize;
    requires \valid_read(data + (0 .. rsize - 1));
    assigns \nothing;
    ensures rp_slices_in_ring(data, rsize, off, len, \result);
*/
RP_INLINE rp_span rp_slices_after(const uint8_t *data, uint64_t rsize, uint64_t off,
                                  uint32_t len);

/* ---- definitions (see RP_INLINE) ------------------------------------------ */
#if !defined(__FRAMAC__) || defined(RP_DEFINE_PRIM)

RP_INLINE uint64_t rp_pos_dist(uint64_t h, uint64_t t)
{
	return h >= t ? h - t : (UINT64_MAX - t) + h + 1u;
}

RP_INLINE uint64_t rp_pos_add(uint64_t t, uint64_t n)
{
	return UINT64_MAX - t >= n ? t + n : n - (UINT64_MAX - t) - 1u;
}

RP_INLINE uint64_t rp_pos_off(uint64_t pos, uint64_t size)
{
	return 8u * ((pos / 8u) % (size / 8u));
}

/* (m * q + r) mod m == r: the one modular fact the offset step needs. */
/*@ ghost
/@ requires 0 < m && 0 <= r < m;
   assigns \nothing;
   ensures (m * q + r) % m == r;
@/
static void rp_mod_fact(uint64_t m, uint64_t q, uint64_t r)
{
}
*/

/* The offset of t2 = t + s (on the u64 circle), from t's offset.  When the
 * position passes 2^64 the offset jumps (unless size divides 2^64, which the
 * core does not assume), so that rare step divides again.  The ghost call
 * gives the provers the one modular fact the step needs, instantiated with
 * the terms at hand (as a lemma they do not find the instance). */
/*@ requires rp_ring_size_ok(size);
    requires t % 8 == 0 && s % 8 == 0 && 8 <= s <= size;
    requires off == rp_off(t, size);
    requires t2 == (t + s < RP_U64_MOD ? t + s : t + s - RP_U64_MOD);
    assigns \nothing;
    ensures \result == rp_off(t2, size);
*/
RP_INLINE_LOCAL uint64_t rp_off_after(uint64_t size, uint64_t t, uint64_t off, uint64_t s,
                                    uint64_t t2)
{
	if (t2 < t)
		return rp_pos_off(t2, size);
	/*@ ghost
	  uint64_t m = size / 8;
	  uint64_t q = (t / 8) / m;
	*/
	//@ assert t / 8 == m * q + off / 8;
	//@ assert t2 / 8 == t / 8 + s / 8;
	uint64_t o = off + s;
	if (o >= size) {
		o -= size;
		//@ ghost rp_mod_fact(m, q + 1, o / 8);
		//@ assert t2 / 8 == m * (q + 1) + o / 8;
	} else {
		//@ ghost rp_mod_fact(m, q, o / 8);
		//@ assert t2 / 8 == m * q + o / 8;
	}
	return o;
}

RP_INLINE rp_place rp_place_after(uint64_t size, uint64_t t, uint64_t off, uint64_t s)
{
	rp_place next;

	next.pos = rp_pos_add(t, s);
	next.off = rp_off_after(size, t, off, s, next.pos);
	return next;
}

RP_INLINE rp_place rp_place_within(uint64_t size, uint64_t t, uint64_t off, uint64_t s)
{
	rp_place next;
	(void)size; /* the contract's: the offset stays below it */
	/*@ ghost
	  uint64_t m = size / 8;
	  uint64_t q = (t / 8) / m;
	*/
	//@ assert t / 8 == m * q + off / 8;
	next.pos = t + s;
	next.off = off + s;
	//@ assert next.pos / 8 == t / 8 + s / 8;
	//@ ghost rp_mod_fact(m, q, next.off / 8);
	//@ assert next.pos / 8 == m * q + next.off / 8;
	return next;
}

/* Each shifted byte is named and stated as a product (WP's bitshift tactic
 * proves the link; the provers then see plain linear arithmetic).  A sum of
 * shifts, not an OR and not `256u * b`: the one form gcc 12 and clang 14
 * both merge into a single load after inlining. */

RP_INLINE uint16_t rp_bytes_u16(uint8_t b0, uint8_t b1)
{
#if RP_BIG_ENDIAN
	return (uint16_t)(((uint32_t)b0 << 8) + b1);
#else
	const uint32_t s1 = (uint32_t)b1 << 8;
	//@ assert s1 == b1 * 256;
	return (uint16_t)(b0 + s1);
#endif
}

RP_INLINE uint32_t rp_bytes_u32(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
#if RP_BIG_ENDIAN
	return ((uint32_t)b0 << 24) + ((uint32_t)b1 << 16) + ((uint32_t)b2 << 8) + b3;
#else
	const uint32_t s1 = (uint32_t)b1 << 8;
	//@ assert s1 == b1 * 256;
	const uint32_t s2 = (uint32_t)b2 << 16;
	//@ assert s2 == b2 * 65536;
	const uint32_t s3 = (uint32_t)b3 << 24;
	//@ assert s3 == b3 * 16777216;
	return b0 + s1 + s2 + s3;
#endif
}

RP_INLINE uint64_t rp_bytes_u64(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3,
                                uint8_t b4, uint8_t b5, uint8_t b6, uint8_t b7)
{
#if RP_BIG_ENDIAN
	return ((uint64_t)b0 << 56) + ((uint64_t)b1 << 48) + ((uint64_t)b2 << 40) +
	       ((uint64_t)b3 << 32) + ((uint64_t)b4 << 24) + ((uint64_t)b5 << 16) +
	       ((uint64_t)b6 << 8) + b7;
#else
	const uint64_t s1 = (uint64_t)b1 << 8;
	//@ assert s1 == b1 * 256;
	const uint64_t s2 = (uint64_t)b2 << 16;
	//@ assert s2 == b2 * 65536;
	const uint64_t s3 = (uint64_t)b3 << 24;
	//@ assert s3 == b3 * 16777216;
	const uint64_t s4 = (uint64_t)b4 << 32;
	//@ assert s4 == b4 * 4294967296;
	const uint64_t s5 = (uint64_t)b5 << 40;
	//@ assert s5 == b5 * 1099511627776;
	const uint64_t s6 = (uint64_t)b6 << 48;
	//@ assert s6 == b6 * 281474976710656;
	const uint64_t s7 = (uint64_t)b7 << 56;
	//@ assert s7 == b7 * 72057594037927936;
	return b0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
#endif
}

RP_INLINE uint16_t rp_load_u16(const uint8_t *p)
{
	return rp_bytes_u16(RP_LOAD_U8(p), RP_LOAD_U8(p + 1));
}

RP_INLINE uint32_t rp_load_u32(const uint8_t *p)
{
	return rp_bytes_u32(RP_LOAD_U8(p), RP_LOAD_U8(p + 1), RP_LOAD_U8(p + 2),
	                    RP_LOAD_U8(p + 3));
}

RP_INLINE uint64_t rp_load_u64(const uint8_t *p)
{
	return rp_bytes_u64(RP_LOAD_U8(p), RP_LOAD_U8(p + 1), RP_LOAD_U8(p + 2),
	                    RP_LOAD_U8(p + 3), RP_LOAD_U8(p + 4), RP_LOAD_U8(p + 5),
	                    RP_LOAD_U8(p + 6), RP_LOAD_U8(p + 7));
}

RP_INLINE uint64_t rp_load_header_word(const uint8_t *p)
{
	uint64_t w = rp_load_u64(p);

	/* the high half first: the provers find misc from it, not from w */
	//@ assert high: w / 4294967296 == rp_le32(p[4], p[5], p[6], p[7]);
	RP_WHOLE_U64(w);
	return w;
}

RP_INLINE rp_header rp_header_of(uint64_t w)
{
	rp_header h;

#if RP_BIG_ENDIAN
	h.type = (uint32_t)(w / 4294967296u);
	h.misc = (uint16_t)((w / 65536u) % 65536u);
	h.size = (uint16_t)(w % 65536u);
#else
	h.type = (uint32_t)(w % 4294967296u);
	h.misc = (uint16_t)((w / 4294967296u) % 65536u);
	h.size = (uint16_t)(w / 281474976710656u);
#endif
	return h;
}

RP_INLINE rp_header rp_load_header(const uint8_t *p)
{
	return rp_header_of(rp_load_header_word(p));
}

RP_INLINE rp_span rp_slices_after(const uint8_t *data, uint64_t rsize, uint64_t off,
                                  uint32_t len)
{
	const uint64_t start = off + 8u >= rsize ? 0 : off + 8u;
	const uint64_t room = rsize - start;
	const uint32_t n0 = len <= room ? len : (uint32_t)room;
	rp_span s;

	s.p0 = data + start;
	s.n0 = n0;
	s.p1 = data;
	s.n1 = len - n0;
	return s;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
