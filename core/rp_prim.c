#include "rp_prim.h"

RP_HOT uint64_t rp_pos_dist(uint64_t h, uint64_t t)
{
	return h >= t ? h - t : (UINT64_MAX - t) + h + 1u;
}

RP_HOT uint64_t rp_pos_add(uint64_t t, uint64_t n)
{
	return UINT64_MAX - t >= n ? t + n : n - (UINT64_MAX - t) - 1u;
}

RP_HOT uint64_t rp_pos_off(uint64_t pos, uint64_t size)
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
static RP_HOT uint64_t rp_off_after(uint64_t size, uint64_t t, uint64_t off, uint64_t s,
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

RP_HOT rp_place rp_place_after(uint64_t size, uint64_t t, uint64_t off, uint64_t s)
{
	rp_place next;

	next.pos = rp_pos_add(t, s);
	next.off = rp_off_after(size, t, off, s, next.pos);
	return next;
}

RP_HOT rp_place rp_place_within(uint64_t size, uint64_t t, uint64_t off, uint64_t s)
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

RP_HOT uint16_t rp_bytes_u16(uint8_t b0, uint8_t b1)
{
#if RP_BIG_ENDIAN
	return (uint16_t)(((uint32_t)b0 << 8) + b1);
#else
	const uint32_t s1 = (uint32_t)b1 << 8;
	//@ assert s1 == b1 * 256;
	return (uint16_t)(b0 + s1);
#endif
}

RP_HOT uint32_t rp_bytes_u32(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
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

RP_HOT uint64_t rp_bytes_u64(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3,
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

RP_HOT uint16_t rp_load_u16(const uint8_t *p)
{
	return rp_bytes_u16(RP_LOAD_U8(p), RP_LOAD_U8(p + 1));
}

RP_HOT uint32_t rp_load_u32(const uint8_t *p)
{
	return rp_bytes_u32(RP_LOAD_U8(p), RP_LOAD_U8(p + 1), RP_LOAD_U8(p + 2),
	                    RP_LOAD_U8(p + 3));
}

RP_HOT uint64_t rp_load_u64(const uint8_t *p)
{
	return rp_bytes_u64(RP_LOAD_U8(p), RP_LOAD_U8(p + 1), RP_LOAD_U8(p + 2),
	                    RP_LOAD_U8(p + 3), RP_LOAD_U8(p + 4), RP_LOAD_U8(p + 5),
	                    RP_LOAD_U8(p + 6), RP_LOAD_U8(p + 7));
}

RP_HOT rp_header rp_load_header(const uint8_t *p)
{
	uint64_t w = rp_load_u64(p);
	rp_header h;

	RP_WHOLE_U64(w);

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

RP_HOT rp_span rp_slices_after(const uint8_t *data, uint64_t rsize, uint64_t off,
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
