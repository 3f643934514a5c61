/* What the adapter harnesses (perf_ring, perf_backward) share: the input
 * cursor, the bytes their model producers write into a record body, and
 * the in-memory ring they drain. */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rp_perf_ring.h"

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

/* An in-memory perf ring of data size `size` (a power of two): one buffer of
 * exactly control page + data (ASan sees any access past it), the data
 * filled with `fill`, data_head = data_tail = t0, and *r as rp_perf_ring_map
 * leaves it (no fd, nothing mapped: never unmap it).  Returns the buffer to
 * free, NULL if out of memory. */
static inline uint8_t *fz_mem_ring(rp_perf_ring *r, uint64_t size, uint64_t t0, uint8_t fill,
                                   unsigned flags)
{
	const size_t ctl = sizeof(struct perf_event_mmap_page);
	uint8_t *buf = malloc(ctl + size);
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)buf;

	if (!buf)
		return NULL;
	memset(buf, 0, ctl);
	memset(buf + ctl, fill, size);
	pg->data_offset = ctl;
	pg->data_size = size;
	pg->data_head = t0;
	pg->data_tail = t0;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->flags = flags;
	r->base = buf;
	r->map_len = ctl + size;
	r->data.data = buf + ctl;
	r->data.size = size;
	r->tail = t0;
	return buf;
}

#endif
