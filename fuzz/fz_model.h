/* What the adapter harnesses (perf_ring, perf_backward) share: the input
 * cursor and the bytes their model producers write into a record body. */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fuzz input, read one byte at a time (0 past its end). */
typedef struct fz_cur {
	const uint8_t *p;
	size_t n, i;
} fz_cur;

static inline uint8_t fz_u8(fz_cur *k)
{
	return k->i < k->n ? k->p[k->i++] : 0;
}

/* Body byte i of the record with sequence number seq: its raw size (the
 * first 4 bytes of a BPF-output sample), its id and count (the first 16
 * of a LOST that holds them), else a pattern of seq and i. */
static inline uint8_t fz_body_byte(uint32_t seq, bool has_raw, uint32_t raw, bool lost_ok,
                                   uint64_t lost, uint32_t i)
{
	if (has_raw && i < 4)
		return (uint8_t)(raw >> (8 * i));
	if (lost_ok && i < 16)
		return (uint8_t)((i < 8 ? (uint64_t)seq : lost) >> (8 * (i % 8)));
	return (uint8_t)(seq * 151u + i * 29u + 7u);
}

/* *a += v, saturating as the adapters' counters do. */
static inline void fz_sat_add(uint64_t *a, uint64_t v)
{
	*a = *a + v < *a ? UINT64_MAX : *a + v;
}

#endif
