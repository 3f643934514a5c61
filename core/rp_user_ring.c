#include "rp_user_ring.h"

/* The byte of the len word that holds bits 24-31 (BUSY, DISCARD). */
#if RP_BIG_ENDIAN
#define RP_UR_TOP 0u
#else
#define RP_UR_TOP 3u
#endif

rp_status rp_user_ring_reserve(uint8_t *data, uint64_t size, uint64_t consumer,
                               uint64_t *producer, uint32_t len, rp_ur_rsv *rsv)
{
	const uint64_t p = *producer;

	if (len > RP_UR_LEN_MAX)
		return RP_E_UR_LEN;
	const uint64_t total = rp_rb_total_of(len);
	//@ assert ur_total: total == rp_rb_total(len) && len + 8 <= total;
	if (total > size)
		return RP_E_UR_TOO_BIG;
	const uint64_t used = rp_pos_dist(p, consumer);
	if (used > size)
		return RP_E_UR_OVERRUN;
	if (consumer % 8u != 0 || p % 8u != 0)
		return RP_E_UR_ALIGN;
	if (total > size - used)
		return RP_E_UR_FULL;

	const uint64_t off = rp_pos_off(p, size);
	/* len < 2^24: three bytes, each named so that the word is linear. */
	const uint32_t b0 = len % 256u;
	const uint32_t q = len / 256u;
	const uint32_t b1 = q % 256u;
	const uint32_t b2 = q / 256u;
	//@ assert ur_bytes: len == b0 + 256 * q && q == b1 + 256 * b2 && b2 < 256;
#if RP_BIG_ENDIAN
	RP_STORE_U8(data + off, RP_UR_TOP_BUSY);
	RP_STORE_U8(data + off + 1, b2);
	RP_STORE_U8(data + off + 2, b1);
	RP_STORE_U8(data + off + 3, b0);
#else
	RP_STORE_U8(data + off, b0);
	RP_STORE_U8(data + off + 1, b1);
	RP_STORE_U8(data + off + 2, b2);
	RP_STORE_U8(data + off + 3, RP_UR_TOP_BUSY);
#endif
	RP_STORE_U8(data + off + 4, 0u);
	RP_STORE_U8(data + off + 5, 0u);
	RP_STORE_U8(data + off + 6, 0u);
	RP_STORE_U8(data + off + 7, 0u);
	//@ assert ur_w: rp_ur_word(data, off) == len + rp_rb_busy_bit;
	//@ assert ur_z: data[off + 4] == 0 && data[off + 5] == 0 && data[off + 6] == 0 && data[off + 7] == 0;

	rsv->pos = p;
	rsv->off = off;
	rsv->len = len;
	rsv->size = (uint32_t)total;
	rsv->payload = rp_slices_after(data, size, off, len);
	*producer = rp_pos_add(p, total);
	return RP_OK;
}

rp_status rp_user_ring_commit(uint8_t *data, uint64_t size, uint64_t off, bool discard)
{
	if (off % 8u != 0 || off >= size)
		return RP_E_UR_OFF;
	/* off + 8 <= size: both are multiples of 8 */
	if (RP_LOAD_U8(data + off + RP_UR_TOP) != RP_UR_TOP_BUSY)
		return RP_E_UR_NOT_RESERVED;
	RP_STORE_U8(data + off + RP_UR_TOP, discard ? RP_UR_TOP_DISCARD : 0u);
	return RP_OK;
}
