#include "rp_span.h"

RP_HOT uint8_t rp_span_byte(rp_span s, uint32_t i)
{
	return i < s.n0 ? RP_LOAD_U8(s.p0 + i) : RP_LOAD_U8(s.p1 + (i - s.n0));
}

/* Each reader checks the bound once in 64-bit arithmetic (off + n cannot
 * overflow there) and reads every byte exactly once: with one load when the
 * value lies in the first slice (the common case), else byte by byte into a
 * composed by the same primitive as the loads. */

RP_HOT bool rp_span_get_u16(rp_span s, uint32_t off, uint16_t *out)
{
	if ((uint64_t)off + 2u > (uint64_t)s.n0 + s.n1)
		return false;
	if ((uint64_t)off + 2u <= s.n0) {
		*out = rp_load_u16(s.p0 + off);
		return true;
	}
	const uint8_t b0 = rp_span_byte(s, off);
	const uint8_t b1 = rp_span_byte(s, off + 1u);
	*out = rp_bytes_u16(b0, b1);
	return true;
}

RP_HOT bool rp_span_get_u32(rp_span s, uint32_t off, uint32_t *out)
{
	if ((uint64_t)off + 4u > (uint64_t)s.n0 + s.n1)
		return false;
	if ((uint64_t)off + 4u <= s.n0) {
		*out = rp_load_u32(s.p0 + off);
		return true;
	}
	const uint8_t b0 = rp_span_byte(s, off);
	const uint8_t b1 = rp_span_byte(s, off + 1u);
	const uint8_t b2 = rp_span_byte(s, off + 2u);
	const uint8_t b3 = rp_span_byte(s, off + 3u);
	*out = rp_bytes_u32(b0, b1, b2, b3);
	return true;
}

RP_HOT bool rp_span_get_u64(rp_span s, uint32_t off, uint64_t *out)
{
	if ((uint64_t)off + 8u > (uint64_t)s.n0 + s.n1)
		return false;
	if ((uint64_t)off + 8u <= s.n0) {
		*out = rp_load_u64(s.p0 + off);
		return true;
	}
	const uint8_t b0 = rp_span_byte(s, off);
	const uint8_t b1 = rp_span_byte(s, off + 1u);
	const uint8_t b2 = rp_span_byte(s, off + 2u);
	const uint8_t b3 = rp_span_byte(s, off + 3u);
	const uint8_t b4 = rp_span_byte(s, off + 4u);
	const uint8_t b5 = rp_span_byte(s, off + 5u);
	const uint8_t b6 = rp_span_byte(s, off + 6u);
	const uint8_t b7 = rp_span_byte(s, off + 7u);
	*out = rp_bytes_u64(b0, b1, b2, b3, b4, b5, b6, b7);
	return true;
}

RP_HOT bool rp_span_sub(rp_span s, uint32_t off, uint32_t len, rp_span *out)
{
	if ((uint64_t)off + len > (uint64_t)s.n0 + s.n1)
		return false;
	if (off >= s.n0) {
		/* entirely in the second slice */
		out->p0 = s.p1 + (off - s.n0);
		out->n0 = len;
		out->p1 = s.p1;
		out->n1 = 0;
	} else if (len <= s.n0 - off) {
		/* entirely in the first slice */
		out->p0 = s.p0 + off;
		out->n0 = len;
		out->p1 = s.p1;
		out->n1 = 0;
	} else {
		out->p0 = s.p0 + off;
		out->n0 = s.n0 - off;
		out->p1 = s.p1;
		out->n1 = len - (s.n0 - off);
	}
	return true;
}

uint32_t rp_span_copy(rp_span s, uint8_t *dst, uint32_t cap)
{
	const uint32_t n0 = s.n0 < cap ? s.n0 : cap;
	const uint32_t rest = cap - n0;
	const uint32_t n1 = s.n1 < rest ? s.n1 : rest;

	/*@ loop invariant 0 <= i <= n0;
	    loop invariant \forall integer k; 0 <= k < i ==> dst[k] == s.p0[k];
	    loop assigns i, dst[0 .. n0 - 1];
	    loop variant n0 - i;
	*/
	for (uint32_t i = 0; i < n0; i++)
		dst[i] = RP_LOAD_U8(s.p0 + i);
	/*@ loop invariant 0 <= i <= n1;
	    loop invariant \forall integer k; 0 <= k < n0 ==> dst[k] == s.p0[k];
	    loop invariant \forall integer k; 0 <= k < i ==> dst[n0 + k] == s.p1[k];
	    loop assigns i, dst[n0 .. n0 + n1 - 1];
	    loop variant n1 - i;
	*/
	for (uint32_t i = 0; i < n1; i++)
		dst[n0 + i] = RP_LOAD_U8(s.p1 + i);
	return n0 + n1;
}
