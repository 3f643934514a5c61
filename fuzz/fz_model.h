/* What the adapter harnesses (perf_ring, perf_backward, ringbuf_adapter)
 * share: the input cursor, the bytes their model producers write into a
 * record body, and the in-memory rings they drain (a perf ring; a BPF ring
 * buffer with its consumer and producer pages and doubly mapped data). */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/asan_interface.h>

#include "rp_bpf_ringbuf_int.h"
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

/* An in-memory BPF ring buffer laid out as the kernel maps it: a consumer
 * page (consumer_pos first) and a producer page (producer_pos first)
 * followed by the data area of `size` bytes (a power of two) twice in a
 * row.  Each part is its own allocation of exactly its size, and the bytes
 * of the two pages after their u64 position are poisoned (ASan, when the
 * harness is built with it), so that any access outside the positions and
 * the two copies is reported.  The model producer writes every data byte
 * into both copies (fz_rb_put8).  consumer_pos = producer_pos = c0 (c0 may
 * be misaligned: a previous consumer's), the data filled with `fill`, and
 * *rb bound by rp_bpf_ringbuf_bind_pages as rp_bpf_ringbuf_map leaves it
 * (no fd, nothing mapped: never unmap it; free with fz_mem_ringbuf_free). */
#define FZ_RB_PAGE 4096u

typedef struct fz_mem_ringbuf {
	uint8_t *cons; /* FZ_RB_PAGE bytes: consumer_pos, then poisoned */
	uint8_t *prod; /* FZ_RB_PAGE + 2 * size: producer_pos, poisoned, the data twice */
	uint8_t *data; /* prod + FZ_RB_PAGE */
	uint64_t size;
} fz_mem_ringbuf;

static inline void fz_mem_ringbuf_free(fz_mem_ringbuf *m)
{
	if (m->cons) {
		ASAN_UNPOISON_MEMORY_REGION(m->cons, FZ_RB_PAGE);
		free(m->cons);
	}
	if (m->prod) {
		ASAN_UNPOISON_MEMORY_REGION(m->prod, FZ_RB_PAGE);
		free(m->prod);
	}
	memset(m, 0, sizeof(*m));
}

static inline bool fz_mem_ringbuf_new(fz_mem_ringbuf *m, rp_bpf_ringbuf *rb, uint64_t size, uint64_t c0,
                                      uint8_t fill, rp_bpf_ringbuf_fn fn, rp_bpf_ringbuf_batch_fn batch_fn,
                                      unsigned flags)
{
	const uint64_t p0 = c0 & ~(uint64_t)7;

	memset(m, 0, sizeof(*m));
	m->size = size;
	m->cons = malloc(FZ_RB_PAGE);
	m->prod = malloc(FZ_RB_PAGE + 2 * size);
	if (!m->cons || !m->prod) {
		fz_mem_ringbuf_free(m);
		return false;
	}
	m->data = m->prod + FZ_RB_PAGE;
	memset(m->cons, 0, FZ_RB_PAGE);
	memset(m->prod, 0, FZ_RB_PAGE);
	memset(m->data, fill, 2 * size);
	memcpy(m->cons, &c0, sizeof(c0));
	memcpy(m->prod, &p0, sizeof(p0));
	ASAN_POISON_MEMORY_REGION(m->cons + 8, FZ_RB_PAGE - 8);
	ASAN_POISON_MEMORY_REGION(m->prod + 8, FZ_RB_PAGE - 8);
	rp_bpf_ringbuf_bind_pages(rb, -1, m->cons, m->prod, FZ_RB_PAGE, size, fn, batch_fn, NULL, flags);
	return true;
}

/* Byte pos (a free-running position) of the data area, in both copies. */
static inline void fz_rb_put8(fz_mem_ringbuf *m, uint64_t pos, uint8_t b)
{
	const uint64_t off = pos & (m->size - 1);
	m->data[off] = b;
	m->data[m->size + off] = b;
}

#endif
