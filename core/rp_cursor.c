/* The inline definition of rp_cursor.h (RP_INLINE) is proved here. */
#define RP_DEFINE_CURSOR
#include "rp_cursor.h"

bool rp_take_u64(rp_span s, uint32_t *off, uint64_t *out)
{
	uint64_t v;

	if (!rp_span_get_u64(s, *off, &v))
		return false;
	*out = v;
	*off += 8u;
	return true;
}

bool rp_take_u32(rp_span s, uint32_t *off, uint32_t *out)
{
	uint32_t v;

	if (!rp_span_get_u32(s, *off, &v))
		return false;
	*out = v;
	*off += 4u;
	return true;
}

bool rp_take_u16(rp_span s, uint32_t *off, uint16_t *out)
{
	uint16_t v;

	if (!rp_span_get_u16(s, *off, &v))
		return false;
	*out = v;
	*off += 2u;
	return true;
}

bool rp_take_u8(rp_span s, uint32_t *off, uint8_t *out)
{
	if (*off >= s.n0 + s.n1)
		return false;
	*out = rp_span_byte(s, *off);
	*off += 1u;
	return true;
}

bool rp_take_span(rp_span s, uint32_t *off, uint32_t len, rp_span *out)
{
	const uint32_t o = *off;

	if (len > (s.n0 + s.n1) - o)
		return false;
	if (o >= s.n0) {
		out->p0 = s.p1 + (o - s.n0);
		out->n0 = len;
		out->p1 = s.p1;
		out->n1 = 0;
	} else if (len <= s.n0 - o) {
		out->p0 = s.p0 + o;
		out->n0 = len;
		out->p1 = s.p1;
		out->n1 = 0;
	} else {
		out->p0 = s.p0 + o;
		out->n0 = s.n0 - o;
		out->p1 = s.p1;
		out->n1 = len - (s.n0 - o);
	}
	*off = o + len;
	return true;
}

bool rp_take_array(rp_span s, uint32_t *off, uint64_t count, uint32_t esz,
                   rp_span *out)
{
	const uint32_t rest = (s.n0 + s.n1) - *off;

	/* count <= rest < 2^32 and esz <= 64 keep the product below 2^38 */
	if (count > rest)
		return false;
	const uint64_t bytes = count * esz;
	if (bytes > rest)
		return false;
	return rp_take_span(s, off, (uint32_t)bytes, out);
}

void rp_take_string(rp_span s, uint32_t *off, rp_span *out)
{
	const uint32_t start = *off;
	const uint32_t room = (s.n0 + s.n1) - start;
	uint32_t n = 0;

	/*@ loop invariant 0 <= n <= room;
	    loop invariant start + room == rp_span_len(s);
	    loop invariant \forall integer k; start <= k < start + n ==> rp_span_at(s, k) != 0;
	    loop assigns n;
	    loop variant room - n;
	*/
	while (n < room) {
		const uint8_t c = rp_span_byte(s, start + n);
		if (c == 0)
			break;
		n++;
	}
	//@ assert n == room || rp_span_at(s, start + n) == 0;
	(void)rp_take_span(s, off, n, out);
	*off = s.n0 + s.n1;
}

/* The optional helpers read through rp_span_get_* into a local rather than
 * call rp_take_*: WP does not apply a callee's per-behavior assigns at a
 * call site, so after a failed rp_take_* the caller could not prove *off
 * unchanged, which their contracts state. */
bool rp_take_opt_u64(rp_span s, uint32_t *off, bool present, uint64_t *out)
{
	uint64_t v;

	*out = 0u;
	if (!present)
		return true;
	if (!rp_span_get_u64(s, *off, &v))
		return false;
	*out = v;
	*off += 8u;
	return true;
}

bool rp_take_opt_u32x2(rp_span s, uint32_t *off, bool present, uint32_t *a, uint32_t *c)
{
	uint32_t v;

	*a = 0u;
	*c = 0u;
	if (!present)
		return true;
	if (!rp_span_get_u32(s, *off, &v))
		return false;
	*a = v;
	*off += 4u;
	if (!rp_span_get_u32(s, *off, &v))
		return false;
	*c = v;
	*off += 4u;
	return true;
}

rp_span rp_span_prefix_of(rp_span s, uint32_t len)
{
	rp_span p = s;

	if (len <= s.n0) {
		p.n0 = len;
		p.n1 = 0u;
	} else {
		p.n1 = len - s.n0;
	}
	return p;
}
