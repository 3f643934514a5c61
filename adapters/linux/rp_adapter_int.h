/* Primitives the Linux adapters share (internal: not installed, as every
 * *_int.h).  One copy each, used by the perf ring, BPF ring buffer and user
 * ring buffer adapters. */
#ifndef RP_ADAPTER_INT_H
#define RP_ADAPTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rp_adapter.h"

static inline bool rp_is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* *c += v, sticking at UINT64_MAX: a counter never wraps. */
static inline void rp_sat_add(uint64_t *c, uint64_t v)
{
	*c = *c + v < *c ? UINT64_MAX : *c + v;
}

/* The records the next batch may take (least .. cap, 1 <= least <= cap):
 * the last batch took n records spanning bytes of the ring (bytes 0: cap);
 * about as many as span RP_BATCH_BYTES (rp_adapter.h), never fewer than
 * least. */
static inline uint32_t rp_batch_fit(uint32_t n, uint64_t bytes, uint32_t least, uint32_t cap)
{
	const uint64_t fit = bytes ? (uint64_t)n * RP_BATCH_BYTES / bytes : cap;

	return fit < least ? least : fit > cap ? cap : (uint32_t)fit;
}

/* Check that map_fd is an open BPF map of the given type (BPF_MAP_TYPE_RINGBUF
 * or BPF_MAP_TYPE_USER_RINGBUF) whose data area, max_entries bytes, is a
 * power-of-two multiple of the page and at most 2^31 (the kernel maps it
 * twice in a row after one page).  Returns 0 with *size and *page, or -EBADF,
 * the -errno of bpf_obj_get_info_by_fd, wrong_type (another kind of map) or
 * bad_size. */
int rp_bpf_ring_map_check(int map_fd, uint32_t type, int wrong_type, int bad_size,
                          uint64_t *size, size_t *page);

#endif
