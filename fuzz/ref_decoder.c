#include "ref_decoder.h"

#include "rp_abi.h"
#include "rp_status.h"

/* Distances are computed in a 128-bit integer, so no comparison wraps.  The
 * byte at position p is page[p mod size]; p itself wraps at 2^64, which
 * keeps offsets continuous because the harness sizes are powers of two. */
typedef unsigned __int128 u128;

static uint8_t ref_byte(const uint8_t *page, uint64_t size, uint64_t tail, uint64_t i)
{
	const uint64_t p = tail + i; /* mod 2^64 by C's unsigned arithmetic */
	return page[p % size];
}

static uint64_t ref_le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v * 256u + b[i];
	return v;
}

int ref_next(const uint8_t *page, uint64_t size, uint64_t head, uint64_t tail,
             ref_record *out, uint64_t *next_tail)
{
	u128 h = head;
	if (h < tail)
		h += (u128)1 << 64;
	const u128 avail = h - tail;

	if (avail > size)
		return RP_E_OVERRUN;
	if (tail % 8u != 0)
		return RP_E_TAIL_ALIGN;
	if (avail == 0)
		return RP_EMPTY;
	if (avail < 8)
		return RP_E_TRUNCATED;

	uint8_t hdr[8];
	for (int i = 0; i < 8; i++)
		hdr[i] = ref_byte(page, size, tail, (uint64_t)i);
	const uint32_t type = (uint32_t)ref_le(hdr, 4);
	const uint32_t misc = (uint32_t)ref_le(hdr + 4, 2);
	const uint32_t rsize = (uint32_t)ref_le(hdr + 6, 2);

	if (rsize < 8)
		return RP_E_HDR_SHORT;
	if (rsize % 8 != 0)
		return RP_E_HDR_ALIGN;
	if (rsize > avail)
		return RP_E_TRUNCATED;

	out->pos = tail;
	out->type = type;
	out->misc = misc;
	out->size = rsize;
	for (uint32_t i = 0; i < rsize - 8; i++)
		out->body[i] = ref_byte(page, size, tail, 8u + i);
	*next_tail = (uint64_t)(((u128)tail + rsize) % ((u128)1 << 64));
	return RP_OK;
}

int ref_bpf_output(const ref_record *r, uint32_t *raw_size, const uint8_t **payload)
{
	if (r->type != RP_RECORD_SAMPLE)
		return RP_E_TYPE;
	const uint64_t len = r->size - 8u;
	if (len < 4)
		return RP_E_BODY_SHORT;
	const uint64_t raw = ref_le(r->body, 4);
	if (4 + raw > len)
		return RP_E_BODY_SHORT;
	*raw_size = (uint32_t)raw;
	*payload = r->body + 4;
	return RP_OK;
}

int ref_lost(const ref_record *r, uint64_t *id, uint64_t *lost)
{
	if (r->type != RP_RECORD_LOST)
		return RP_E_TYPE;
	if (r->size - 8u < 16)
		return RP_E_BODY_SHORT;
	*id = ref_le(r->body, 8);
	*lost = ref_le(r->body + 8, 8);
	return RP_OK;
}
